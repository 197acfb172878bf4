import assert from 'node:assert/strict';
import { DenError } from '../../../../src/core/client/errors';
import type { AgentEvent, Message } from '../../../../src/core/client/types';
import { silentLogger } from '../../../../src/core/shared/log';
import {
  endedState,
  isRunning,
  SessionsModel,
  type SessionsApi,
  type SessionsChange,
  type SessionsService,
} from '../../../../src/model/sessions-list/sessions-model';
import { listProblemMessage } from '../../../../src/model/sessions-list/welcome-state';
import { startEmulator, type Emulator } from '../../../emulator';
import { clientFor } from '../../core/client/helpers';
import { FakeClock } from '../shared/fake-clock';

const SEEDED = 8;
const LIST = /^\/sessions$/;
const ONE = /^\/sessions\/[^/]+$/;

/** The service connection as the model sees it, recording each outcome reported to it. */
class FakeService implements SessionsService {
  readonly ready = Promise.resolve();
  readonly outcomes: string[] = [];
  private tickets = 0;

  constructor(
    public client: SessionsApi | undefined,
    public settings: { pageSize: number },
  ) {}

  requireClient(): SessionsApi {
    if (!this.client) throw new DenError({ code: 'config', message: 'Sign in first.' });
    return this.client;
  }

  beginRequest(): number {
    return ++this.tickets;
  }

  reportSuccess(): void {
    this.outcomes.push('ok');
  }

  reportFailure(err: unknown): void {
    this.outcomes.push(err instanceof DenError ? err.code : String(err));
  }
}

