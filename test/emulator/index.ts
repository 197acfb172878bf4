/**
 * The local emulator of the Agent Session Service: HTTP API, session WebSocket, `/lam/run`,
 * fault injection and variants, on 127.0.0.1. The options and the `Emulator` interface are
 * documented in `./types`; behaviour follows shared/spec/service-behaviour.md.
 */
import { createServer } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { Socket } from 'node:net';
import type { AgentEvent, Mode } from '../../src/core/client/types';
import type { EmulatorContext, ResolvedOptions } from './context';
import { FaultState } from './faults';
import { requestHandler } from './http-routes';
import { addSeedTurn, seedSessions } from './seed';
import { SessionSockets } from './socket';
import { DEFAULT_KEYS, PRIMARY_USER, Store } from './store';
import { TimerSet } from './timers';
import { titleFrom, TurnRunner } from './turn-runner';
import type {
  Emulator,
  EmulatorKeys,
  EmulatorOptions,
  FaultPlan,
  HttpFaultRule,
  SocketRecord,
} from './types';

export type {
  Emulator,
  EmulatorKeys,
  EmulatorOptions,
  FaultPlan,
  HttpFaultRule,
  SocketRecord,
} from './types';

/** Starts an emulator on 127.0.0.1 (ephemeral port unless `port` is given). */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const opts: ResolvedOptions = {
    variant: options.variant ?? 'current',
    liveStreamEntryIds: options.liveStreamEntryIds ?? true,
    replayStreamEntryIds: options.replayStreamEntryIds ?? true,
    stateSnapshot: options.stateSnapshot ?? options.variant === 'legacy',
    snapshotReplay: options.snapshotReplay ?? 'before',
    replayScope: options.replayScope ?? 'session',
    closeAfterTerminal: options.closeAfterTerminal ?? true,
    eventDelayMs: Math.max(0, options.eventDelayMs ?? 2),
    maxConcurrent: Math.max(1, options.maxConcurrent ?? 3),
    downloads: options.downloads ?? 'template',
    lamSessions: options.lamSessions ?? false,
    listUpdatedAt: options.listUpdatedAt ?? true,
  };
  const keys: EmulatorKeys = { ...DEFAULT_KEYS, ...options.keys };
  const store = new Store(keys);
  const timers = new TimerSet();
  const faults = new FaultState();
  let baseUrl = '';
  const snapshotKey = (sessionId: string, path: string): string =>
    opts.downloads === 'absolute-url' ? `${baseUrl}/media/${sessionId}/${path}` : `${sessionId}/${path}`;
  const runner = new TurnRunner(store, timers, {
    eventDelayMs: opts.eventDelayMs,
    maxConcurrent: opts.maxConcurrent,
    snapshotKey,
  });
  const ctx: EmulatorContext = {
    opts,
    store,
    runner,
    faults,
    timers,
    sockets: [],
    lamRequests: [],
    lamRuns: new Map(),
    url: () => baseUrl,
    snapshotKey,
  };
  const sockets = new SessionSockets(ctx);
  const server = options.tls
    ? createTlsServer({ key: options.tls.key, cert: options.tls.cert }, requestHandler(ctx))
    : createServer(requestHandler(ctx));
  let inFlight = 0;
  // The last requests received (bounded: benches make many).
  const received: { method: string; url: string }[] = [];
  const receive = (method: string, url: string): void => {
    received.push({ method, url });
    if (received.length > 10_000) received.shift();
  };
  server.on('request', (req, res) => {
    receive(req.method ?? '', req.url ?? '');
    inFlight++;
    res.once('close', () => inFlight--);
  });
  const connections = new Set<Socket>();
  server.on('connection', (c) => {
    connections.add(c);
    c.on('close', () => connections.delete(c));
  });
  server.on('upgrade', (req, socket, head) => {
    receive('UPGRADE', req.url ?? '');
    sockets.handleUpgrade(req, socket, head);
  });
  server.on('clientError', (_err, socket) => socket.destroy());

  const listen = (at: number): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(at, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  await listen(options.port ?? 0);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  baseUrl = `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`;
  /** Stops listening and cuts every connection; turns go on running (the work outlives a restart). */
  const goDown = (): Promise<void> =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      sockets.dropAll();
      for (const c of connections) c.destroy();
      server.closeAllConnections();
    });
  seedSessions(ctx, options.seed ?? true, Math.max(0, options.extraSessions ?? 0));

  let closing: Promise<void> | undefined;
  let outageUnderWay = false;
  let refused = false;
  let onClose: (() => void) | undefined;
  const closed = new Promise<void>((resolve) => (onClose = resolve));
  const emulator: Emulator = {
    url: baseUrl,
    keys,
    get faults(): FaultPlan {
      return faults.plan;
    },
    set faults(plan: FaultPlan) {
      faults.replace(plan);
    },
    failNext(rule: HttpFaultRule): void {
      faults.failNext(rule);
    },
    get requestsInFlight(): number {
      return inFlight;
    },
    requests() {
      return received.map((r) => ({ ...r }));
    },
    storedEvents(sessionId: string, agentMessageId: string): AgentEvent[] {
      const m = store.sessions
        .get(sessionId)
        ?.messages.find((x) => x.id === agentMessageId && x.type === 'agent');
      return m ? structuredClone(m.events) : [];
    },
    seedTurn(
      sessionId: string,
      task: string,
      mode: Mode = 'auto',
    ): { agentMessageId: string; events: number } {
      const s =
        store.sessions.get(sessionId) ?? store.createSession(PRIMARY_USER, sessionId, titleFrom(task));
      const last = s.messages.reduce((n, m) => Math.max(n, m.events.at(-1)?.timestamp ?? 0), 0);
      const agent = addSeedTurn(ctx, s, { task, mode }, Math.max(Date.now() - 86_400_000, last + 1_000));
      return { agentMessageId: agent.id, events: agent.events.length };
    },
    putGeneratedFile(sessionId: string, path: string, content: string | Uint8Array) {
      const s = store.sessions.get(sessionId);
      if (!s) throw new Error(`No session ${sessionId}`);
      const at = Date.now();
      s.updatedAt = Math.max(s.updatedAt, at);
      return store.putGeneratedFile(s, path, content, snapshotKey(sessionId, path), at);
    },
    sockets(): SocketRecord[] {
      return [...ctx.sockets];
    },
    silenceSockets(): number {
      return sockets.silenceAll();
    },
    lamRequests(): Record<string, unknown>[] {
      return structuredClone(ctx.lamRequests);
    },
    turnEnded(_sessionId: string, agentMessageId: string): Promise<void> {
      return runner.ended(agentMessageId);
    },
    async outage(refuseForMs: number): Promise<void> {
      if (outageUnderWay) throw new Error('an outage is under way already');
      outageUnderWay = true;
      refused = true;
      try {
        await goDown();
        const over = Promise.all([timers.sleep(refuseForMs), runner.allEnded()]);
        // `close()` during the outage ends it too (the sleep never resolves once timers are cleared).
        await Promise.race([over, closed]);
        if (!closing) await listen(port);
      } finally {
        outageUnderWay = false;
        refused = false;
      }
    },
    get refusing(): boolean {
      return refused;
    },
    close(): Promise<void> {
      closing ??= new Promise<void>((resolve) => {
        onClose?.();
        runner.stopAll();
        timers.clearAll();
        sockets.close();
        server.close(() => resolve());
        for (const c of connections) c.destroy();
        server.closeAllConnections();
      });
      return closing;
    },
  };
  return emulator;
}
