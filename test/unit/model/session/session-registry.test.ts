import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApiClient } from '../../../../src/core/client/client';
import type { Logger } from '../../../../src/core/shared/log';
import type { RunningTurnsChange } from '../../../../src/model/session/running-turn';
import type { SessionActivityEvent } from '../../../../src/model/session/session-activity';
import {
  SessionRegistry,
  type RegistryConnection,
  type SessionRegistryDeps,
  type TurnEnded,
} from '../../../../src/model/session/session-registry';
import { TranscriptCache } from '../../../../src/model/session/transcript-cache';
import { startEmulator, type Emulator } from '../../../emulator/index';
import { waitFor } from '../../../support/wait';

/** A slow turn (the emulator paces it): it runs until it is stopped or a few seconds pass. */
const SLOW = { task: 'slow: refactor the parser', mode: 'code', effort: 'fast' } as const;

describe('SessionRegistry (against the emulator)', function () {
  // Real turns on the emulator take a second or two.
  this.timeout(15_000);
  let emu: Emulator;
  let client: ApiClient;
  const made: SessionRegistry[] = [];
  const dirs: string[] = [];
  let warnings: string[];

  const logger: Logger = {
    debug: () => undefined,
    info: () => undefined,
    warn: (m) => warnings.push(m),
    error: (m) => warnings.push(m),
  };

  const registry = (extra: Partial<SessionRegistryDeps> = {}): SessionRegistry => {
    const connection: RegistryConnection = {
      requireClient: () => client,
      settings: {
        baseUrl: emu.url,
        strictSSL: true,
        noProxy: [],
        defaultMode: 'code',
        defaultEffort: 'fast',
      },
      reportSuccess: () => undefined,
      reportFailure: () => undefined,
    };
    const r = new SessionRegistry({
      connection,
      logger,
      apiKey: () => emu.keys.primary,
      settings: () => ({ service: '127.0.0.1' }),
      hostOptions: {
        streamOptions: { backoff: { initialMs: 5, maxMs: 40, factor: 2, jitter: 0.5 }, reorderWindowMs: 100 },
      },
      ...extra,
    });
    made.push(r);
    return r;
  };

  /** Waits until the registry follows no turn and holds no host of the session. */
  const released = (r: SessionRegistry, sessionId: string): Promise<unknown> =>
    waitFor(
      `the host of ${sessionId} to be let go`,
      () => r.runningTurns().length === 0 && r.host(sessionId) === undefined,
      8_000,
    );

  beforeEach(async () => {
    warnings = [];
    emu = await startEmulator();
    client = new ApiClient({ baseUrl: emu.url, apiKey: () => emu.keys.primary, retry: { retries: 0 } });
  });

  afterEach(async () => {
    for (const r of made.splice(0)) r.dispose();
    await client.close();
    await emu.close();
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it('starts a turn without a view: a headless host follows it, is reused while it runs, and goes when it ends', async () => {
    const r = registry();
    const id = randomUUID();
    assert.equal(r.host(id), undefined);
    const started = await r.startTurn(id, SLOW, { title: 'Parser', isNew: true });
    assert.ok('agentMessageId' in started, JSON.stringify(started));
    const host = r.host(id);
    assert.ok(host, 'no host follows the turn');
    assert.equal(r.isAttached(id), false);
    assert.equal(host.title, 'Parser');
    assert.deepEqual(
      r.runningTurns().map((t) => [t.sessionId, t.agentMessageId, t.task]),
      [[id, started.agentMessageId, SLOW.task]],
    );
    assert.equal(r.transcriptOf(id), host.transcript);
    // The same host, whoever asks: a view that shows the session, then lets go of it.
    assert.equal(r.attach(id), host);
    assert.equal(r.isAttached(id), true);
    r.detach(id);
    assert.equal(r.host(id), host, 'let go while its turn runs');
    assert.equal(await r.stop(id), true);
    await released(r, id);
    assert.equal(r.transcriptOf(id), undefined);
    assert.equal(await r.stop(id), false, 'nothing left to stop');
    assert.equal(
      host.transcript.turns.find((t) => t.agentMessageId === started.agentMessageId)?.status,
      'aborted',
    );
  });

  it('keeps an attached host while its view shows it, and lets it go idle on detach', () => {
    const r = registry();
    const host = r.attach('s-view', { title: 'Shown' });
    assert.equal(r.host('s-view'), host);
    assert.equal(r.attach('s-view'), host, 'one host per session');
    r.detach('s-view');
    assert.equal(r.host('s-view'), undefined);
    // A new view gets a new host.
    const again = r.attach('s-view');
    assert.notEqual(again, host);
  });

  it('reads a stored session for `watch` into a host, and lets it go when nothing runs', async () => {
    const r = registry();
    const page = await client.listSessions({ search: 'Refactor auth middleware' });
    const id = page.sessions[0].sessionId;
    const t = await r.watch(id);
    assert.equal(t.turns.length, 2);
    assert.equal(r.host(id), undefined, 'an idle host is not kept');
  });

  it('says why a turn did not start, and keeps no host for it', async () => {
    const r = registry();
    const id = randomUUID();
    emu.failNext({
      method: 'POST',
      path: '/sessions/new',
      status: 403,
      body: { error: 'forbidden', message: 'This API key is read-only' },
    });
    const result = await r.startTurn(id, SLOW, { isNew: true });
    assert.ok('error' in result, JSON.stringify(result));
    assert.match(result.error, /This API key is read-only/);
    assert.equal(r.host(id), undefined);
    assert.deepEqual(r.runningTurns(), []);
  });

  it('tells the running turns’ changes, the turn’s start, its lifecycle and its end; a throwing listener is logged', async () => {
    const r = registry();
    const changes: RunningTurnsChange[] = [];
    const startedIn: string[] = [];
    const lifecycle: SessionActivityEvent['kind'][] = [];
    const ended: TurnEnded[] = [];
    const transcripts = new Set<string>();
    r.onDidChangeRunningTurns(() => {
      throw new Error('a listener that throws');
    });
    r.onDidChangeRunningTurns((c) => changes.push(c));
    r.onDidStartTurn((id) => startedIn.push(id));
    r.onDidChangeSession((e) => lifecycle.push(e.kind));
    r.onDidEndTurn((e) => ended.push(e));
    r.onDidChangeTranscript((id) => transcripts.add(id));
    const id = randomUUID();
    const started = await r.startTurn(id, SLOW, { isNew: true });
    assert.ok('agentMessageId' in started, JSON.stringify(started));
    await waitFor('the turn to be told running', () => changes.length > 0);
    assert.deepEqual(changes[0].sessions, [{ sessionId: id, running: true }]);
    assert.deepEqual(
      changes[0].turns.map((t) => t.agentMessageId),
      [started.agentMessageId],
    );
    assert.deepEqual(startedIn, [id]);
    assert.equal(await r.stop(id), true);
    await released(r, id);
    const last = changes[changes.length - 1];
    assert.deepEqual(last, { turns: [], sessions: [{ sessionId: id, running: false }] });
    // Each session's start and stop are told once.
    assert.deepEqual(
      changes.flatMap((c) => c.sessions),
      [
        { sessionId: id, running: true },
        { sessionId: id, running: false },
      ],
    );
    assert.deepEqual(lifecycle, ['started', 'stopped']);
    assert.deepEqual(ended, [{ sessionId: id, status: 'aborted' }]);
    assert.deepEqual([...transcripts], [id]);
    assert.ok(
      warnings.some((w) => w.includes('a listener that throws')),
      `warnings: ${warnings.join(' | ')}`,
    );
  });

  it('dispose: stops following every turn, lets every host go, tells nothing more, and caches what hosts held', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'den-registry-'));
    dirs.push(dir);
    const r = registry({ cacheDir: dir });
    const changes: RunningTurnsChange[] = [];
    r.onDidChangeRunningTurns((c) => changes.push(c));
    const id = randomUUID();
    const started = await r.startTurn(id, SLOW, { isNew: true });
    assert.ok('agentMessageId' in started, JSON.stringify(started));
    const host = r.host(id);
    assert.ok(host);
    await waitFor('the turn to run', () => r.runningTurns().length === 1);
    const told = changes.length;
    r.dispose();
    assert.equal(r.host(id), undefined);
    assert.deepEqual(r.runningTurns(), []);
    assert.deepEqual(host.runningTurns(), [], 'the disposed host follows no turn');
    assert.equal(changes.length, told, 'no change told after dispose');
    await assert.rejects(r.startTurn(id, SLOW), /disposed/);
    // What the host held is written to the cache.
    const cache = new TranscriptCache({ dir });
    const cached = await waitFor(`the transcript of ${id} to be cached`, () => cache.read(id));
    assert.deepEqual(
      cached.turns.map((t) => t.agentMessageId),
      [started.agentMessageId],
    );
  });
});