describe('SessionsModel (vscode-free Sessions list)', () => {
  let emu: Emulator;
  let env: ReturnType<typeof clientFor>;
  let clock: FakeClock;
  let changes: SessionsChange[];
  const models: SessionsModel[] = [];

  before(async () => {
    emu = await startEmulator({ eventDelayMs: 0 });
  });
  after(() => emu.close());
  beforeEach(() => {
    emu.faults = {};
    env = clientFor(emu);
    clock = new FakeClock();
    changes = [];
  });
  afterEach(async () => {
    for (const m of models.splice(0)) m.dispose();
    await env.close();
  });

  function model(pageSize = 50, client: SessionsApi | undefined = env.client) {
    const service = new FakeService(client, { pageSize });
    const m = new SessionsModel(service, silentLogger, clock);
    m.onDidChange((c) => changes.push(c));
    models.push(m);
    return { m, service };
  }

  /** The ids the service lists for the primary user, newest first. */
  async function serverIds(search?: string): Promise<string[]> {
    const page = await env.client.listSessions({ limit: 100, search, sort: 'updatedAt', order: 'desc' });
    return page.sessions.filter((s) => !s.deleted).map((s) => s.sessionId);
  }

  it('loads page by page: a "more" until the last page, two quick Load Mores skip no page', async () => {
    const { m, service } = model(3);
    assert.equal(await m.loadForView(), true);
    assert.equal(m.sessions.length, 3);
    assert.equal(m.hasMore, true);
    assert.equal(m.totalCount, SEEDED);
    await Promise.all([m.loadMore(), m.loadMore()]);
    assert.equal(m.sessions.length, 6);
    await m.loadMore();
    assert.equal(m.hasMore, false);
    assert.equal(env.counter.count('GET', LIST), 3);
    assert.deepEqual(
      m.sessions.map((s) => s.sessionId),
      await serverIds(),
    );
    assert.deepEqual(service.outcomes, ['ok', 'ok', 'ok', 'ok']);
    assert.ok(changes.filter((c) => c.kind === 'list').length >= 2, JSON.stringify(changes));
  });

  it('filters through the service, keeps the filter over a reset, and drops it when cleared', async () => {
    const { m } = model(10);
    m.setFilter('  POSTGRES ');
    assert.equal(m.filter, 'POSTGRES');
    m.reset();
    await m.ensureLoaded();
    assert.deepEqual(
      m.sessions.map((s) => s.title),
      ['Plan the Postgres 16 migration'],
    );
    m.reset();
    await m.ensureLoaded();
    assert.equal(m.filter, 'POSTGRES');
    assert.equal(m.sessions.length, 1);
    m.setFilter(undefined);
    m.reset();
    await m.ensureLoaded();
    assert.equal(m.sessions.length, SEEDED);
    assert.ok(env.counter.requests.some((r) => /search=POSTGRES/.test(r.path)));
  });

  it('lists a session that moved to a later page once, and fetches its history again for its newer updatedAt', async () => {
    const { m } = model(1);
    await m.ensureLoaded();
    const first = m.sessions[0];
    const before = await m.detail(first.sessionId);
    assert.equal(await m.detail(first.sessionId), before, 'an unchanged session is not fetched again');
    assert.equal(env.counter.count('GET', ONE), 1);

    // Renamed, then another session renamed after it: the first is now on page 2, newer.
    await env.client.renameSession(first.sessionId, 'Renamed on the service');
    const other = (await serverIds()).find((id) => id !== first.sessionId) ?? '';
    for (let i = 0; (await serverIds())[0] !== other; i++) {
      assert.ok(i < 100, 'the other session never became the newest');
      await env.client.renameSession(other, `Renamed after it ${i}`);
    }
    await m.loadMore();
    assert.deepEqual(
      m.sessions.map((s) => s.sessionId),
      [first.sessionId],
      'listed twice',
    );
    assert.equal(m.get(first.sessionId)?.title, 'Renamed on the service');
    const after = await m.detail(first.sessionId);
    assert.equal(env.counter.count('GET', ONE), 2);
    assert.equal(after.session.title, 'Renamed on the service');
    assert.equal(m.cachedDetail(first.sessionId), after);

    m.updateSession({ ...m.sessions[0], title: 'Renamed here' });
    assert.deepEqual(changes.at(-1), { kind: 'session', sessionId: first.sessionId });
    await m.detail(first.sessionId);
    assert.equal(env.counter.count('GET', ONE), 3, 'an updated session is fetched again');
  });

  it('a 401 is a problem without retry until a reset with a new key loads the list', async () => {
    const bad = clientFor(emu, { apiKey: () => 'sk_live_revokedKeyNoLongerValid0001' });
    try {
      const { m, service } = model(50, bad.client);
      assert.equal(await m.loadForView(), false);
      assert.equal(m.problem?.error.code, 'unauthorized');
      assert.equal(m.problem?.retryInMs, undefined);
      assert.equal(m.retryPending, false);
      assert.equal(clock.pending, 0);
      assert.equal(listProblemMessage(m.problem), undefined, 'the welcome explains a rejected key');
      assert.deepEqual(changes, [{ kind: 'settled' }]);
      // Asked again (the view redraws): no second request while the problem stands.
      assert.equal(await m.loadForView(), false);
      assert.equal(bad.counter.count('GET', LIST), 1);

      service.client = env.client;
      m.reset();
      assert.equal(m.problem, undefined);
      assert.equal(await m.loadForView(), true);
      assert.equal(m.sessions.length, SEEDED);
      assert.deepEqual(service.outcomes, ['unauthorized', 'ok']);
    } finally {
      await bad.close();
    }
  });

  it('offline: retries by itself with doubling delays on fake time until the service is back', async () => {
    const own = await startEmulator({ eventDelayMs: 0 });
    const port = Number(new URL(own.url).port);
    const local = clientFor(own);
    let back: Emulator | undefined;
    try {
      await own.close();
      const { m, service } = model(50, local.client);
      assert.equal(await m.loadForView(), false);
      assert.equal(m.problem?.error.fault, 'network');
      assert.equal(m.problem?.retryInMs, 2_000);
      assert.equal(m.retryPending, true);

      clock.advance(1_999);
      assert.equal(m.retryPending, true, 'retried before its time');
      clock.advance(1);
      await m.ensureLoaded();
      assert.equal(m.problem?.error.fault, 'network');
      assert.equal(m.problem?.retryInMs, 4_000, 'the delay doubles');

      back = await startEmulator({ port, eventDelayMs: 0 });
      clock.advance(4_000);
      await m.ensureLoaded();
      assert.equal(m.problem, undefined);
      assert.equal(m.retryPending, false);
      assert.equal(m.sessions.length, SEEDED);
      assert.deepEqual(service.outcomes, ['network', 'network', 'ok']);
      assert.deepEqual(
        changes.map((c) => c.kind),
        ['settled', 'settled', 'settled'],
      );
    } finally {
      await local.close();
      await back?.close();
    }
  });

  it('a 5xx says when the list retries, from its own backoff; a reset starts the backoff over', async () => {
    const { m } = model();
    // The client retries a GET three times itself: four failures reach the model.
    const fail = () =>
      emu.failNext({
        path: '^/sessions$',
        status: 500,
        times: 4,
        body: { message: 'Database connection lost' },
      });
    fail();
    await m.loadForView();
    assert.ok(m.problem);
    assert.equal(
      listProblemMessage(m.problem),
      'Den could not load sessions: the service had an error (500): Database connection lost. Retrying in 2 s.',
    );
    fail();
    clock.advance(2_000);
    await m.ensureLoaded();
    assert.match(listProblemMessage(m.problem) ?? '', /Retrying in 4 s\.$/);
    fail();
    m.reset();
    await m.ensureLoaded();
    assert.equal(m.problem?.retryInMs, 2_000, 'a reset starts over');
    assert.equal(clock.pending, 1, 'the old retry is cancelled');
    clock.advance(2_000);
    await m.ensureLoaded();
    assert.equal(m.problem, undefined);
  });

  it("a 429 retries after the service's Retry-After and says so once", async () => {
    const { m } = model();
    emu.failNext({
      path: '^/sessions$',
      status: 429,
      headers: { 'X-Rate-Limit-Retry-After': '45' },
      body: { error: 'rate_limited', message: 'Slow down' },
    });
    await m.loadForView();
    assert.equal(m.problem?.retryInMs, 45_000);
    const message = (m.problem && listProblemMessage(m.problem)) ?? '';
    assert.match(message, /rate limiting/);
    assert.equal(message.match(/45 s/g)?.length, 1, message);
  });

  it('a 404 for a session removes it, without calling the connection failed', async () => {
    const { m, service } = model();
    await m.ensureLoaded();
    const victim = m.sessions[m.sessions.length - 1].sessionId;
    m.setRunning(victim, true);
    await env.client.deleteSession(victim);
    await assert.rejects(m.detail(victim), (e: unknown) => e instanceof DenError && e.code === 'not_found');
    assert.equal(m.get(victim), undefined);
    assert.equal(m.hasRunningTurn(victim), false);
    assert.equal(m.sessions.length, SEEDED - 1);
    assert.deepEqual(changes.at(-1), { kind: 'removed', sessionId: victim, gone: true });
    assert.deepEqual(service.outcomes, ['ok']);
    m.removeSession(m.sessions[0].sessionId);
    assert.equal((changes.at(-1) as { gone?: boolean }).gone, false);
  });

  it('running flags: set by the panels, and read from a session’s history', async () => {
    const { m } = model();
    await m.ensureLoaded();
    const [a, b] = m.sessions.map((s) => s.sessionId);
    m.setRunning(a, true);
    m.setRunning(a, true);
    m.setRunning('not-listed', true);
    assert.deepEqual(changes.slice(-1), [{ kind: 'session', sessionId: a }], 'one change for one flip');
    assert.equal(changes.filter((c) => c.kind === 'session').length, 1);
    assert.equal(m.hasRunningTurn(a), true);
    await m.detail(a); // its last turn completed
    assert.equal(m.hasRunningTurn(a), false);

    const started = await env.client.startTurn({ sessionId: b, task: 'slow long answer', mode: 'auto' });
    m.reset();
    await m.ensureLoaded();
    await m.detail(b);
    assert.equal(m.hasRunningTurn(b), true);
    await env.client.abortMessage(started.agentMessageId);
    await emu.turnEnded(b, started.agentMessageId);
    m.reset();
    await m.ensureLoaded();
    await m.detail(b);
    assert.equal(m.hasRunningTurn(b), false);
  });

  it('isRunning reads the status phase, the abort flag, or the last event', () => {
    const agent = (extra: Partial<Message>): Message => ({
      id: 'a',
      sessionId: 's',
      type: 'agent',
      content: '',
      createdAt: 0,
      aborted: false,
      files: [],
      events: [],
      ...extra,
    });
    const event = (kind: string): AgentEvent => ({ event_id: 1, kind, payload: {}, timestamp: 0 });
    assert.equal(isRunning(undefined), false);
    assert.equal(isRunning(agent({})), true, 'no event yet: just started');
    assert.equal(isRunning(agent({ aborted: true })), false);
    assert.equal(isRunning(agent({ events: [event('message.received')] })), true);
    assert.equal(isRunning(agent({ events: [event('task.completed')] })), false);
    assert.equal(isRunning(agent({ status: { phase: 'running' } })), true);
    assert.equal(isRunning(agent({ status: { phase: 'Done' } })), false);
  });

  it('turn state: running from the panels, how the last turn ended from its history or from a followed turn, else unknown', async () => {
    // A service of its own: the other tests rename sessions.
    const own = await startEmulator({ eventDelayMs: 0 });
    const ownEnv = clientFor(own);
    try {
      await turnStates(model(50, ownEnv.client).m);
    } finally {
      await ownEnv.close();
      await own.close();
    }
  });

  async function turnStates(m: SessionsModel): Promise<void> {
    await m.ensureLoaded();
    const id = (title: string) => m.sessions.find((s) => s.title === title)?.sessionId ?? '';
    const [done, stopped, other] = [
      id('Plan the Postgres 16 migration'),
      id('Add dark mode to settings page'),
      id('Fix flaky upload test'),
    ];
    assert.equal(m.turnState(done), undefined, 'the list alone does not say how a turn went');
    await m.detail(done);
    await m.detail(stopped);
    assert.equal(m.turnState(done), 'done');
    assert.equal(m.turnState(stopped), 'stopped');
    assert.deepEqual(changes.slice(-2), [
      { kind: 'session', sessionId: done },
      { kind: 'session', sessionId: stopped },
    ]);
    m.setRunning(other, true);
    assert.equal(m.turnState(other), 'running');
    m.setEnded(other, 'error');
    assert.equal(m.turnState(other), 'running', 'a running turn wins over how an earlier one ended');
    m.setRunning(other, false);
    assert.equal(m.turnState(other), 'failed');
    m.setEnded(other, 'completed');
    assert.equal(m.turnState(other), 'done');
    m.removeSession(other);
    assert.equal(m.turnState(other), undefined);
  }

  it('endedState reads turn statuses, phases and terminal events', () => {
    const table: [string, string][] = [
      ['completed', 'done'],
      ['task.completed', 'done'],
      ['Done', 'done'],
      ['error', 'failed'],
      ['task.error', 'failed'],
      ['FAILED', 'failed'],
      ['aborted', 'stopped'],
      ['task.aborted', 'stopped'],
    ];
    for (const [end, state] of table) assert.equal(endedState(end), state, end);
  });
});

