/** A `SessionHost` against the emulator, with a mirror of what its webview would show. */
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { ApiClient } from '../../../../src/core/client/client';
import type { AgentEvent } from '../../../../src/core/client/types';
import { silentLogger } from '../../../../src/core/shared/log';
import type { Transcript, Turn } from '../../../../src/core/transcript/model';
import { applyEvent, beginTurn, createTranscript } from '../../../../src/core/transcript/reducer';
import type { HostMessage } from '../../../../src/protocol/session-panel/messages';
import { SessionHost, type SessionHostDeps } from '../../../../src/model/session/session-host';
import type { TranscriptCache } from '../../../../src/model/session/transcript-cache';
import { transcriptViews } from '../../../../src/model/session/turn-view';
import { startEmulator, type Emulator } from '../../../emulator/index';
import { ViewMirror } from './view-mirror';

export interface HostRig {
  host: SessionHost;
  client: ApiClient;
  mirror: ViewMirror;
  posts: HostMessage[];
  ended: Turn[];
  /** A fresh mirror, as after the webview reloaded (then send `ready`). */
  reloadView(): void;
  /**
   * Whether the mirror ever showed what `shows` checks, from now on (checked now and after every
   * post): for states that may pass before a poll would see them.
   */
  everShown(shows: (mirror: ViewMirror) => unknown): () => boolean;
  close(): Promise<void>;
}

export function hostRig(
  emu: Emulator,
  opts: {
    sessionId?: string;
    cache?: TranscriptCache;
    basePrompt?: string;
    extra?: Partial<SessionHostDeps>;
    /** The host's history requests (`getSession`) wait for this before they go out. */
    historyGate?: Promise<unknown>;
  } = {},
): HostRig {
  const client = new ApiClient({ baseUrl: emu.url, apiKey: () => emu.keys.primary, retry: { retries: 0 } });
  const gate = opts.historyGate;
  const hostClient = gate ? heldHistory(client, gate) : client;
  const afterPost = new Set<() => void>();
  const ended: Turn[] = [];
  const posts: HostMessage[] = [];
  const rig = {} as HostRig;
  rig.mirror = new ViewMirror();
  rig.client = client;
  rig.posts = posts;
  rig.ended = ended;
  rig.host = new SessionHost({
    sessionId: opts.sessionId ?? randomUUID(),
    client: () => hostClient,
    target: () => ({ baseUrl: emu.url, apiKey: () => emu.keys.primary }),
    settings: () => ({ service: '127.0.0.1', basePrompt: opts.basePrompt }),
    composerDefaults: { mode: 'code', effort: 'fast' },
    logger: silentLogger,
    cache: opts.cache,
    streamOptions: { backoff: { initialMs: 5, maxMs: 40, factor: 2, jitter: 0.5 }, reorderWindowMs: 100 },
    events: { onTurnEnded: (_h, t) => ended.push(t) },
    ...opts.extra,
  });
  rig.host.link.attach((m) => {
    posts.push(m);
    rig.mirror.apply(m);
    for (const check of afterPost) check();
  });
  rig.reloadView = () => {
    rig.mirror = new ViewMirror();
  };
  rig.everShown = (shows) => {
    let seen = false;
    const check = (): void => {
      if (!seen && shows(rig.mirror)) seen = true;
    };
    check();
    afterPost.add(check);
    return () => seen;
  };
  rig.close = async () => {
    rig.host.dispose();
    await client.close();
  };
  return rig;
}

/** `client` whose `getSession` waits for `gate` first (a service slow to answer, released by the test). */
function heldHistory(client: ApiClient, gate: Promise<unknown>): ApiClient {
  // Methods run on the client itself: its private (#) fields are not reachable through a prototype.
  const getSession: ApiClient['getSession'] = async (...args) => {
    await gate;
    return client.getSession(...args);
  };
  return new Proxy(client, {
    get(target, prop) {
      if (prop === 'getSession') return getSession;
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Whether the mirror shows exactly the host's transcript. */
export function mirrorShows(rig: HostRig): boolean {
  return isDeepStrictEqual(
    rig.mirror.turns,
    JSON.parse(JSON.stringify(transcriptViews(rig.host.transcript))),
  );
}

/** The fold of the emulator's stored events of one turn, into a turn started like the host's. */
export function foldStored(emu: Emulator, sessionId: string, turn: Turn): Turn {
  const t: Transcript = createTranscript(sessionId);
  beginTurn(t, {
    agentMessageId: turn.agentMessageId,
    userMessageId: turn.userMessage.id,
    text: turn.userMessage.text,
    ...(turn.userMessage.mode ? { mode: turn.userMessage.mode } : {}),
    ...(turn.userMessage.effort ? { effort: turn.userMessage.effort } : {}),
    files: turn.userMessage.files,
    createdAt: turn.userMessage.createdAt,
  });
  for (const ev of emu.storedEvents(sessionId, turn.agentMessageId))
    applyEvent(t, turn.agentMessageId, ev as AgentEvent);
  return t.turns[0];
}

/** The last turn of the host's transcript. */
export function lastTurn(rig: HostRig): Turn {
  const turns = rig.host.transcript.turns;
  const t = turns[turns.length - 1];
  if (!t) throw new Error('no turn');
  return t;
}

/**
 * Inside a `describe`: a fresh emulator for each test (`emu()`), and `rig(...)` hosts against it;
 * all are closed after each test.
 */
export function useHostRigs(options?: Parameters<typeof startEmulator>[0]): {
  emu(): Emulator;
  rig(opts?: Parameters<typeof hostRig>[1]): HostRig;
} {
  let emu: Emulator | undefined;
  const rigs: HostRig[] = [];
  beforeEach(async () => {
    emu = await startEmulator(options);
  });
  afterEach(async () => {
    for (const r of rigs.splice(0)) await r.close();
    await emu?.close();
    emu = undefined;
  });
  const current = (): Emulator => {
    if (!emu) throw new Error('no emulator: call inside a test');
    return emu;
  };
  return {
    emu: current,
    rig: (opts) => {
      const r = hostRig(current(), opts);
      rigs.push(r);
      return r;
    },
  };
}
