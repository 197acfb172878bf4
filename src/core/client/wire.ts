import type { LamRunRequest, ListSessionsQuery, StartTurnRequest } from './types';

/*
 * Den's request types → the service's wire names. Undefined fields are left out rather than sent
 * as null, so the service applies its own defaults.
 */

function compact(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out;
}

/** The `POST /sessions/new` body. `sdkVersion` applies when the request names none. */
export function startTurnBody(req: StartTurnRequest, sdkVersion?: string): Record<string, unknown> {
  return compact({
    session_id: req.sessionId,
    task: req.task,
    mode: req.mode,
    ace_version: req.effort,
    files: req.files?.map((f) => ({ key: f.key, name: f.name, type: f.type, size: f.size })) ?? [],
    base_prompt: req.basePrompt,
    references: req.references,
    history: req.history,
    continuation: req.continuation,
    sdk_version: req.sdkVersion ?? sdkVersion,
  });
}

/** Largest page the service serves. */
export const MAX_PAGE_SIZE = 100;

/** The `GET /sessions` query string parameters (limit clamped to 1…100, page at least 1). */
export function listSessionsParams(q: ListSessionsQuery): Record<string, string> {
  const out: Record<string, string> = {};
  if (q.page !== undefined) out.page = String(Math.max(1, Math.floor(q.page)));
  if (q.limit !== undefined) out.limit = String(Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(q.limit))));
  if (q.search !== undefined && q.search !== '') out.search = q.search;
  if (q.sort !== undefined) out.sort = q.sort;
  if (q.order !== undefined) out.order = q.order;
  return out;
}

/** The `POST /lam/run` body. */
export function lamRunBody(req: LamRunRequest, stream: boolean): Record<string, unknown> {
  const adv = req.advanced;
  return compact({
    query: req.query,
    app_url: req.appUrl,
    schema: req.schema,
    chat_history: req.chatHistory,
    max_count: req.maxCount,
    stream,
    mode: req.mode,
    service_passcode: req.servicePasscode,
    advanced:
      adv === undefined
        ? undefined
        : compact({ block_ads: adv.blockAds, solve_captchas: adv.solveCaptchas, proxy: adv.proxy }),
  });
}
