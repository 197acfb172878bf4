import assert from 'node:assert/strict';
import { DenError } from '../../../../src/core/client/errors';
import type {
  ListSessionsQuery,
  Message,
  Session,
  SessionDetail,
  SessionPage,
} from '../../../../src/core/client/types';
import { Emitter } from '../../../../src/core/shared/emitter';
import { silentLogger } from '../../../../src/core/shared/log';
import type { FileStatus, FileStatuses } from '../../../../src/model/session-files/file-status';
import type { IdStorage } from '../../../../src/model/sessions-list/recent-ids';
import {
  SessionsModel,
  type SessionsApi,
  type SessionsService,
} from '../../../../src/model/sessions-list/sessions-model';
import { SessionsTreeModel } from '../../../../src/model/sessions-list/tree-model';
import type { SessionNode, TreeFileStatus, TreeUpdate } from '../../../../src/model/sessions-list/tree-nodes';
import { FakeClock } from '../shared/fake-clock';

const NOW = new Date(2026, 2, 10, 12).getTime();
const HOUR = 3_600_000;

function session(id: string, o: Partial<Session> = {}): Session {
  return {
    id,
    sessionId: id,
    title: id,
    createdAt: NOW - HOUR,
    updatedAt: NOW - HOUR,
    deleted: false,
    isPinned: false,
    fileSnapshot: {},
    ...o,
  };
}

function message(id: string, type: 'user' | 'agent', o: Partial<Message> = {}): Message {
  return {
    id,
    sessionId: 's1',
    type,
    content: id,
    createdAt: NOW,
    aborted: false,
    files: [],
    events: type === 'agent' ? [{ event_id: 1, kind: 'task.completed', payload: {}, timestamp: NOW }] : [],
    ...o,
  };
}

/** An in-memory service: `sessions` listed newest first, page by page; `fail` makes the list fail. */
class FakeApi implements SessionsApi {
  sessions: Session[] = [];
  details = new Map<string, SessionDetail>();
  fail?: DenError;

  listSessions(q: ListSessionsQuery): Promise<SessionPage> {
    if (this.fail) return Promise.reject(this.fail);
    const limit = q.limit ?? 50;
    const page = q.page ?? 1;
    const matching = this.sessions.filter((s) => !q.search || s.title.includes(q.search));
    return Promise.resolve({
      sessions: matching.slice((page - 1) * limit, page * limit),
      totalCount: matching.length,
      totalPages: Math.ceil(matching.length / limit),
      currentPage: page,
    });
  }

  getSession(sessionId: string): Promise<SessionDetail> {
    const d = this.details.get(sessionId);
    return d
      ? Promise.resolve(d)
      : Promise.reject(new DenError({ code: 'not_found', message: 'no such session' }));
  }
}

class FakeService implements SessionsService {
  readonly ready = Promise.resolve();
  constructor(
    public client: SessionsApi,
    public settings: { pageSize: number },
  ) {}
  requireClient(): SessionsApi {
    return this.client;
  }
  beginRequest(): number {
    return 0;
  }
  reportSuccess(): void {}
  reportFailure(): void {}
}

function memory(initial: Record<string, unknown> = {}): IdStorage & { values: Map<string, unknown> } {
  const values = new Map(Object.entries(initial));
  return { values, get: (k) => values.get(k), update: async (k, v) => void values.set(k, v) };
}

/** A file-status source whose states the test sets. */
class FakeStatus implements TreeFileStatus {
  readonly changed = new Emitter<string>();
  readonly onDidChange = this.changed.event;
  states = new Map<string, Map<string, FileStatus>>();
  computed = new Map<string, Map<string, FileStatus>>();
  peek(sessionId: string): FileStatuses | undefined {
    return this.computed.get(sessionId);
  }
  statuses(sessionId: string): Promise<FileStatuses> {
    const s = this.states.get(sessionId) ?? new Map<string, FileStatus>();
    this.computed.set(sessionId, s);
    return Promise.resolve(s);
  }
}

