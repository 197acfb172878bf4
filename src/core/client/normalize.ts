import { l10n } from '../shared/l10n';
import { MODES } from './types';
import type {
  AgentEvent,
  FileInfo,
  LegacyBlock,
  ListSessionsQuery,
  Message,
  MessageStatus,
  Mode,
  Session,
  SessionDetail,
  SessionPage,
} from './types';
import { isRecord, isString, oneOf } from '../shared/schema';
import {
  baseName,
  describe,
  expectObject,
  pick,
  protocolError,
  readArray,
  readBoolean,
  readId,
  readNumber,
  readString,
  readTime,
  type WireObject,
} from './readers';

/*
 * Tolerant readers for the session API: every variant in `service-behaviour.md` (current and the
 * older `chat` family) becomes the same `types.ts` model. Unknown extra fields are ignored; a body
 * whose overall shape is unreadable is a `protocol` DenError. Results of turn starts, uploads,
 * aborts and task runs are read by `normalize-results.ts`.
 */

/** A FileInfo from a wire object; undefined when no key can be found (`fallbackKey` = its map key). */
export function normalizeFileInfo(raw: unknown, fallbackKey?: string): FileInfo | undefined {
  if (!isRecord(raw)) return undefined;
  const key = readId(pick(raw, 'key', 'path', 'file_key', 'fileKey')) ?? fallbackKey;
  if (key === undefined) return undefined;
  const file: FileInfo = {
    key,
    name: readString(pick(raw, 'name', 'filename', 'fileName')) ?? baseName(fallbackKey ?? key),
    size: readNumber(raw.size) ?? 0,
  };
  const type = readString(pick(raw, 'type', 'contentType', 'content_type', 'mimeType', 'mime_type'));
  if (type !== undefined) file.type = type;
  const updatedAt = readTime(pick(raw, 'updatedAt', 'updated_at', 'modifiedAt'));
  if (updatedAt !== undefined) file.updatedAt = updatedAt;
  return file;
}

function normalizeFiles(raw: unknown, what: string): FileInfo[] {
  const list = readArray(raw, what) ?? [];
  const out: FileInfo[] = [];
  for (const entry of list) {
    const f = normalizeFileInfo(entry);
    if (f) out.push(f);
  }
  return out;
}

function normalizeSnapshot(raw: unknown): Record<string, FileInfo> {
  const out: Record<string, FileInfo> = {};
  if (Array.isArray(raw)) {
    for (const entry of raw) {
      const f = normalizeFileInfo(entry);
      if (f) out[f.key] = f;
    }
  } else if (isRecord(raw)) {
    for (const [k, v] of Object.entries(raw)) {
      const f = normalizeFileInfo(v, k);
      if (f) out[k] = f;
    }
  }
  return out;
}

/** A Session from either variant (`sessionId` or `chatId`, `_id`, snake_case). */
export function normalizeSession(raw: unknown): Session {
  const o = expectObject(raw, l10n.t('session'));
  const sessionId = readId(pick(o, 'sessionId', 'chatId', 'session_id', 'chat_id', 'id', '_id'));
  if (sessionId === undefined) throw protocolError(l10n.t('session'), l10n.t('it has no sessionId'));
  const createdAt = readTime(pick(o, 'createdAt', 'created_at')) ?? 0;
  const session: Session = {
    id: readId(pick(o, 'id', '_id')) ?? sessionId,
    sessionId,
    title: readString(pick(o, 'title', 'name')) ?? '',
    createdAt,
    updatedAt: readTime(pick(o, 'updatedAt', 'updated_at')) ?? createdAt,
    deleted: readBoolean(pick(o, 'deleted', 'isDeleted')) ?? false,
    isPinned: readBoolean(pick(o, 'isPinned', 'is_pinned', 'pinned')) ?? false,
    fileSnapshot: normalizeSnapshot(pick(o, 'fileSnapshot', 'file_snapshot')),
  };
  const userId = readId(pick(o, 'userId', 'user_id'));
  if (userId !== undefined) session.userId = userId;
  const image = readString(pick(o, 'sandboxImage', 'sandbox_image'));
  if (image !== undefined) session.sandboxImage = image;
  return session;
}

