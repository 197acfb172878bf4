import { DenError } from './errors';
import { quoteBody } from './http-errors';
import { normalizeLamRunResponse } from './normalize-results';
import { parseSse } from './sse';
import type { StreamedResponse } from './transport';
import type { LamRunResponse } from './types';

async function readText(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of chunks) parts.push(Buffer.from(c));
  return Buffer.concat(parts).toString('utf8');
}

function parse(data: string): LamRunResponse {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    throw new DenError({
      code: 'protocol',
      message: `The task-run stream sent an event that is not JSON: "${quoteBody(data, 120)}"`,
    });
  }
  return normalizeLamRunResponse(value);
}

/**
 * The states of a streamed `/lam/run`, one per server-sent event, until the body ends. A service
 * that ignores `stream: true` and answers plain JSON yields that one response; a `[DONE]`
 * sentinel (not documented, but common) ends the stream.
 */
export async function* readLamStream(res: StreamedResponse): AsyncGenerator<LamRunResponse> {
  try {
    const type = String(res.headers['content-type'] ?? '');
    if (/json/i.test(type) && !/event-stream/i.test(type)) {
      yield parse(await readText(res.chunks));
      return;
    }
    for await (const ev of parseSse(res.chunks)) {
      const data = ev.data.trim();
      if (data === '') continue;
      if (data === '[DONE]') return;
      yield parse(data);
    }
  } finally {
    res.cancel();
  }
}