/** Lets pending promise callbacks run (no timer: only queued microtasks and I/O callbacks). */
const settle = () => new Promise<void>((r) => setImmediate(r));

describe('SessionsTreeModel (the Sessions tree as data)', () => {
  let api: FakeApi;
  let updates: TreeUpdate[];
  const trees: SessionsTreeModel[] = [];

  beforeEach(() => {
    api = new FakeApi();
    updates = [];
  });
  afterEach(() => {
    for (const t of trees.splice(0)) t.dispose();
  });

  function tree(o: { pageSize?: number; storage?: IdStorage } = {}): SessionsTreeModel {
    const list = new SessionsModel(
      new FakeService(api, { pageSize: o.pageSize ?? 50 }),
      silentLogger,
      new FakeClock(),
    );
    const t = new SessionsTreeModel(list, o.storage ?? memory(), silentLogger, () => NOW);
    t.onDidUpdate((u) => updates.push(u));
    trees.push(t);
    return t;
  }

  /** The root's groups with their sessions' ids. */
  async function shape(t: SessionsTreeModel): Promise<[string, string[]][]> {
    assert.equal(await t.list.loadForView(), true);
    const out: [string, string[]][] = [];
    for (const day of t.roots()) {
      if (day.kind !== 'day') continue;
      const rows = await t.children(day);
      out.push([day.group, rows.map((r) => (r.kind === 'session' ? r.sessionId : r.kind))]);
      assert.equal(t.groupSize(day.group), rows.length);
    }
    return out;
  }

  it('shows This Workspace by default (pinned always), All Sessions on request, remembered in storage', async () => {
    api.sessions = [session('a'), session('b'), session('p', { isPinned: true })];
    const storage = memory();
    const t = tree({ storage });
    assert.equal(t.showAll, false);
    assert.equal(t.description, 'This Workspace');
    assert.deepEqual(await shape(t), [['pinned', ['p']]]);

    await t.setShowAll(true);
    assert.equal(storage.values.get('den.sessions.showAll'), true);
    assert.deepEqual(updates.pop(), {
      description: true,
      redraw: 'all',
      message: { text: undefined },
      keys: 'scope',
    });
    assert.equal(t.description, 'All Sessions');
    assert.deepEqual(await shape(t), [
      ['pinned', ['p']],
      ['today', ['a', 'b']],
    ]);
    // another window of the same workspace reads the choice back
    assert.equal(tree({ storage }).showAll, true);

    // the scope shown already: nothing stored, nothing redrawn
    storage.values.delete('den.sessions.showAll');
    updates.length = 0;
    await t.setShowAll(true);
    assert.equal(storage.values.has('den.sessions.showAll'), false);
    assert.deepEqual(updates, []);
  });

  it('says under This Workspace how many more sessions All Sessions shows; none in All Sessions or an empty scope', async () => {
    api.sessions = [session('a'), session('b'), session('p', { isPinned: true })];
    const t = tree();
    assert.equal(await t.list.loadForView(), true);
    assert.deepEqual(
      t.roots().map((n) => n.kind),
      ['day', 'elsewhere'],
    );
    assert.equal(t.elsewhere, 2);
    await t.remember('a');
    t.roots();
    assert.equal(t.elsewhere, 1, 'a session started here is shown, not counted');
    await t.setShowAll(true);
    assert.deepEqual(
      t.roots().map((n) => n.kind),
      ['day', 'day'],
    );
    assert.equal(t.elsewhere, 0);

    // nothing of this workspace: the welcome says it, no row
    api.sessions = [session('x'), session('y')];
    const empty = tree();
    assert.equal(await empty.list.loadForView(), true);
    assert.deepEqual(empty.roots(), []);
    assert.equal(empty.elsewhere, 0);
  });

  it('remembers the sessions started here: regroups once, not again for the most recent', async () => {
    api.sessions = [session('a'), session('b')];
    const storage = memory();
    const t = tree({ storage });
    assert.deepEqual(await shape(t), []);
    updates.length = 0;
    assert.equal(await t.remember('b'), true);
    assert.equal(updates.length, 1);
    assert.equal(updates[0].redraw, 'all');
    assert.equal(updates[0].keys, 'scope');
    assert.equal(await t.remember('b'), false, 'the most recent already: nothing to regroup');
    assert.equal(updates.length, 1);
    assert.equal(t.isLocal('b'), true);
    assert.equal(tree({ storage }).isLocal('b'), true, 'kept in the workspace storage');
    assert.deepEqual(await shape(t), [['today', ['b']]]);
  });

  it('groups the sessions web task runs made under Web Tasks, marked; regroups only when they change', async () => {
    api.sessions = [session('run-1'), session('chat'), session('run-2', { updatedAt: NOW - 40 * 24 * HOUR })];
    const t = tree();
    await t.remember('chat');
    await t.setShowAll(true);
    assert.deepEqual(await shape(t), [
      ['today', ['run-1', 'chat']],
      ['older', ['run-2']],
    ]);
    updates.length = 0;
    t.setWebTaskSessions(new Set(['run-1', 'run-2', 'not-listed']));
    assert.deepEqual(updates, [{ redraw: 'all', message: { text: undefined }, keys: 'scope' }]);
    assert.deepEqual(await shape(t), [
      ['today', ['chat']],
      ['webtasks', ['run-1', 'run-2']],
    ]);
    assert.equal(t.sessionRow('run-1')?.webTask, true);
    assert.equal(t.sessionRow('chat')?.webTask, false);
    // the same sessions again: nothing redrawn
    updates.length = 0;
    t.setWebTaskSessions(new Set(['not-listed', 'run-2', 'run-1']));
    assert.deepEqual(updates, []);
    // This Workspace lists the runs recorded here, still grouped, and counts none of them elsewhere
    await t.setShowAll(false);
    assert.deepEqual(await shape(t), [
      ['today', ['chat']],
      ['webtasks', ['run-1', 'run-2']],
    ]);
    assert.equal(t.elsewhere, 0);
    // a run deleted from the history: its session is an ordinary one again
    t.setWebTaskSessions(new Set(['run-2']));
    await t.setShowAll(true);
    assert.deepEqual(await shape(t), [
      ['today', ['run-1', 'chat']],
      ['webtasks', ['run-2']],
    ]);
  });

  it('archives into the Archived group, and forgets a removed session in both memories', async () => {
    api.sessions = [session('a'), session('b')];
    const storage = memory();
    const t = tree({ storage });
    await t.remember('a');
    await t.setArchived('a', true);
    assert.deepEqual(await shape(t), [['archived', ['a']]]);
    assert.equal(t.sessionRow('a')?.archived, true);
    await t.setArchived('a', false);
    assert.deepEqual(await shape(t), [['today', ['a']]]);

    await t.setArchived('a', true);
    updates.length = 0;
    t.list.removeSession('a', true);
    await settle();
    assert.equal(t.isLocal('a'), false);
    assert.equal(t.isArchived('a'), false);
    assert.deepEqual(storage.values.get('den.sessions.workspace'), []);
    assert.deepEqual(storage.values.get('den.sessions.archived'), []);
    // one left: the message stays as it is
    assert.deepEqual(updates, [{ redraw: 'all', keys: 'scope', gone: true }]);
    assert.equal(t.sessionRow('a'), undefined);
  });

  it('clears the message when the last session is removed, and does not warn for a deletion', async () => {
    api.sessions = [session('a')];
    const t = tree();
    await t.list.loadForView();
    updates.length = 0;
    t.list.removeSession('a');
    assert.deepEqual(updates, [{ redraw: 'all', keys: 'scope', message: { text: undefined }, gone: false }]);
  });

  it('redraws one row for a change within its group, the tree when it moves to another group', async () => {
    api.sessions = [session('a'), session('b')];
    const t = tree();
    await t.setShowAll(true);
    await shape(t);
    const row = (await t.children({ kind: 'day', group: 'today' }))[0];
    updates.length = 0;
    t.list.updateSession(session('a', { title: 'renamed' }));
    assert.equal(updates.length, 1);
    const redraw = updates[0].redraw;
    assert.ok(Array.isArray(redraw));
    assert.equal(redraw[0], row, 'the very object the view knows');
    t.list.setRunning('a', true);
    assert.deepEqual(updates[1].redraw, [row]);
    assert.equal(t.sessionRow('a')?.state, 'running');

    t.list.updateSession(session('a', { isPinned: true }));
    assert.equal(updates[2].redraw, 'all', 'pinned: it moves to Pinned');
    assert.deepEqual(t.parent(row), { kind: 'day', group: 'pinned' });
  });

  it("skips redrawing a reloaded list whose rows would draw the same (a redraw drops a context menu's row)", async () => {
    api.sessions = [session('a'), session('b')];
    const t = tree({ storage: memory({ 'den.sessions.showAll': true }) });
    assert.deepEqual(await shape(t), [['today', ['a', 'b']]]);
    updates.length = 0;
    await t.refresh();
    const settled = updates.at(-1);
    assert.ok(settled?.keys === 'welcome', 'the reload settled');
    assert.equal(settled.redraw, undefined, 'the same rows: no second redraw');
    assert.deepEqual(settled.message, { text: undefined }, 'the message is still set');

    // a session renamed on the server: the reload draws it, in the rows the reset's redraw lists
    api.sessions = [session('a', { title: 'renamed' }), session('b')];
    updates.length = 0;
    await t.refresh();
    assert.deepEqual(
      updates.map((u) => u.redraw),
      ['all', undefined],
      'the reset redraws; the view lists the renamed rows then, not in a second redraw',
    );
    assert.deepEqual(await shape(t), [['today', ['a', 'b']]]);
    assert.equal(t.sessionRow('a')?.session.title, 'renamed');

    // the view listed the reset root before the outcome (no rows yet): the outcome redraws
    api.sessions = [session('a', { title: 'renamed again' }), session('b')];
    t.list.reset();
    assert.deepEqual(t.roots(), []);
    updates.length = 0;
    await t.list.ensureLoaded();
    assert.equal(updates.at(-1)?.redraw, 'all');

    // the view drew nothing (hidden, signed out): the next change redraws even when equal
    t.roots();
    t.drewNoRoots();
    updates.length = 0;
    t.setWebTaskSessions(new Set(['x']));
    assert.equal(updates.at(-1)?.redraw, 'all');
  });

  it('asks for no redraw while the view waits for the root, whose rows then show the change: one draw', async () => {
    api.sessions = [session('a'), session('b')];
    const t = tree({ storage: memory({ 'den.sessions.showAll': true }) });
    // VS Code lists the root when it first shows the view: the first page's outcome redraws nothing
    await t.list.loadForView();
    assert.equal(updates.at(-1)?.keys, 'welcome', 'the first page settled');
    assert.deepEqual(
      updates.map((u) => u.redraw),
      [undefined],
    );
    assert.deepEqual(await shape(t), [['today', ['a', 'b']]]);

    // listed: a regroup redraws
    updates.length = 0;
    await t.setArchived('a', true);
    assert.equal(updates.at(-1)?.redraw, 'all');

    // the view asks again (the redraw) and waits: changes meanwhile ask for nothing more
    assert.equal(t.willListRoots(), true, 'the redraw made the view list the root');
    updates.length = 0;
    await t.setArchived('b', true);
    t.setWebTaskSessions(new Set(['x']));
    assert.deepEqual(
      updates.map((u) => u.redraw),
      [undefined, undefined],
    );
    assert.deepEqual(
      t.roots().map((n) => n.kind),
      ['day'],
      'the rows listed show both changes',
    );
    assert.equal(t.groupSize('archived'), 2);

    // listed again: the next change redraws
    assert.equal(t.willListRoots(), false, 'nothing was due once listed');
    t.roots();
    updates.length = 0;
    await t.setArchived('a', false);
    assert.equal(updates.at(-1)?.redraw, 'all');

    // an empty root drawn (drewNoRoots) is not waited for either
    t.roots();
    t.willListRoots();
    t.drewNoRoots();
    updates.length = 0;
    await t.setArchived('b', false);
    assert.equal(updates.at(-1)?.redraw, 'all');
  });

  it('redraws a reset list without its message, and regroups once a page more is loaded', async () => {
    api.sessions = Array.from({ length: 5 }, (_, i) => session(`s${i}`));
    const t = tree({ pageSize: 2 });
    await t.list.loadForView();
    updates.length = 0;
    t.list.reset();
    assert.deepEqual(updates, [{ redraw: 'all' }], 'no message or keys until the outcome: no flicker');
    await t.list.ensureLoaded();
    // (no second redraw: the view lists the reset root once the outcome is known)
    assert.deepEqual(updates[1], {
      message: {
        text: 'No sessions of this workspace among the 2 most recent: load more, or show All Sessions.',
      },
      keys: 'welcome',
    });
    t.roots();
    await t.list.loadMore();
    assert.equal(updates[2].redraw, 'all');
    assert.equal(updates[2].keys, 'scope');
    assert.deepEqual(updates[2].message, {
      text: 'No sessions of this workspace among the 4 most recent: load more, or show All Sessions.',
    });
    assert.deepEqual(
      t.roots().map((n) => n.kind),
      ['more'],
    );
  });

  it('says which context keys hold: empty, scope empty, and the welcome of the last problem', async () => {
    const keys = (t: SessionsTreeModel, set: 'scope' | 'welcome' | 'noWelcome') =>
      Object.fromEntries(t.contextKeys(set));
    const t = tree();
    assert.deepEqual(keys(t, 'scope'), {
      'den.sessionsEmpty': false,
      'den.sessionsShowAll': false,
      'den.sessionsScopeEmpty': false,
    });
    await t.list.loadForView();
    assert.equal(keys(t, 'scope')['den.sessionsEmpty'], true, 'loaded and empty');

    api.sessions = [session('a')];
    await t.refresh();
    assert.deepEqual(keys(t, 'scope'), {
      'den.sessionsEmpty': false,
      'den.sessionsShowAll': false,
      'den.sessionsScopeEmpty': true,
    });
    await t.setShowAll(true);
    assert.deepEqual(keys(t, 'scope'), {
      'den.sessionsEmpty': false,
      'den.sessionsShowAll': true,
      'den.sessionsScopeEmpty': false,
    });

    api.fail = new DenError({ code: 'unauthorized', message: 'bad key', status: 401 });
    await t.refresh();
    assert.deepEqual(keys(t, 'welcome'), {
      'den.authError': true,
      'den.offline': false,
      'den.sessionsEmpty': false,
      'den.sessionsShowAll': true,
      'den.sessionsScopeEmpty': false,
    });
    assert.deepEqual(keys(t, 'noWelcome'), { 'den.authError': false, 'den.offline': false });

    // more to load: This Workspace is not known to be empty (the message says to load more)
    api.fail = undefined;
    api.sessions = [session('a'), session('b')];
    const paged = tree({ pageSize: 1 });
    await paged.list.loadForView();
    assert.equal(keys(paged, 'scope')['den.sessionsScopeEmpty'], false);
  });

  it('refreshes: forgets the welcome at once on request, and does not load for a hidden view', async () => {
    api.sessions = [session('a')];
    const t = tree();
    assert.equal(await t.refresh({ forgetProblem: true, hidden: true }), false);
    assert.deepEqual(updates, [{ keys: 'noWelcome' }, { redraw: 'all' }]);
    assert.equal(t.list.loaded, false);
    assert.equal(await t.refresh(), true);
    assert.equal(t.list.loaded, true);
  });

  it('gives the message: a problem as it is, else the search in effect while it matches', async () => {
    api.sessions = [session('Postgres plan'), session('other')];
    const t = tree();
    assert.equal(t.message('It broke.'), 'It broke.');
    await t.remember('Postgres plan');
    t.setFilter('Postgres');
    await t.refresh();
    assert.equal(t.description, 'This Workspace · “Postgres”');
    assert.equal(t.message(undefined), 'Showing sessions of this workspace whose title contains “Postgres”.');
    await t.setShowAll(true);
    assert.equal(t.message(undefined), 'Showing sessions whose title contains “Postgres”.');
    t.setFilter(undefined);
    await t.refresh();
    assert.equal(t.message(undefined), undefined);
    // a search that matches nothing of This Workspace: no message, so the welcome shows
    await t.setShowAll(false);
    t.setFilter('other');
    await t.refresh();
    assert.equal(t.list.sessions.length, 1);
    assert.equal(t.message(undefined), undefined);
  });

  it('lists turns and redraws the Turns group only while its drawn count is stale', async () => {
    api.sessions = [session('s1')];
    api.details.set('s1', {
      session: api.sessions[0],
      messages: [message('u1', 'user'), message('a1', 'agent'), message('u2', 'user')],
    });
    const t = tree();
    await t.list.loadForView();
    const [turns, files] = await t.children({ kind: 'session', sessionId: 's1' });
    assert.equal(turns.kind, 'group');
    assert.equal(t.drawGroup(turns as Extract<SessionNode, { kind: 'group' }>), undefined);
    updates.length = 0;
    const rows = await t.children(turns);
    assert.deepEqual(
      rows.map((r) => (r.kind === 'turn' ? [r.message.id, r.agent?.id] : r.kind)),
      [
        ['u1', 'a1'],
        ['u2', undefined],
      ],
    );
    // (the history also told how the last turn ended: its session row is redrawn)
    const groupRedraws = () =>
      updates.filter((u) => Array.isArray(u.redraw) && u.redraw[0]?.kind === 'group');
    assert.deepEqual(groupRedraws(), [{ redraw: [turns] }], 'drawn without a count: redraw it');
    assert.equal(t.drawGroup(turns as Extract<SessionNode, { kind: 'group' }>), 2);
    await t.children(turns);
    assert.equal(groupRedraws().length, 1, 'drawn with 2: no redraw (or the view asks forever)');
    assert.equal(t.parent(rows[0]), turns);
    assert.equal(t.parent(turns)?.kind, 'session');
    assert.deepEqual(await t.children(files), [
      { kind: 'note', id: 'nofiles:s1', label: 'No files yet', icon: 'info' },
    ]);

    api.details.delete('s1');
    t.list.updateSession(session('s1', { updatedAt: NOW }));
    const gone = await t.children(turns);
    assert.equal(gone.length, 1);
    assert.equal(gone[0].kind, 'note');
  });

  it('redraws the file rows whose drawn state changed, and only those', async () => {
    const file = (name: string) => ({ key: name, name, size: 1 });
    api.sessions = [session('s1', { fileSnapshot: { 'b.ts': file('b.ts'), 'a.ts': file('a.ts') } })];
    const status = new FakeStatus();
    const t = tree();
    t.setFileStatus(status);
    await t.list.loadForView();
    updates.length = 0;
    const group: SessionNode = { kind: 'group', group: 'files', sessionId: 's1' };
    assert.equal(t.drawGroup(group), 2);
    const rows = await t.children(group);
    assert.deepEqual(
      rows.map((r) => r.kind === 'file' && r.path),
      ['a.ts', 'b.ts'],
    );
    await settle();
    assert.deepEqual(updates, [], 'nothing drawn yet: nothing stale');
    // b.ts is drawn; a.ts not yet (the view draws it when it asks, with the states then known)
    assert.equal(rows[1].kind === 'file' && t.drawFile(rows[1]), undefined);

    status.states.set(
      's1',
      new Map([
        ['a.ts', { state: 'modified' } as FileStatus],
        ['b.ts', { state: 'new' } as FileStatus],
      ]),
    );
    status.changed.fire('s1');
    await settle();
    assert.deepEqual(updates, [{ redraw: [rows[1]] }]);
    assert.deepEqual(rows[1].kind === 'file' && t.drawFile(rows[1]), { state: 'new' });

    status.changed.fire('s1'); // same states again: nothing to redraw
    status.changed.fire('other'); // a session whose files are not listed
    await settle();
    assert.equal(updates.length, 1);
  });
});