describe('SessionsModel: the histories it keeps', () => {
  let emu: Emulator;
  let env: ReturnType<typeof clientFor>;
  let m: SessionsModel | undefined;

  before(async () => {
    emu = await startEmulator({ eventDelayMs: 0, extraSessions: 20 });
  });
  after(() => emu.close());
  beforeEach(() => {
    env = clientFor(emu);
  });
  afterEach(async () => {
    m?.dispose();
    await env.close();
  });

  it('keeps only the most recently used histories: an old one is fetched again, a recent one is not', async () => {
    m = new SessionsModel(new FakeService(env.client, { pageSize: 100 }), silentLogger, new FakeClock());
    await m.ensureLoaded();
    const ids = m.sessions.map((s) => s.sessionId);
    assert.ok(ids.length >= 20, `${ids.length} sessions`);
    for (const id of ids.slice(0, 20)) await m.detail(id);
    assert.equal(env.counter.count('GET', ONE), 20);
    assert.equal(m.cachedDetail(ids[0]), undefined, 'the least recently used was dropped');
    assert.ok(m.cachedDetail(ids[19]), 'the most recent is kept');
    await m.detail(ids[19]);
    assert.equal(env.counter.count('GET', ONE), 20, 'a kept history is not fetched again');
    await m.detail(ids[0]);
    assert.equal(env.counter.count('GET', ONE), 21, 'a dropped one is');
  });
});
