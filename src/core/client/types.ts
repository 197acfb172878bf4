/**
 * Den's internal model of the Agent Session Service. Every wire variant listed in
 * `shared/spec/service-behaviour.md` is normalized into these shapes by `normalize.ts`;
 * nothing outside `src/core/api` sees a raw response body.
 */

/** Execution mode of a turn. */
export type Mode = 'auto' | 'code' | 'deepsearch' | 'slides' | 'plan';
export const MODES: readonly Mode[] = ['auto', 'code', 'deepsearch', 'slides', 'plan'];

/** The fast/think choice (`ace_version` on the wire). */
export type Effort = 'fast' | 'think';
export const EFFORTS: readonly Effort[] = ['fast', 'think'];

/** A file known to the service: generated in a session, attached to a message, or uploaded. */
export interface FileInfo {
  key: string;
  name: string;
  size: number;
  /** MIME type; present on upload results and turn request entries. */
  type?: string;
  /** Unix ms of the last change, when the service says (sandbox snapshots). */
  updatedAt?: number;
}

/** A session (workspace) as listed or fetched. */
export interface Session {
  /** Database object id (may equal `sessionId` when the service sends only one). */
  id: string;
  /** The session UUID used in every path. */
  sessionId: string;
  title: string;
  userId?: string;
  createdAt: number;
  updatedAt: number;
  deleted: boolean;
  isPinned: boolean;
  sandboxImage?: string;
  /** Current files of the session, keyed by path (or storage key). */
  fileSnapshot: Record<string, FileInfo>;
}

/**
 * One event of an agent message, as stored (`GET /sessions/{id}`) or streamed (WebSocket).
 * `stream_entry_id` may be missing on live frames; `message_id` on stored ones.
 */
export interface AgentEvent {
  event_id: number;
  stream_entry_id?: string;
  kind: string;
  block_id?: string;
  message_id?: string;
  payload: Record<string, unknown>;
  timestamp: number;
}

/** Older variant of a stored agent message: blocks plus a status instead of events. */
export interface LegacyBlock {
  id: string;
  type: string;
  content?: string;
  [extra: string]: unknown;
}

export interface MessageStatus {
  phase?: string;
  etaSeconds?: number;
  error?: string;
}

/** A user request or an agent response inside a session. */
export interface Message {
  id: string;
  sessionId: string;
  type: 'user' | 'agent';
  content: string;
  createdAt: number;
  inputMode?: Mode;
  aborted: boolean;
  files: FileInfo[];
  events: AgentEvent[];
  /** Only from the older variant (`blocks` instead of `events`). */
  blocks?: LegacyBlock[];
  status?: MessageStatus;
}

/** `GET /sessions/{id}` normalized. */
export interface SessionDetail {
  session: Session;
  messages: Message[];
}

export type SortField = 'updatedAt' | 'createdAt' | 'title';
export type SortOrder = 'asc' | 'desc';

export interface ListSessionsQuery {
  /** 1-based page number. */
  page?: number;
  /** Page size, at most 100. */
  limit?: number;
  search?: string;
  sort?: SortField;
  order?: SortOrder;
}

export interface SessionPage {
  sessions: Session[];
  totalCount: number;
  totalPages: number;
  currentPage: number;
  /** Entries of the response left out because they could not be read (no id); absent when none. */
  skipped?: number;
}

/** A file entry of a turn request. */
export interface TurnFile {
  key: string;
  name: string;
  type: string;
  size: number;
}

/** `POST /sessions/new` request, in Den's names; the client maps them to wire names. */
export interface StartTurnRequest {
  sessionId: string;
  task: string;
  mode?: Mode;
  effort?: Effort;
  files?: TurnFile[];
  basePrompt?: string;
  references?: Record<string, unknown>[];
  history?: Record<string, unknown>[];
  /** Continuation data of a completed turn, passed back as the JSON string the service gave. */
  continuation?: string;
  sdkVersion?: string;
}

export interface StartTurnResult {
  sessionId: string;
  userMessageId?: string;
  /** The id to follow on the socket and to abort (`agent_message_id` or `assistant_message_id`). */
  agentMessageId: string;
  status?: 'queued' | 'running' | string;
  queuePosition?: number;
  message?: string;
  taskId?: string;
  workflowId?: string;
}

/** `PUT /media/upload` result. */
export interface UploadResult {
  key: string;
  size: number;
  contentType: string;
  filename: string;
  uploadedAt?: number;
}

export interface AbortResult {
  success: boolean;
  message?: string;
}

export type LamTaskStatus = 'STARTING' | 'PROCESSING' | 'DONE' | 'HUMAN_INTERACTION' | 'FAILURE' | string;

/** Schema for `/lam/run`: field name → description, or a nested schema. */
export interface LamSchema {
  [field: string]: string | LamSchema;
}

export interface LamRunRequest {
  query: string;
  appUrl: string;
  schema?: LamSchema;
  chatHistory?: unknown[];
  maxCount?: number;
  mode?: string;
  servicePasscode?: string;
  advanced?: {
    blockAds?: boolean;
    solveCaptchas?: boolean;
    proxy?: { city?: string; country?: string; state?: string; zip?: number };
  };
}

export interface LamRunResponse {
  taskStatus: LamTaskStatus;
  message: string;
  data: Record<string, unknown>[];
  sessionId?: string;
  livestreamUrl?: string;
  /** The whole response object as received, for fields Den does not model. */
  raw: Record<string, unknown>;
}

/** Rate-limit facts the service reports on responses. */
export interface RateLimitInfo {
  maxConcurrent?: number;
}
