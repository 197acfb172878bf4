/** Small HTTP helpers of the emulator: replies (with the fault plan applied) and JSON bodies. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody, type EmulatorContext } from './context';

/** A reply already sent (handlers return it so every path ends in exactly one response). */
export type Sent = { readonly sent: true };
const SENT: Sent = { sent: true };

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export function commonHeaders(ctx: EmulatorContext): Record<string, string> {
  return { 'X-Rate-Limit-Max-Concurrent': String(ctx.opts.maxConcurrent) };
}

/** Sends a JSON body; with `truncateBodies` only about half of it arrives before the socket dies. */
export function sendJson(
  ctx: EmulatorContext,
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  applyFaults = true,
): Sent {
  const text = JSON.stringify(body);
  const buf = Buffer.from(text, 'utf8');
  res.writeHead(status, {
    ...commonHeaders(ctx),
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(buf.length),
    ...headers,
  });
  if (applyFaults && ctx.faults.plan.truncateBodies && buf.length > 1) {
    res.write(buf.subarray(0, Math.floor(buf.length / 2)), () => res.socket?.destroy());
    return SENT;
  }
  res.end(buf);
  return SENT;
}

export function sendError(
  ctx: EmulatorContext,
  res: ServerResponse,
  err: HttpError,
  applyFaults = true,
): Sent {
  return sendJson(
    ctx,
    res,
    err.status,
    errorBody(err.error, err.message, err.details),
    err.headers,
    applyFaults,
  );
}

/** Sends raw text (injected failures with a string body). */
export function sendText(
  ctx: EmulatorContext,
  res: ServerResponse,
  status: number,
  text: string,
  headers: Record<string, string> = {},
): Sent {
  const buf = Buffer.from(text, 'utf8');
  res.writeHead(status, {
    ...commonHeaders(ctx),
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': String(buf.length),
    ...headers,
  });
  res.end(buf);
  return SENT;
}

/** Reads a JSON object body (at most 2 MB). */
export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 2 * 1024 * 1024) throw new HttpError(413, 'payload_too_large', 'JSON body over 2 MB');
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'bad_request', 'Body is not valid JSON');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new HttpError(400, 'bad_request', 'Body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}
