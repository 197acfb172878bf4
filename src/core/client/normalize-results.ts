import { l10n } from '../shared/l10n';
import type { AbortResult, LamRunResponse, StartTurnResult, TurnFile, UploadResult } from './types';
import { isRecord } from '../shared/schema';
import {
  expectObject,
  pick,
  protocolError,
  readBoolean,
  readId,
  readNumber,
  readString,
  readTime,
} from './readers';

/** `POST /sessions/new`: `agent_message_id` or the older `assistant_message_id`. */
export function normalizeStartTurnResult(raw: unknown, requestedSessionId?: string): StartTurnResult {
  const o = expectObject(raw, l10n.t('start turn'));
  const agentMessageId = readId(
    pick(o, 'agent_message_id', 'assistant_message_id', 'agentMessageId', 'assistantMessageId'),
  );
  if (agentMessageId === undefined) {
    throw protocolError(
      l10n.t('start turn'),
      l10n.t('it has no `agent_message_id` (or `assistant_message_id`)'),
    );
  }
  const sessionId =
    readId(pick(o, 'session_id', 'sessionId', 'chat_id', 'chatId')) ?? requestedSessionId ?? undefined;
  if (sessionId === undefined) throw protocolError(l10n.t('start turn'), l10n.t('it has no `session_id`'));
  const result: StartTurnResult = { sessionId, agentMessageId };
  const optional: [keyof StartTurnResult, unknown][] = [
    ['userMessageId', readId(pick(o, 'user_message_id', 'userMessageId'))],
    ['status', readString(o.status)],
    ['queuePosition', readNumber(pick(o, 'queue_position', 'queuePosition'))],
    ['message', readString(o.message)],
    ['taskId', readId(pick(o, 'task_id', 'taskId'))],
    ['workflowId', readId(pick(o, 'workflow_id', 'workflowId'))],
  ];
  for (const [k, v] of optional) if (v !== undefined) Object.assign(result, { [k]: v });
  return result;
}

/** `PUT /media/upload`; missing fields are filled from what was sent. */
export function normalizeUploadResult(raw: unknown, sent: Omit<UploadResult, 'uploadedAt'>): UploadResult {
  const o = isRecord(raw) && isRecord(raw.file) ? raw.file : expectObject(raw, l10n.t('upload'));
  const result: UploadResult = {
    key: readId(pick(o, 'key', 'file_key', 'fileKey')) ?? sent.key,
    size: readNumber(o.size) ?? sent.size,
    contentType: readString(pick(o, 'contentType', 'content_type', 'type', 'mimeType')) ?? sent.contentType,
    filename: readString(pick(o, 'filename', 'fileName', 'name')) ?? sent.filename,
  };
  const uploadedAt = readTime(pick(o, 'uploadedAt', 'uploaded_at', 'createdAt'));
  if (uploadedAt !== undefined) result.uploadedAt = uploadedAt;
  return result;
}

/** The `files` entry of a turn request for an uploaded file. */
export function turnFileFromUpload(upload: UploadResult): TurnFile {
  return { key: upload.key, name: upload.filename, type: upload.contentType, size: upload.size };
}

/** `DELETE /message/{id}/abort`; an empty 2xx body counts as success. */
export function normalizeAbortResult(raw: unknown): AbortResult {
  if (raw === undefined || raw === null || raw === '') return { success: true };
  const o = expectObject(raw, l10n.t('abort'));
  const result: AbortResult = { success: readBoolean(pick(o, 'success', 'ok')) ?? true };
  const message = readString(o.message);
  if (message !== undefined) result.message = message;
  return result;
}

/** `POST /lam/run` (one response object, or one server-sent event's data). */
export function normalizeLamRunResponse(raw: unknown): LamRunResponse {
  const o = expectObject(raw, l10n.t('task run'));
  const taskStatus = readString(pick(o, 'task_status', 'taskStatus', 'status'));
  if (taskStatus === undefined) throw protocolError(l10n.t('task run'), l10n.t('it has no `task_status`'));
  const rawData = o.data;
  const data = Array.isArray(rawData) ? rawData.filter(isRecord) : isRecord(rawData) ? [rawData] : [];
  const props = isRecord(o.properties) ? o.properties : {};
  const result: LamRunResponse = {
    taskStatus,
    message: readString(o.message) ?? '',
    data,
    raw: o,
  };
  const sessionId =
    readId(pick(props, 'sessionId', 'session_id')) ?? readId(pick(o, 'sessionId', 'session_id'));
  if (sessionId !== undefined) result.sessionId = sessionId;
  const live = readString(pick(o, 'livestream_url', 'livestreamUrl'));
  if (live !== undefined) result.livestreamUrl = live;
  return result;
}
