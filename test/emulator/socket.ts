/**
 * The session WebSocket: `/ws/sessions/{id}` and `/ws/chat/{id}`. Authenticates the upgrade itself
 * (401/403/404 HTTP answers), sends the ack (and a `state.snapshot` when switched on), replays stored
 * events after the cursor, then streams live events through the fault plan.
 */
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { AgentEvent, FileInfo, Mode } from '../../src/core/client/types';
import { errorBody, parseStreamEntryId, streamEntryAfter, type EmulatorContext } from './context';
import { FaultySender } from './faults';
import { stateSnapshot } from './shapes';
import type { KeyOwner, StoredMessage, StoredSession } from './store';
import type { SocketRecord } from './types';
import { RateLimitedError } from './turn-runner';

const WS_PATH = /^\/ws\/(?:sessions|chat)\/([^/]+)$/;

export class SessionSockets {
  private readonly wss = new WebSocketServer({ noServer: true });
  /** The senders of the connections that are open. */
  private readonly live = new Set<FaultySender>();

  constructor(private readonly ctx: EmulatorContext) {
    this.wss.on('error', () => {});
    this.wss.on('headers', (headers) =>
      headers.push(`X-Rate-Limit-Max-Concurrent: ${ctx.opts.maxConcurrent}`),
    );
  }

  /** The `upgrade` handler of the HTTP server. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on('error', () => {});
    const limits = { 'X-Rate-Limit-Max-Concurrent': String(this.ctx.opts.maxConcurrent) };
    const refuse = (status: number, error: string, message: string): void =>
      reject(socket, status, JSON.stringify(errorBody(error, message)), limits);
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const rule = this.ctx.faults.takeRule('GET', url.pathname);
    if (rule) {
      const text = typeof rule.body === 'string';
      const body = text
        ? (rule.body as string)
        : JSON.stringify(rule.body ?? errorBody('injected', 'Injected failure'));
      return reject(
        socket,
        rule.status,
        body,
        { ...limits, ...rule.headers },
        text ? 'text/plain' : 'application/json',
      );
    }
    const m = WS_PATH.exec(url.pathname);
    if (!m) return refuse(404, 'not_found', 'No such WebSocket endpoint');
    const owner = this.ctx.store.ownerOf(url.searchParams.get('token') ?? undefined);
    if (!owner) return refuse(401, 'unauthorized', 'Missing or invalid token');
    const session = this.ctx.store.sessions.get(decodeURIComponent(m[1]));
    if (!session || session.deleted) return refuse(404, 'not_found', 'Session not found');
    if (session.userId !== owner.userId)
      return refuse(403, 'forbidden', 'This key cannot access this session');
    const messageId =
      url.searchParams.get('message_id') ||
      this.ctx.runner.activeMessageId(session.sessionId) ||
      session.messages.filter((x) => x.type === 'agent').at(-1)?.id;
    const message = session.messages.find((x) => x.id === messageId && x.type === 'agent');
    if (!message) return refuse(404, 'not_found', 'Message not found in this session');
    const cursorText = url.searchParams.get('last_stream_entry_id') || '0-0';
    const cursor = parseStreamEntryId(cursorText);
    if (!cursor) return refuse(400, 'bad_request', 'last_stream_entry_id must look like <ms>-<seq>');
    this.wss.handleUpgrade(req, socket, head, (ws) =>
      this.onConnection(ws, socket, { owner, session, message, cursor, cursorText }),
    );
  }

  /**
   * Every open connection goes silent without being closed: what a client sees of a server that
   * dropped its socket while the client's machine slept (the FIN never reached it). Returns how many.
   */
  silenceAll(): number {
    const n = this.live.size;
    for (const s of this.live) s.silence();
    this.live.clear();
    return n;
  }

  /** Ends every connection at once (emulator shutdown). */
  close(): void {
    this.dropAll();
    this.wss.close();
  }

  /** Cuts every connection without a close frame (a restart of the service); new ones are still taken. */
  dropAll(): void {
    for (const ws of this.wss.clients) ws.terminate();
  }

