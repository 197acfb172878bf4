/** `POST /lam/run`: schema-shaped results as one JSON body or as server-sent events. */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EmulatorContext } from './context';
import { commonHeaders, HttpError, readJson, sendJson, type Sent } from './http-util';

type Schema = { [field: string]: string | Schema };

function isSchema(v: unknown): v is Schema {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/** One sample object in the shape of `schema`, its values guessed from the field descriptions. */
export function sampleFor(schema: Schema, index: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, desc] of Object.entries(schema)) {
    if (isSchema(desc)) {
      out[field] = sampleFor(desc, index);
      continue;
    }
    const d = `${field} ${String(desc)}`.toLowerCase();
    if (/price|cost|amount/.test(d)) out[field] = Math.round((19.99 + index * 7.5) * 100) / 100;
    else if (/count|number|rating|score|quantity|age|year/.test(d)) out[field] = 3 + index;
    else if (/url|link|href/.test(d)) out[field] = `https://example.com/items/${index + 1}`;
    else if (/date|time/.test(d)) out[field] = new Date(Date.UTC(2025, 0, 1 + index)).toISOString();
    else if (/^(is|has)|bool|whether/.test(d)) out[field] = index % 2 === 0;
    else out[field] = `${field.replace(/_/g, ' ')} ${index + 1}`;
  }
  return out;
}

function livestreamUrl(ctx: EmulatorContext, sessionId: string): string {
  return `${ctx.url()}/livestream/${sessionId}?enable_actions=false&theme=dark`;
}

export async function lamRun(ctx: EmulatorContext, req: IncomingMessage, res: ServerResponse): Promise<Sent> {
  const body = await readJson(req);
  if (typeof body.query !== 'string' || !body.query.trim())
    throw new HttpError(400, 'bad_request', '`query` is required');
  if (body.app_url !== undefined) {
    try {
      new URL(String(body.app_url));
    } catch {
      throw new HttpError(400, 'bad_request', '`app_url` must be an absolute URL');
    }
  }
  const max =
    typeof body.max_count === 'number' && body.max_count >= 0 ? Math.min(Math.floor(body.max_count), 50) : 3;
  const schema = isSchema(body.schema) ? body.schema : undefined;
  const sessionId = randomUUID();
  const q = body.query.toLowerCase();
  const base = { properties: { sessionId }, livestream_url: livestreamUrl(ctx, sessionId) };
  let final: Record<string, unknown>;
  if (q.includes('fail')) {
    final = {
      task_status: 'FAILURE',
      message: 'The task failed: the page did not load (HTTP 502).',
      data: [],
      ...base,
    };
  } else if (q.includes('human')) {
    final = {
      task_status: 'HUMAN_INTERACTION',
      message: 'The site asks for a login; a person must take over in the live stream.',
      data: [],
      ...base,
    };
  } else {
    const data = schema ? Array.from({ length: max }, (_x, i) => sampleFor(schema, i)) : [];
    final = {
      task_status: 'DONE',
      message: `Found ${data.length} results for "${body.query}".`,
      data,
      ...base,
    };
  }
  if (body.stream !== true) return sendJson(ctx, res, 200, final);
  const states: Record<string, unknown>[] = [
    { task_status: 'STARTING', message: 'Starting a browser session.', data: [], ...base },
    {
      task_status: 'PROCESSING',
      message: `Opening ${String(body.app_url ?? 'the app')}.`,
      data: [],
      ...base,
    },
    { task_status: 'PROCESSING', message: 'Reading the page.', data: [], ...base },
    final,
  ];
  // Stream switches (query text, case-insensitive): `no final` ends the body after the last
  // PROCESSING state; `crlf` ends lines with CRLF; `split at <N>` writes the whole body in two
  // writes, cut after byte N; `byte by byte` writes it one byte per write.
  if (q.includes('no final')) states.pop();
  const eol = q.includes('crlf') ? '\r\n' : '\n';
  const frames = states.map((s) => Buffer.from(`data: ${JSON.stringify(s)}${eol}${eol}`, 'utf8'));
  res.writeHead(200, {
    ...commonHeaders(ctx),
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
  });
  const split = /split at (\d+)/.exec(q);
  const whole = Buffer.concat(frames);
  const pieces = split
    ? [whole.subarray(0, Number(split[1])), whole.subarray(Number(split[1]))]
    : q.includes('byte by byte')
      ? Array.from(whole, (_b, i) => whole.subarray(i, i + 1))
      : frames;
  for (const piece of pieces) {
    if (res.destroyed) break;
    if (piece.length > 0) res.write(piece);
    await ctx.timers.sleep(
      split || pieces.length > frames.length ? 0 : Math.max(5, ctx.opts.eventDelayMs * 5),
    );
  }
  res.end();
  return { sent: true };
}
