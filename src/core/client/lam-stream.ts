import { l10n } from '../shared/l10n';
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
      message: l10n.t('The task-run stream sent an event that is not JSON: "{0}"', quoteBody(data, 120)),
    });
  }
  return normalizeLamRunResponse(value);
}

/** States after which a task is still going: a stream that stops at one of these was cut off. */
const UNFINISHED = new Set(['STARTING', 'PROCESSING']);

function endedEarly(last: LamRunResponse | undefined): DenError {
  return new DenError({
    code: 'protocol',
    message: last
      ? l10n.t(
          'The task-run stream ended before the task finished (last status: {0}): the connection closed early',
          last.taskStatus,
        )
      : l10n.t(
          'The task-run stream ended before the task finished (no status at all): the connection closed early',
        ),
    details: { truncated: true },
  });
}

/**
 * The states of a streamed `/lam/run`, one per server-sent event, until the body ends. A service
 * that ignores `stream: true` and answers plain JSON yields that one response; a `[DONE]`
 * sentinel (not documented, but common) ends the stream. A stream that ends with no state, or
 * whose last state is `STARTING` or `PROCESSING`, was cut off: after the states it yields, it
 * throws a `protocol` error marked `truncated` (any other last status counts as final).
 */
export async function* readLamStream(res: StreamedResponse): AsyncGenerator<LamRunResponse> {
  try {
    const type = String(res.headers['content-type'] ?? '');
    if (/json/i.test(type) && !/event-stream/i.test(type)) {
      yield parse(await readText(res.chunks));
      return;
    }
    let last: LamRunResponse | undefined;
    for await (const ev of parseSse(res.chunks)) {
      const data = ev.data.trim();
      if (data === '') continue;
      if (data === '[DONE]') break;
      last = parse(data);
      yield last;
    }
    if (!last || UNFINISHED.has(last.taskStatus)) throw endedEarly(last);
  } finally {
    res.cancel();
  }
}