/**
 * `GET /sessions` → a page. Accepts `sessions` or `chats` (or a bare array); entries that are not
 * objects or carry no id cannot be addressed, so they are left out and counted in `skipped`.
 */
export function normalizeSessionPage(raw: unknown, query: ListSessionsQuery = {}): SessionPage {
  const list = Array.isArray(raw) ? raw : listOf(expectObject(raw, l10n.t('session list')));
  const sessions: Session[] = [];
  let skipped = 0;
  for (const entry of list) {
    try {
      sessions.push(normalizeSession(entry));
    } catch {
      skipped++;
    }
  }
  const meta = isRecord(raw) ? pick(raw, 'meta', 'pagination') : undefined;
  const m: WireObject = isRecord(meta) ? meta : isRecord(raw) ? raw : {};
  const totalCount = readNumber(pick(m, 'total_count', 'totalCount', 'total')) ?? list.length;
  const limit = query.limit ?? Math.max(list.length, 1);
  const page: SessionPage = {
    sessions,
    totalCount,
    totalPages:
      readNumber(pick(m, 'total_pages', 'totalPages', 'pages')) ?? Math.max(1, Math.ceil(totalCount / limit)),
    currentPage: readNumber(pick(m, 'current_page', 'currentPage', 'page')) ?? query.page ?? 1,
  };
  if (skipped > 0) page.skipped = skipped;
  return page;
}

function listOf(o: WireObject): unknown[] {
  for (const k of ['sessions', 'chats', 'data', 'items', 'results']) {
    if (Array.isArray(o[k])) return o[k] as unknown[];
  }
  throw protocolError(l10n.t('session list'), l10n.t('it has no `sessions` (or `chats`) array'));
}

function readPayload(v: unknown): Record<string, unknown> {
  if (v === undefined || v === null) return {};
  if (isRecord(v)) return v;
  if (isString(v)) {
    try {
      const parsed: unknown = JSON.parse(v);
      if (isRecord(parsed)) return parsed;
    } catch {
      // Not JSON: kept as text below.
    }
    return { text: v };
  }
  return { value: v };
}

/**
 * One stored or live event. `kind` and `event_id` are required (a frame without them is not an
 * event); `fallbackEventId` fills a missing `event_id` for stored events counted by position.
 */
export function normalizeEvent(raw: unknown, fallbackEventId?: number): AgentEvent {
  if (!isRecord(raw))
    throw protocolError(l10n.t('event'), l10n.t('expected an object, got {0}', describe(raw)));
  const kind = readString(pick(raw, 'kind', 'type', 'event'));
  if (kind === undefined || kind === '') throw protocolError(l10n.t('event'), l10n.t('it has no `kind`'));
  const eventId = readNumber(pick(raw, 'event_id', 'eventId')) ?? fallbackEventId;
  if (eventId === undefined)
    throw protocolError(l10n.t('event'), l10n.t('the {0} event has no `event_id`', kind));
  const event: AgentEvent = {
    event_id: eventId,
    kind,
    payload: readPayload(raw.payload),
    timestamp: readTime(pick(raw, 'timestamp', 'ts', 'createdAt')) ?? 0,
  };
  const entry = readId(pick(raw, 'stream_entry_id', 'streamEntryId'));
  if (entry !== undefined) event.stream_entry_id = entry;
  const block = readId(pick(raw, 'block_id', 'blockId'));
  if (block !== undefined) event.block_id = block;
  const message = readId(pick(raw, 'message_id', 'messageId'));
  if (message !== undefined) event.message_id = message;
  return event;
}

const isMode = oneOf(MODES);

function readMode(v: unknown): Mode | undefined {
  return isMode(v) ? v : undefined;
}

