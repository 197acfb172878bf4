/**
 * In-memory state of the emulator: users and keys, sessions, messages with their stored events,
 * and media (uploaded and generated file contents).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { AgentEvent, FileInfo, Mode } from '../../src/core/client/types';
import type { EmulatorKeys } from './types';

/** Who a key belongs to. */
export interface KeyOwner {
  userId: string;
  readOnly: boolean;
}

export const PRIMARY_USER = 'user_primary_0001';
export const SECOND_USER = 'user_second_0002';

export const DEFAULT_KEYS: EmulatorKeys = {
  primary: 'sk_live_denEmuPrimary7f3a9c2e51b04d68',
  second: 'sk_live_denEmuSecond2b8d4e6f7a1c9035',
  readOnly: 'sk_live_denEmuReadOnly5c1e8a3f9d2b7604',
};

export interface StoredMessage {
  id: string;
  sessionId: string;
  type: 'user' | 'agent';
  content: string;
  createdAt: number;
  inputMode: Mode;
  aborted: boolean;
  files: FileInfo[];
  /** Stored events, without `message_id` (it is added on live frames). */
  events: AgentEvent[];
  /** Agent messages only: where the turn is. */
  phase?: 'queued' | 'running' | 'completed' | 'aborted' | 'error';
  error?: string;
}

export interface StoredSession {
  id: string;
  sessionId: string;
  title: string;
  userId: string;
  createdAt: number;
  updatedAt: number;
  deleted: boolean;
  isPinned: boolean;
  sandboxImage: string;
  fileSnapshot: Record<string, FileInfo>;
  messages: StoredMessage[];
}

export interface MediaEntry {
  key: string;
  filename: string;
  contentType: string;
  size: number;
  /** Kept only for small files; large uploads keep their size only. */
  content?: Buffer;
  ownerUserId: string;
  uploadedAt: number;
  generated: boolean;
}

/** A database-style object id (24 hex characters). */
export function objectId(): string {
  return randomBytes(12).toString('hex');
}

export class Store {
  readonly sessions = new Map<string, StoredSession>();
  readonly media = new Map<string, MediaEntry>();
  private readonly keyOwners = new Map<string, KeyOwner>();
  private lastMs = 0;
  private seq = 0;

  constructor(readonly keys: EmulatorKeys) {
    this.keyOwners.set(keys.primary, { userId: PRIMARY_USER, readOnly: false });
    this.keyOwners.set(keys.second, { userId: SECOND_USER, readOnly: false });
    this.keyOwners.set(keys.readOnly, { userId: PRIMARY_USER, readOnly: true });
  }

  ownerOf(key: string | undefined): KeyOwner | undefined {
    return key ? this.keyOwners.get(key) : undefined;
  }

  /** A stream entry id `<ms>-<seq>`, strictly increasing over the emulator's life. */
  nextStreamEntryId(): { id: string; ms: number } {
    const now = Date.now();
    if (now > this.lastMs) {
      this.lastMs = now;
      this.seq = 0;
    } else {
      this.seq += 1;
    }
    return { id: `${this.lastMs}-${this.seq}`, ms: this.lastMs };
  }

  createSession(userId: string, sessionId: string, title: string, at = Date.now()): StoredSession {
    const s: StoredSession = {
      id: objectId(),
      sessionId,
      title,
      userId,
      createdAt: at,
      updatedAt: at,
      deleted: false,
      isPinned: false,
      sandboxImage: 'den-sandbox:python3.12-node20',
      fileSnapshot: {},
      messages: [],
    };
    this.sessions.set(sessionId, s);
    return s;
  }

  /** Appends a user message and an agent message for one turn. */
  addTurnMessages(
    s: StoredSession,
    task: string,
    mode: Mode,
    files: FileInfo[],
    at = Date.now(),
  ): { user: StoredMessage; agent: StoredMessage } {
    const user: StoredMessage = {
      id: randomUUID(),
      sessionId: s.sessionId,
      type: 'user',
      content: task,
      createdAt: at,
      inputMode: mode,
      aborted: false,
      files,
      events: [],
    };
    const agent: StoredMessage = {
      id: randomUUID(),
      sessionId: s.sessionId,
      type: 'agent',
      content: '',
      createdAt: at,
      inputMode: mode,
      aborted: false,
      files: [],
      events: [],
      phase: 'queued',
    };
    s.messages.push(user, agent);
    s.updatedAt = Math.max(s.updatedAt, at);
    return { user, agent };
  }

  findAgentMessage(agentMessageId: string): { session: StoredSession; message: StoredMessage } | undefined {
    for (const session of this.sessions.values()) {
      const message = session.messages.find((m) => m.id === agentMessageId && m.type === 'agent');
      if (message) return { session, message };
    }
    return undefined;
  }

  /** Records a file written in a session: snapshot entry plus retrievable content. */
  putGeneratedFile(
    s: StoredSession,
    path: string,
    content: string | Uint8Array,
    snapshotKey: string,
    at = Date.now(),
  ): FileInfo {
    const body = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
    const storageKey = `${s.sessionId}/${path}`;
    this.media.set(storageKey, {
      key: storageKey,
      filename: path.split('/').pop() ?? path,
      contentType: guessContentType(path),
      size: body.length,
      content: body,
      ownerUserId: s.userId,
      uploadedAt: at,
      generated: true,
    });
    const info: FileInfo = { key: snapshotKey, name: path, size: body.length, updatedAt: at };
    s.fileSnapshot[storageKey] = info;
    return info;
  }
}

/** A plausible MIME type from a file name. */
export function guessContentType(name: string): string {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  const types: Record<string, string> = {
    ts: 'text/typescript',
    js: 'text/javascript',
    json: 'application/json',
    md: 'text/markdown',
    txt: 'text/plain',
    py: 'text/x-python',
    csv: 'text/csv',
    html: 'text/html',
    png: 'image/png',
    pdf: 'application/pdf',
  };
  return types[ext] ?? 'application/octet-stream';
}
