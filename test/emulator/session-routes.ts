/** Session and turn endpoints: start a turn, list, fetch, rename, delete, abort. */
import type { IncomingMessage } from 'node:http';
import { EFFORTS, MODES, type FileInfo, type Mode } from '../../src/core/client/types';
import type { EmulatorContext } from './context';
import { HttpError, readJson } from './http-util';
import { messageJson, sessionJson } from './shapes';
import type { KeyOwner, StoredSession } from './store';
import { RateLimitedError, titleFrom } from './turn-runner';

/** A handler's answer: status, JSON body and extra headers. */
export interface JsonReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

function ownSession(ctx: EmulatorContext, owner: KeyOwner, id: string): StoredSession {
  const s = ctx.store.sessions.get(id);
  if (!s || s.deleted) throw new HttpError(404, 'not_found', `Session ${id} not found`);
  if (s.userId !== owner.userId) throw new HttpError(403, 'forbidden', 'This key cannot access this session');
  return s;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() ? v : undefined;
}

function turnFiles(v: unknown): FileInfo[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new HttpError(400, 'bad_request', '`files` must be an array');
  return v.map((f: Record<string, unknown>, i) => {
    if (!f || typeof f !== 'object' || typeof f.key !== 'string') {
      throw new HttpError(400, 'bad_request', `files[${i}] needs a string key`);
    }
    return {
      key: f.key,
      name: typeof f.name === 'string' ? f.name : (f.key.split('/').pop() ?? f.key),
      size: typeof f.size === 'number' ? f.size : 0,
      ...(typeof f.type === 'string' ? { type: f.type } : {}),
    };
  });
}

export async function startTurn(
  ctx: EmulatorContext,
  req: IncomingMessage,
  owner: KeyOwner,
): Promise<JsonReply> {
  const body = await readJson(req);
  const sessionId = str(body.session_id) ?? str(body.chat_id);
  const task = str(body.task);
  if (!sessionId) throw new HttpError(400, 'bad_request', '`session_id` is required');
  if (!task) throw new HttpError(400, 'bad_request', '`task` is required');
  const mode = (body.mode ?? 'auto') as Mode;
  if (!MODES.includes(mode)) throw new HttpError(400, 'bad_request', `Unknown mode "${String(body.mode)}"`);
  if (body.ace_version !== undefined && !EFFORTS.includes(body.ace_version as 'fast')) {
    throw new HttpError(400, 'bad_request', '`ace_version` must be "fast" or "think"');
  }
  if (body.continuation !== undefined && typeof body.continuation !== 'string') {
    throw new HttpError(400, 'bad_request', '`continuation` must be a JSON string');
  }
  const files = turnFiles(body.files);
  let session = ctx.store.sessions.get(sessionId);
  const created = !session;
  if (session) session = ownSession(ctx, owner, sessionId);
  else session = ctx.store.createSession(owner.userId, sessionId, titleFrom(task));
  try {
    const references = Array.isArray(body.references) ? body.references : [];
    const t = ctx.runner.start({ userId: owner.userId, session, task, mode, files, references });
    const idField = ctx.opts.variant === 'legacy' ? 'assistant_message_id' : 'agent_message_id';
    return {
      status: 200,
      body: {
        session_id: sessionId,
        user_message_id: t.user.id,
        [idField]: t.agent.id,
        status: t.status,
        ...(t.queuePosition !== undefined ? { queue_position: t.queuePosition } : {}),
      },
    };
  } catch (err) {
    if (!(err instanceof RateLimitedError)) throw err;
    if (created) ctx.store.sessions.delete(sessionId);
    throw new HttpError(
      429,
      'rate_limited',
      `Too many concurrent turns: at most ${ctx.opts.maxConcurrent} may run at once`,
      { 'X-Rate-Limit-Retry-After': String(err.retryAfterSeconds) },
      { max_concurrent: ctx.opts.maxConcurrent },
    );
  }
}

const SORTS = ['updatedAt', 'createdAt', 'title'] as const;

export function listSessions(ctx: EmulatorContext, url: URL, owner: KeyOwner): JsonReply {
  const q = url.searchParams;
  const page = Math.max(1, Math.floor(Number(q.get('page') ?? '1')) || 1);
  const limit = Math.min(100, Math.max(1, Math.floor(Number(q.get('limit') ?? '20')) || 20));
  const sortParam = q.get('sort') ?? 'updatedAt';
  const sort = (SORTS as readonly string[]).includes(sortParam)
    ? (sortParam as (typeof SORTS)[number])
    : 'updatedAt';
  const dir = q.get('order') === 'asc' ? 1 : -1;
  const search = (q.get('search') ?? '').trim().toLowerCase();
  const mine = [...ctx.store.sessions.values()].filter(
    (s) => s.userId === owner.userId && (!search || s.title.toLowerCase().includes(search)),
  );
  mine.sort((a, b) => {
    const c = sort === 'title' ? a.title.localeCompare(b.title) : a[sort] - b[sort];
    return c !== 0 ? c * dir : a.sessionId.localeCompare(b.sessionId);
  });
  const total = mine.length;
  const items = mine.slice((page - 1) * limit, page * limit).map((s) => {
    const json = sessionJson(s, ctx.opts.variant);
    if (!ctx.opts.listUpdatedAt) delete json.updatedAt;
    return json;
  });
  return {
    status: 200,
    body: {
      [ctx.opts.variant === 'legacy' ? 'chats' : 'sessions']: items,
      meta: { total_count: total, total_pages: Math.ceil(total / limit), current_page: page },
    },
  };
}

export function getSession(ctx: EmulatorContext, id: string, owner: KeyOwner): JsonReply {
  const s = ownSession(ctx, owner, id);
  const v = ctx.opts.variant;
  return {
    status: 200,
    body: {
      [v === 'legacy' ? 'chat' : 'session']: sessionJson(s, v),
      messages: s.messages.map((m) => messageJson(m, v)),
    },
  };
}

export async function renameSession(
  ctx: EmulatorContext,
  req: IncomingMessage,
  id: string,
  owner: KeyOwner,
): Promise<JsonReply> {
  const body = await readJson(req);
  const s = ownSession(ctx, owner, id);
  const title = typeof body.title === 'string' ? body.title.trim() : '';
  if (!title) throw new HttpError(400, 'bad_request', '`title` must be a non-empty string');
  if (title.length > 200) throw new HttpError(400, 'bad_request', '`title` is longer than 200 characters');
  s.title = title;
  s.updatedAt = Date.now();
  const v = ctx.opts.variant;
  return { status: 200, body: { [v === 'legacy' ? 'chat' : 'session']: sessionJson(s, v) } };
}

export function deleteSession(ctx: EmulatorContext, id: string, owner: KeyOwner): JsonReply {
  const s = ownSession(ctx, owner, id);
  for (const m of s.messages) if (m.type === 'agent') ctx.runner.abort(m.id, 'Session deleted');
  s.deleted = true;
  s.updatedAt = Date.now();
  return { status: 200, body: { success: true } };
}

export function abortTurn(ctx: EmulatorContext, agentMessageId: string, owner: KeyOwner): JsonReply {
  const found = ctx.store.findAgentMessage(agentMessageId);
  if (!found) throw new HttpError(404, 'not_found', `Message ${agentMessageId} not found`);
  if (found.session.userId !== owner.userId)
    throw new HttpError(403, 'forbidden', 'This key cannot access this message');
  const aborted = ctx.runner.abort(agentMessageId, 'Aborted by the user');
  return {
    status: 200,
    body: aborted
      ? { success: true, message: 'Task aborted' }
      : { success: false, message: 'The task had already ended' },
  };
}
