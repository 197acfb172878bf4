/** `POST /lam/run`: schema-shaped results as one JSON body or as server-sent events. */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EmulatorContext } from './context';
import type { KeyOwner } from './store';
import { commonHeaders, HttpError, readJson, sendJson, type Sent } from './http-util';

type Schema = { [field: string]: string | Schema };

function isSchema(v: unknown): v is Schema {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/**
 * One sample object in the shape of `schema`, its values guessed from the field descriptions.
 * `drift` (the how-many-th run of the same query) raises prices by 1 per run.
 */
export function sampleFor(schema: Schema, index: number, drift = 0): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, desc] of Object.entries(schema)) {
    if (isSchema(desc)) {
      out[field] = sampleFor(desc, index, drift);
      continue;
    }
    const d = `${field} ${String(desc)}`.toLowerCase();
    if (/\b(url|link|href)/.test(d)) out[field] = `https://example.com/items/${index + 1}`;
    else if (/price|cost|amount/.test(d)) out[field] = Math.round((19.99 + index * 7.5 + drift) * 100) / 100;
    else if (/\b(count|number|rating|score|quantity|age|year)s?\b/.test(d)) out[field] = 3 + index;
    else if (/date|time/.test(d)) out[field] = new Date(Date.UTC(2025, 0, 1 + index)).toISOString();
    else if (/^(is|has)|bool|whether/.test(d)) out[field] = index % 2 === 0;
    else out[field] = `${field.replace(/_/g, ' ')} ${index + 1}`;
  }
  return out;
}

function livestreamUrl(ctx: EmulatorContext, sessionId: string): string {
  return `${ctx.url()}/livestream/${sessionId}?enable_actions=false&theme=dark`;
}

/** The most request bodies kept for `emu.lamRequests()`. */
const MAX_RECORDED = 100;
/** `hold`: the most "still working" states sent before the emulator gives up on the client. */
const MAX_HOLD_STATES = 6_000;

/** `gaps`, after the first field (which stays whole, as a key would): see the README. */
function leaveGaps(record: Record<string, unknown>, i: number): void {
  const keys = Object.keys(record).slice(1);
  if (i % 3 === 1 && keys.length > 0) delete record[keys[0]];
  if (i % 3 === 2 && keys.length > 0) record[keys[keys.length - 1]] = null;
}

export async function lamRun(
  ctx: EmulatorContext,
  req: IncomingMessage,
  res: ServerResponse,
  owner: KeyOwner,
): Promise<Sent> {
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
  ctx.lamRequests.push(structuredClone(body));
  if (ctx.lamRequests.length > MAX_RECORDED) ctx.lamRequests.shift();
  const max =
    typeof body.max_count === 'number' && body.max_count >= 0 ? Math.min(Math.floor(body.max_count), 50) : 3;
  const schema = isSchema(body.schema) ? body.schema : undefined;
  const sessionId = randomUUID();
  const q = body.query.toLowerCase();
  const runKey = JSON.stringify([body.query, body.app_url ?? null]);
  const nth = ctx.lamRuns.get(runKey) ?? 0;
  ctx.lamRuns.set(runKey, nth + 1);
  if (ctx.opts.lamSessions) ctx.store.createSession(owner.userId, sessionId, body.query.slice(0, 80));
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
    // `drift`: the n-th run of the same query and app starts n records later (the first n gone, n
    // new at the end) with prices raised by n. `gaps`: every third record lacks its second field,
    // the next one has its last field null.
    const shift = q.includes('drift') ? nth : 0;
    const data = schema ? Array.from({ length: max }, (_x, i) => sampleFor(schema, i + shift, shift)) : [];
    if (q.includes('gaps')) data.forEach(leaveGaps);
    final = {
      task_status: 'DONE',
      message: `Found ${data.length} results for "${body.query}".`,
      data,
      ...base,
    };
  }
  if (body.stream !== true) {
    if (!q.includes('no final')) return sendJson(ctx, res, 200, final);
    // `no final` with streaming off: the JSON answer is cut off half way (the connection closes
    // before the Content-Length it announced).
    const whole = Buffer.from(JSON.stringify(final), 'utf8');
    res.writeHead(200, {
      ...commonHeaders(ctx),
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(whole.length),
    });
    res.write(whole.subarray(0, Math.floor(whole.length / 2)));
    await ctx.timers.sleep(5);
    res.destroy();
    return { sent: true };
  }
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
  if (q.includes('hold')) {
    // `hold`: STARTING, then "still working" states until the client goes away (bounded).
    res.write(frames[0]);
    for (let n = 1; n <= MAX_HOLD_STATES && !res.destroyed; n++) {
      const s = { task_status: 'PROCESSING', message: `Still working (${n}).`, data: [], ...base };
      res.write(`data: ${JSON.stringify(s)}${eol}${eol}`);
      await ctx.timers.sleep(Math.max(50, ctx.opts.eventDelayMs * 5));
    }
    res.end();
    return { sent: true };
  }
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
