/**
 * The HTTP side of the emulator: control endpoints, injected faults, authentication, and the
 * route table of the service.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody, type EmulatorContext } from './context';
import { HttpError, readJson, sendError, sendJson, sendText, type Sent } from './http-util';
import { lamRun } from './lam';
import { mediaEntry, upload } from './media-routes';
import {
  abortTurn,
  deleteSession,
  getSession,
  listSessions,
  renameSession,
  startTurn,
  type JsonReply,
} from './session-routes';
import type { KeyOwner } from './store';
import type { FaultPlan, HttpFaultRule } from './types';

interface Route {
  method: string;
  path: RegExp;
  /** `bearer` (default), `lam` (service-secret-key) or `optional` (media downloads). */
  auth?: 'bearer' | 'lam' | 'optional';
  handle(c: RouteCall): Promise<JsonReply | Sent> | JsonReply | Sent;
}

interface RouteCall {
  ctx: EmulatorContext;
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  params: string[];
  owner: KeyOwner;
}

const routes: Route[] = [
  { method: 'POST', path: /^\/(?:sessions|chat)\/new$/, handle: (c) => startTurn(c.ctx, c.req, c.owner) },
  { method: 'GET', path: /^\/(?:sessions|chats)$/, handle: (c) => listSessions(c.ctx, c.url, c.owner) },
  { method: 'GET', path: /^\/sessions\/([^/]+)$/, handle: (c) => getSession(c.ctx, c.params[0], c.owner) },
  {
    method: 'PUT',
    path: /^\/sessions\/([^/]+)\/title$/,
    handle: (c) => renameSession(c.ctx, c.req, c.params[0], c.owner),
  },
  {
    method: 'DELETE',
    path: /^\/sessions\/([^/]+)$/,
    handle: (c) => deleteSession(c.ctx, c.params[0], c.owner),
  },
  {
    method: 'DELETE',
    path: /^\/message\/([^/]+)\/abort$/,
    handle: (c) => abortTurn(c.ctx, c.params[0], c.owner),
  },
  { method: 'PUT', path: /^\/media\/upload$/, handle: (c) => upload(c.ctx, c.req, c.owner) },
  { method: 'POST', path: /^\/media\/upload$/, handle: (c) => upload(c.ctx, c.req, c.owner) },
  {
    method: 'GET',
    path: /^\/media\/(.+)$/,
    auth: 'optional',
    handle: (c) => {
      const entry = mediaEntry(c.ctx, c.params[0], c.owner.userId ? c.owner : undefined);
      const content = entry.content ?? Buffer.alloc(0);
      c.res.writeHead(200, {
        'X-Rate-Limit-Max-Concurrent': String(c.ctx.opts.maxConcurrent),
        'Content-Type': entry.contentType,
        'Content-Length': String(content.length),
      });
      c.res.end(content);
      return { sent: true };
    },
  },
  { method: 'POST', path: /^\/lam\/run$/, auth: 'lam', handle: (c) => lamRun(c.ctx, c.req, c.res, c.owner) },
];

function bearer(req: IncomingMessage): string | undefined {
  const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '');
  return m?.[1];
}

function isJsonReply(r: JsonReply | Sent): r is JsonReply {
  return !('sent' in r);
}

/** The `request` handler of the emulator's HTTP server. */
export function requestHandler(ctx: EmulatorContext): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(ctx, req, res).catch((err: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const e = err instanceof HttpError ? err : new HttpError(500, 'internal', 'Emulator error');
      req.resume();
      sendError(ctx, res, e);
    });
  };
}

async function handle(ctx: EmulatorContext, req: IncomingMessage, res: ServerResponse): Promise<Sent> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  const method = (req.method ?? 'GET').toUpperCase();
  if (url.pathname.startsWith('/__emulator/')) return control(ctx, req, res, method, url.pathname);
  const latency = ctx.faults.plan.latencyMs;
  if (latency && latency > 0) await ctx.timers.sleep(latency);
  const rule = ctx.faults.takeRule(method, url.pathname);
  if (rule) {
    req.resume();
    if (typeof rule.body === 'string') return sendText(ctx, res, rule.status, rule.body, rule.headers);
    const body = rule.body ?? errorBody('injected', `Injected failure (HTTP ${rule.status})`);
    return sendJson(ctx, res, rule.status, body, rule.headers);
  }
  let pathMatched = false;
  for (const route of routes) {
    const m = route.path.exec(url.pathname);
    if (!m) continue;
    pathMatched = true;
    if (route.method !== method) continue;
    const params = m.slice(1).map((p) => decodeURIComponent(p));
    const key = route.auth === 'lam' ? headerValue(req, 'service-secret-key') : bearer(req);
    const owner = ctx.store.ownerOf(key);
    if (!owner && route.auth !== 'optional') {
      req.resume();
      throw new HttpError(401, 'unauthorized', 'Missing or invalid API key');
    }
    if (owner?.readOnly && method !== 'GET') {
      req.resume();
      throw new HttpError(403, 'forbidden', 'This key is read-only');
    }
    const r = await route.handle({
      ctx,
      req,
      res,
      url,
      params,
      owner: owner ?? { userId: '', readOnly: true },
    });
    return isJsonReply(r) ? sendJson(ctx, res, r.status, r.body, r.headers) : r;
  }
  req.resume();
  if (pathMatched)
    throw new HttpError(405, 'method_not_allowed', `${method} is not allowed on ${url.pathname}`);
  throw new HttpError(404, 'not_found', `No endpoint ${url.pathname}`);
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Control endpoints for other processes (UI tests, the demo): no auth, no faults. */
async function control(
  ctx: EmulatorContext,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  path: string,
): Promise<Sent> {
  try {
    if (method === 'POST' && path === '/__emulator/faults') {
      ctx.faults.replace((await readJson(req)) as FaultPlan);
      return sendJson(ctx, res, 200, { faults: ctx.faults.plan }, {}, false);
    }
    if (method === 'POST' && path === '/__emulator/fail-next') {
      const rule = (await readJson(req)) as unknown as HttpFaultRule;
      if (typeof rule.path !== 'string' || typeof rule.status !== 'number') {
        throw new HttpError(400, 'bad_request', 'A rule needs `path` (regexp source) and `status`');
      }
      try {
        ctx.faults.failNext(rule);
      } catch {
        throw new HttpError(400, 'bad_request', '`path` is not a valid regular expression');
      }
      return sendJson(ctx, res, 200, { ok: true }, {}, false);
    }
    const m = /^\/__emulator\/events\/([^/]+)\/([^/]+)$/.exec(path);
    if (method === 'GET' && m) {
      const s = ctx.store.sessions.get(decodeURIComponent(m[1]));
      const msg = s?.messages.find((x) => x.id === decodeURIComponent(m[2]) && x.type === 'agent');
      if (!msg) throw new HttpError(404, 'not_found', 'No such agent message');
      return sendJson(ctx, res, 200, msg.events, {}, false);
    }
    req.resume();
    throw new HttpError(404, 'not_found', `No control endpoint ${method} ${path}`);
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    return sendError(ctx, res, err, false);
  }
}