function readType(o: WireObject): 'user' | 'agent' {
  const t = readString(pick(o, 'type', 'role', 'sender'))?.toLowerCase();
  if (t === 'user' || t === 'human') return 'user';
  if (t === 'agent' || t === 'assistant' || t === 'ai' || t === 'bot') return 'agent';
  return o.events !== undefined || o.blocks !== undefined ? 'agent' : 'user';
}

function normalizeBlocks(raw: unknown): LegacyBlock[] {
  const list = readArray(raw, l10n.t('message blocks')) ?? [];
  return list.filter(isRecord).map((b, i) => {
    const block: LegacyBlock = {
      ...b,
      id: readId(pick(b, 'id', 'block_id', 'blockId')) ?? `block-${i}`,
      type: readString(pick(b, 'type', 'kind')) ?? 'unknown',
    };
    const content = readString(b.content);
    if (content !== undefined) block.content = content;
    else delete block.content;
    return block;
  });
}

function normalizeStatus(raw: unknown): MessageStatus | undefined {
  if (isString(raw)) return { phase: raw };
  if (!isRecord(raw)) return undefined;
  const status: MessageStatus = {};
  const phase = readString(pick(raw, 'phase', 'state'));
  if (phase !== undefined) status.phase = phase;
  const eta = readNumber(pick(raw, 'eta_seconds', 'etaSeconds', 'eta'));
  if (eta !== undefined) status.etaSeconds = eta;
  const error = pick(raw, 'error');
  const text = isRecord(error) ? readString(pick(error, 'message', 'error')) : readString(error);
  if (text !== undefined) status.error = text;
  return status;
}

/** One message of a session (`events`, or the older `blocks` + `status`). */
export function normalizeMessage(raw: unknown, sessionId: string, index = 0): Message {
  const o = expectObject(raw, l10n.t('message {0}', index + 1));
  const events = (readArray(o.events, l10n.t('message events')) ?? []).map((e, i) =>
    normalizeEvent(e, i + 1),
  );
  const message: Message = {
    id: readId(pick(o, 'id', '_id', 'message_id', 'messageId')) ?? `${sessionId}#${index}`,
    sessionId: readId(pick(o, 'sessionId', 'chatId', 'session_id', 'chat_id')) ?? sessionId,
    type: readType(o),
    content: readString(pick(o, 'content', 'text')) ?? '',
    createdAt: readTime(pick(o, 'createdAt', 'created_at', 'timestamp')) ?? 0,
    aborted: readBoolean(o.aborted) ?? false,
    files: normalizeFiles(o.files, l10n.t('message files')),
    events,
  };
  const mode = readMode(pick(o, 'inputMode', 'input_mode', 'mode'));
  if (mode !== undefined) message.inputMode = mode;
  if (o.blocks !== undefined) message.blocks = normalizeBlocks(o.blocks);
  const status = normalizeStatus(o.status);
  if (status !== undefined) message.status = status;
  return message;
}

/** `GET /sessions/{id}`: `{session, messages}` or the older `{chat, messages}`. */
export function normalizeSessionDetail(raw: unknown): SessionDetail {
  const o = expectObject(raw, l10n.t('session detail'));
  const inner = pick(o, 'session', 'chat');
  if (inner === undefined)
    throw protocolError(l10n.t('session detail'), l10n.t('it has no `session` (or `chat`)'));
  const session = normalizeSession(inner);
  const list =
    readArray(o.messages, l10n.t('session messages')) ??
    (isRecord(inner) ? readArray(inner.messages, l10n.t('session messages')) : undefined) ??
    [];
  return { session, messages: list.map((m, i) => normalizeMessage(m, session.sessionId, i)) };
}

/** The sessions a list should show: deleted ones (still returned by the service) left out. */
export function visibleSessions(sessions: readonly Session[]): Session[] {
  return sessions.filter((s) => !s.deleted);
}
