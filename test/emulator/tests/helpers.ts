/** Plain fetch / ws helpers for the emulator's own tests (deliberately not Den's client). */
import { randomUUID } from 'node:crypto';
import WebSocket from 'ws';
import type { AgentEvent } from '../../../src/core/client/types';
import type { Emulator } from '../index';

export interface CallResult<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** One HTTP call with the given key (default: the primary key; `null`: none). */
export async function call<T = Record<string, unknown>>(
  emu: Emulator,
  method: string,
  path: string,
  body?: unknown,
  key: string | null = emu.keys.primary,
): Promise<CallResult<T>> {
  const headers: Record<string, string> = {};
  if (key !== null) headers.Authorization = `Bearer ${key}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(emu.url + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = undefined;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

export interface Started {
  sessionId: string;
  agentId: string;
  body: Record<string, unknown>;
  status: number;
}

/** `POST /sessions/new`; a fresh session unless `sessionId` is given. */
export async function startTurn(
  emu: Emulator,
  task: string,
  extra: { sessionId?: string; mode?: string; key?: string } = {},
): Promise<Started> {
  const sessionId = extra.sessionId ?? randomUUID();
  const r = await call(
    emu,
    'POST',
    '/sessions/new',
    { session_id: sessionId, task, mode: extra.mode ?? 'code' },
    extra.key,
  );
  const agentId = String(r.body?.agent_message_id ?? r.body?.assistant_message_id ?? '');
  return { sessionId, agentId, body: r.body, status: r.status };
}

export function wsUrl(emu: Emulator, sessionId: string, query: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) q.set(k, v);
  return `${emu.url.replace(/^http/, 'ws')}/ws/sessions/${sessionId}?${q.toString()}`;
}

export interface Stream {
  ws: WebSocket;
  /** Every text frame, raw. */
  raw: string[];
  /** Resolves with the close code when the connection ends (1006 when dropped). */
  closed: Promise<number>;
}

/** Opens the session socket and records every frame until it closes. */
export function openStream(
  emu: Emulator,
  sessionId: string,
  messageId: string,
  last?: string,
  token: string = emu.keys.primary,
): Stream {
  const ws = new WebSocket(
    wsUrl(emu, sessionId, { token, message_id: messageId, last_stream_entry_id: last }),
  );
  const raw: string[] = [];
  ws.on('message', (d) => raw.push(d.toString()));
  ws.on('error', () => {});
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  return { ws, raw, closed };
}

/** The frames of a stream that parse as event objects. */
export function eventsOf(raw: string[]): AgentEvent[] {
  const out: AgentEvent[] = [];
  for (const r of raw) {
    try {
      const f = JSON.parse(r) as Partial<AgentEvent>;
      if (typeof f.event_id === 'number' && typeof f.kind === 'string') out.push(f as AgentEvent);
    } catch {
      // garbage frames are expected under faults
    }
  }
  return out;
}

/** Tries to upgrade and returns the HTTP status and body of a refusal (or 101). */
export function upgradeOutcome(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => {
        resolve({ status: res.statusCode ?? 0, body });
        ws.terminate();
      });
    });
    ws.on('open', () => {
      ws.terminate();
      resolve({ status: 101, body: '' });
    });
    ws.on('error', (err) => {
      if (!/Unexpected server response/.test(err.message)) reject(err);
    });
  });
}

/** Compares `<ms>-<seq>` ids. */
export function entryAfter(a: string, b: string): boolean {
  const [am, as] = a.split('-').map(Number);
  const [bm, bs] = b.split('-').map(Number);
  return am > bm || (am === bm && as > bs);
}