  private onConnection(
    ws: WebSocket,
    socket: Duplex,
    c: {
      owner: KeyOwner;
      session: StoredSession;
      message: StoredMessage;
      cursor: [number, number];
      cursorText: string;
    },
  ): void {
    const { ctx } = this;
    ws.on('error', () => {});
    const record: SocketRecord = {
      sessionId: c.session.sessionId,
      messageId: c.message.id,
      lastStreamEntryId: c.cursorText,
      eventFrames: 0,
      foreignFrames: 0,
      snapshot: false,
    };
    ctx.sockets.push(record);
    const sender = new FaultySender(ws, socket, ctx.faults, ctx.timers, record);
    this.live.add(sender);
    ws.on('close', () => this.live.delete(sender));
    // `liveStreamEntryIds` off: live frames carry no entry id, as in the documentation's examples;
    // `replayStreamEntryIds` off as well: neither do replayed stored ones (the worst case, where
    // clients can only resume from the stored history).
    const frame = (e: AgentEvent, messageId: string, replayed: boolean): string => {
      const { stream_entry_id, ...rest } = e;
      const out: AgentEvent = { ...rest, message_id: messageId };
      const keep = replayed ? ctx.opts.replayStreamEntryIds : ctx.opts.liveStreamEntryIds;
      if (keep && stream_entry_id) out.stream_entry_id = stream_entry_id;
      return JSON.stringify(out);
    };
    const finish = (): void => {
      if (ctx.opts.closeAfterTerminal && !sender.isDead) ws.close(1000, 'turn ended');
    };
    sender.raw(JSON.stringify({ type: 'ack', resume_from: c.cursorText }));
    // Events of the followed message the snapshot stands in for (`snapshotReplay: 'after'`).
    let covered = 0;
    if (ctx.opts.stateSnapshot) {
      const snapshot = stateSnapshot(c.message);
      sender.raw(JSON.stringify(snapshot));
      record.snapshot = true;
      if (ctx.opts.snapshotReplay === 'after') covered = snapshot.payload.last_event_id;
      if (ctx.faults.rng.chance(ctx.faults.plan.dropAfterSnapshot)) {
        sender.drop();
        return;
      }
    }
    const replay = this.replayAfter(c.session, c.message, c.cursor, covered);
    for (let i = 0; i < replay.length && !sender.isDead; i++) {
      const { event, messageId } = replay[i];
      const foreign = messageId !== c.message.id;
      sender.send(frame(event, messageId, true), i === replay.length - 1, foreign);
    }
    if (ctx.runner.isEnded(c.message.id)) {
      finish();
    } else {
      const off = ctx.runner.subscribe(c.message.id, (e, terminal) => {
        sender.send(frame(e, c.message.id, false), terminal);
        if (terminal) finish();
      });
      ws.on('close', off);
    }
    ws.on('message', (data, isBinary) => {
      if (!isBinary) this.onClientFrame(c.owner, c.session, c.message, data);
    });
  }

  /**
   * The stored events after `cursor` in stream order: of the session's whole stream, or of the
   * followed message alone (`replayScope`), less the followed message's first `covered` events.
   */
  private replayAfter(
    session: StoredSession,
    followed: StoredMessage,
    cursor: [number, number],
    covered: number,
  ): { event: AgentEvent; messageId: string; at: [number, number] }[] {
    const messages =
      this.ctx.opts.replayScope === 'session'
        ? session.messages.filter((m) => m.type === 'agent')
        : [followed];
    const out: { event: AgentEvent; messageId: string; at: [number, number] }[] = [];
    for (const m of messages) {
      for (const event of m.events) {
        if (m === followed && event.event_id <= covered) continue;
        const at = parseStreamEntryId(event.stream_entry_id ?? '0-0') ?? [0, 0];
        if (streamEntryAfter(at, cursor)) out.push({ event, messageId: m.id, at });
      }
    }
    if (messages.length > 1) out.sort((a, b) => a.at[0] - b.at[0] || a.at[1] - b.at[1]);
    return out;
  }

  /** Client frames; anything unknown, malformed or not allowed is ignored. */
  private onClientFrame(
    owner: KeyOwner,
    session: StoredSession,
    followed: StoredMessage,
    data: RawData,
  ): void {
    if (owner.readOnly || session.deleted) return;
    let f: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(data.toString());
      if (!parsed || typeof parsed !== 'object') return;
      f = parsed as Record<string, unknown>;
    } catch {
      return;
    }
    const { runner, store } = this.ctx;
    switch (f.type) {
      case 'stop':
        runner.abort(followed.id, 'Stopped by the user');
        break;
      case 'message': {
        if (typeof f.text !== 'string' || !f.text.trim()) return;
        const files = Array.isArray(f.files) ? (f.files as FileInfo[]) : [];
        // To a turn that waits for the person, a message is the answer it waits for.
        if (runner.answer(followed.id, f.text, files)) break;
        const mode: Mode = session.messages.filter((x) => x.type === 'user').at(-1)?.inputMode ?? 'auto';
        try {
          const started = runner.start({ userId: owner.userId, session, task: f.text, mode, files });
          runner.inject(followed.id, {
            kind: 'message.received',
            payload: {
              text: f.text,
              files,
              references: [],
              agent_message_id: started.agent.id,
              queued: started.status === 'queued',
            },
          });
        } catch (err) {
          if (!(err instanceof RateLimitedError)) throw err;
        }
        break;
      }
      case 'retract':
        runner.retract(session.sessionId);
        break;
      case 'file_edits':
        if (!Array.isArray(f.files)) return;
        for (const e of f.files as { path?: unknown; content?: unknown }[]) {
          if (typeof e?.path === 'string' && typeof e.content === 'string') {
            store.putGeneratedFile(
              session,
              e.path,
              e.content,
              this.ctx.snapshotKey(session.sessionId, e.path),
            );
          }
        }
        break;
      default:
        break;
    }
  }
}

/** Answers a refused upgrade with a plain HTTP response and an Error-object body. */
function reject(
  socket: Duplex,
  status: number,
  body: string,
  headers: Record<string, string>,
  contentType = 'application/json',
): void {
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    `Content-Type: ${contentType}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
}
