import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { SessionActivityEvent } from '../../src/model/session/session-activity';
import { waitFor } from '../support/wait';
import { EXTENSION_ID } from './den-api';
import { useDen } from './fixtures';
import { lastTurn, openPanel, seededSession, turnEnded } from './panel-helpers';
import { emuFetch } from './emulator-helpers';
import { answerMessages, replaceInputBox } from './message-helpers';
import { setDenSetting } from './settings-helpers';
import { sessionsView } from './tree-helpers';

type ShowFn = (message: string, ...items: string[]) => Thenable<string | undefined>;

/** A notification with its buttons, answered with `answer` (dismissed when it does not offer it). */
interface Shown {
  level: 'info' | 'error';
  text: string;
  items: string[];
}

/**
 * Records Den's info and error notifications with their buttons and answers each with `answer`
 * (the fixture's capture answers as if dismissed and keeps no buttons). Undone by `restore`.
 */
function answerNotifications(answer?: string): { shown: Shown[]; restore(): void } {
  const w = vscode.window as unknown as Record<string, ShowFn>;
  const saved = { info: w.showInformationMessage, error: w.showErrorMessage };
  const shown: Shown[] = [];
  const record =
    (level: Shown['level']): ShowFn =>
    (text, ...items) => {
      shown.push({ level, text, items });
      return Promise.resolve(answer !== undefined && items.includes(answer) ? answer : undefined);
    };
  w.showInformationMessage = record('info');
  w.showErrorMessage = record('error');
  return {
    shown,
    restore: () => {
      w.showInformationMessage = saved.info;
      w.showErrorMessage = saved.error;
    },
  };
}

describe('Turn lifecycle events, attention and session links', () => {
  // Turns of "N events" take about N × 20 ms: long enough to close or stop them midway.
  let undo: (() => void)[] = [];
  // Declared before the fixture's, so it runs first: what the test replaced goes back before the
  // fixture restores VS Code's notifications and resets Den.
  afterEach(() => {
    for (const u of undo.reverse()) u();
    undo = [];
  });
  const den = useDen({ emulator: { eventDelayMs: 20 } });
  let events: SessionActivityEvent[] = [];
  let focused = true;

  beforeEach(() => {
    events = [];
    focused = true;
    const api = den.api;
    const attention = api.attention;
    const saved = attention.windowFocused;
    // The test window's focus cannot be set: attention asks this instead.
    attention.windowFocused = () => focused;
    const sub = api.registry.onDidChangeSession((e) => events.push(e));
    undo = [() => (attention.windowFocused = saved), () => sub.dispose(), () => attention.seen()];
  });

  /** Starts a turn in a new session's panel and closes the panel at once: Den follows it headless. */
  const headless = async (task: string, mode: 'auto' | 'code' | 'plan' = 'auto', id = randomUUID()) => {
    const panel = await openPanel(den.api, id, { turn: { task, mode } });
    const turn = lastTurn(panel);
    panel.dispose();
    return { id, turn };
  };

  const kinds = (turnId: string) =>
    events
      .filter((e) => e.agentMessageId === turnId)
      .map((e) => (e.detail ? `${e.kind}: ${e.detail}` : e.kind));

  it('a turn followed without its panel: started, then completed with the session, turn and title; notified, counted on the badge until its panel is shown', async () => {
    const { id, turn } = await headless('answer in 50 events');
    await turnEnded(den.api, turn);
    await waitFor('completed', () => kinds(turn.agentMessageId).includes('completed'));
    assert.deepEqual(kinds(turn.agentMessageId), ['started', 'completed']);
    assert.deepEqual(events.at(-1), {
      kind: 'completed',
      sessionId: id,
      agentMessageId: turn.agentMessageId,
      title: 'answer in 50 events',
    });
    await waitFor('the notification', () => den.messages.texts().length > 0);
    assert.deepEqual(den.messages.shown, [{ level: 'info', text: 'Den: “answer in 50 events” finished' }]);
    const view = sessionsView(den.api);
    assert.equal(den.api.attention.unseenCount, 1);
    assert.equal(view.badge?.value, 1);
    await den.api.panels.open(id);
    assert.equal(den.api.attention.unseenCount, 0);
    assert.equal(view.badge, undefined);
  });

  it('a panel turn the person looks at: started, completed, no notification, no badge', async () => {
    const id = await seededSession(den.api, 'Set up CI dependency caching');
    const panel = await openPanel(den.api, id);
    await waitFor('the history', () => panel.host.loaded);
    await panel.handleMessage({ type: 'send', text: 'answer in 20 events', mode: 'auto', effort: 'fast' });
    const turn = lastTurn(panel);
    await turnEnded(den.api, turn);
    await waitFor('completed', () => kinds(turn.agentMessageId).includes('completed'));
    assert.deepEqual(kinds(turn.agentMessageId), ['started', 'completed']);
    assert.equal(events.at(-1)?.title, 'Set up CI dependency caching');
    assert.ok(panel.visible);
    assert.deepEqual(den.messages.shown, [], 'notified while the person looked');
    assert.equal(sessionsView(den.api).badge, undefined);
  });

  it('the same panel turn with the window unfocused: a notification with Open and Review Changes; Review Changes opens the turn’s review', async () => {
    focused = false;
    const answered = answerNotifications('Review Changes');
    undo.push(() => answered.restore());
    const id = randomUUID();
    const panel = await openPanel(den.api, id, { turn: { task: 'add a helper', mode: 'code' } });
    const turn = lastTurn(panel);
    await turnEnded(den.api, turn);
    await waitFor('the notification', () => answered.shown.length > 0);
    assert.deepEqual(answered.shown, [
      { level: 'info', text: 'Den: “add a helper” finished', items: ['Open', 'Review Changes'] },
    ]);
    assert.ok(turn.files.length > 0);
    await waitFor('the review of the turn', () =>
      vscode.window.tabGroups.all.some((g) =>
        g.tabs.some((t) => t.label.startsWith('Den: Changes of “add a helper” — ')),
      ),
    );
    assert.equal(sessionsView(den.api).badge?.value, 1, 'a turn finished unseen');
  });

  it('a turn that finished while the window had no focus counts until the window has it again with its panel shown', async () => {
    focused = false;
    const id = randomUUID();
    const panel = await openPanel(den.api, id, { turn: { task: 'answer in 10 events', mode: 'auto' } });
    await turnEnded(den.api, lastTurn(panel));
    const view = sessionsView(den.api);
    await waitFor('on the badge', () => view.badge?.value === 1);
    assert.ok(panel.visible);
    den.api.attention.focusChanged();
    assert.equal(view.badge?.value, 1, 'cleared while the window had no focus');
    focused = true;
    // What `window.onDidChangeWindowState` calls (the test window's focus cannot change).
    den.api.attention.focusChanged();
    assert.equal(view.badge, undefined);
  });

  it('a failing turn: failed with the error, an error notification while its panel is closed; Open opens it', async () => {
    const answered = answerNotifications('Open');
    undo.push(() => answered.restore());
    const { id, turn } = await headless('slow fail', 'code');
    await turnEnded(den.api, turn);
    await waitFor('failed', () => kinds(turn.agentMessageId).some((k) => k.startsWith('failed')));
    const message = 'The sandbox process exited unexpectedly (exit code 1).';
    assert.deepEqual(kinds(turn.agentMessageId), ['started', `failed: ${message}`]);
    await waitFor('the notification', () => answered.shown.length > 0);
    assert.deepEqual(answered.shown[0], {
      level: 'error',
      text: `Den: “slow fail” failed: ${message}`,
      items: ['Open', 'Review Changes'].slice(0, turn.files.length ? 2 : 1),
    });
    await waitFor('the panel opened from the notification', () => den.api.panels.panel(id)?.visible === true);
  });

  it('a stopped turn: started, stopped, no notification', async () => {
    focused = false;
    const id = randomUUID();
    const panel = await openPanel(den.api, id, { turn: { task: 'answer in 3000 events', mode: 'auto' } });
    const turn = lastTurn(panel);
    await waitFor('the turn to run', () => turn.blocks.length > 0);
    assert.equal(await den.api.registry.stop(id), true);
    await turnEnded(den.api, turn);
    await waitFor('stopped', () => kinds(turn.agentMessageId).includes('stopped'));
    assert.deepEqual(kinds(turn.agentMessageId), ['started', 'stopped']);
    assert.deepEqual(den.messages.shown, []);
  });

  it('a turn that asks for approval: needsInput once with what it asks, on the panel’s turn, not notified while looked at nor again once hidden; then stopped', async () => {
    const id = randomUUID();
    const panel = await openPanel(den.api, id, { turn: { task: 'approve my plan', mode: 'plan' } });
    const turn = lastTurn(panel);
    const ask = 'Approve the plan to go on.';
    await waitFor('the request', () => turn.needsInput === ask);
    await waitFor('needsInput', () => kinds(turn.agentMessageId).includes(`needsInput: ${ask}`));
    assert.deepEqual(kinds(turn.agentMessageId), ['started', `needsInput: ${ask}`]);
    assert.equal(turn.status, 'running');
    assert.deepEqual(den.messages.shown, [], 'notified while the person looked');
    // Another session's panel hides this one; the turn asks nothing new meanwhile.
    const other = await openPanel(den.api, await seededSession(den.api, 'Write release notes for v2.3'));
    await waitFor('the panel to be hidden', () => !panel.visible && other.visible);
    assert.deepEqual(kinds(turn.agentMessageId), ['started', `needsInput: ${ask}`], 'asked twice');
    assert.equal(await den.api.registry.stop(id), true);
    await turnEnded(den.api, turn);
    assert.equal(turn.needsInput, undefined, 'still waiting after the stop');
    assert.deepEqual(kinds(turn.agentMessageId), ['started', `needsInput: ${ask}`, 'stopped']);
  });

  it('a turn that asks for approval with its panel closed: a notification naming the question', async () => {
    const { id, turn } = await headless('approve it', 'plan');
    await waitFor('the notification', () => den.messages.texts().length > 0);
    assert.deepEqual(den.messages.shown, [
      { level: 'info', text: 'Den: “approve it” needs your input: Approve the plan to go on.' },
    ]);
    assert.equal(await den.api.registry.stop(id), true);
    await turnEnded(den.api, turn);
  });

  it('a plan approved from its notification (Approve, Reject, Open): the same turn goes on to its end', async () => {
    const answered = answerMessages((a) => (a.text.includes('needs your input') ? 'Approve' : undefined), {
      notifications: true,
    });
    try {
      const { id, turn } = await headless('approve it', 'plan');
      await turnEnded(den.api, turn);
      assert.equal(turn.status, 'completed');
      assert.deepEqual(answered.asked[0]?.buttons, ['Approve', 'Reject', 'Open']);
      const { body } = await emuFetch(den.emu, `/sessions/${id}`);
      assert.deepEqual(
        (body.messages as { type: string }[]).map((m) => m.type),
        ['user', 'agent'],
        'the answer was queued as a turn',
      );
      assert.ok(turn.blocks.some((b) => b.type === 'message' && b.text === 'Approved. Go on with the plan.'));
    } finally {
      answered.restore();
    }
  });

  it('a question from its notification: Answer… asks in an input box and the reply goes to the turn', async () => {
    const answered = answerMessages((a) => (a.text.includes('needs your input') ? 'Answer…' : undefined), {
      notifications: true,
    });
    const box = replaceInputBox(() => 'parser-v2');
    try {
      const { turn } = await headless('ask me a name');
      await turnEnded(den.api, turn);
      assert.equal(turn.status, 'completed');
      assert.deepEqual(answered.asked[0]?.buttons, ['Answer…', 'Open']);
      assert.deepEqual(box.prompts, ['Which name should the new module have?']);
      assert.ok(turn.blocks.some((b) => b.type === 'message' && b.text === 'parser-v2'));
    } finally {
      box.restore();
      answered.restore();
    }
  });

  it('den.notifications.turnFinished "never": no notification, still on the badge; the Sessions view shown clears it', async () => {
    await setDenSetting(den.api, 'notifications.turnFinished', 'never');
    try {
      await waitFor('the setting', () => den.api.connection.settings.attention.turnFinished === 'never');
      const { turn } = await headless('answer in 30 events');
      await turnEnded(den.api, turn);
      await waitFor('on the badge', () => sessionsView(den.api).badge?.value === 1);
      assert.deepEqual(den.messages.shown, []);
      const view = sessionsView(den.api);
      const wasVisible = view.visible;
      await vscode.commands.executeCommand('workbench.view.explorer');
      await waitFor('the Sessions view hidden', () => !view.visible);
      await vscode.commands.executeCommand('den.sessions.focus');
      await waitFor('the badge cleared', () => view.badge === undefined);
      // Back as it was for the other tests (a visible view loads the list at each sign-in).
      await vscode.commands.executeCommand(wasVisible ? 'den.sessions.focus' : 'workbench.view.explorer');
      await waitFor('the Sessions view as it was', () => view.visible === wasVisible);
    } finally {
      // Before the fixture's reset (a settings change after it would refresh the next test's tree).
      await setDenSetting(den.api, 'notifications.turnFinished', undefined);
    }
  });

  it('den.badge.unseenTurns off takes the badge away and counts nothing more', async () => {
    const { id, turn } = await headless('answer in 30 events');
    await turnEnded(den.api, turn);
    const view = sessionsView(den.api);
    await waitFor('on the badge', () => view.badge?.value === 1);
    await setDenSetting(den.api, 'badge.unseenTurns', false);
    try {
      await waitFor('the badge gone', () => view.badge === undefined);
      const { turn: second } = await headless('answer in 5 events', 'auto', id);
      await turnEnded(den.api, second);
      await waitFor('told', () => den.messages.texts().length === 2);
      assert.equal(view.badge, undefined);
      assert.equal(den.api.attention.unseenCount, 0);
    } finally {
      await setDenSetting(den.api, 'badge.unseenTurns', undefined);
    }
  });

  it('Copy Link writes the session’s link to the clipboard; the link opens its panel through the URI handler', async () => {
    const id = await seededSession(den.api, 'Refactor auth middleware');
    const link = await vscode.commands.executeCommand<string>('den.copySessionLink', id);
    assert.equal(link, `${vscode.env.uriScheme}://${EXTENSION_ID}/session/${id}`);
    assert.equal(await vscode.env.clipboard.readText(), link);
    assert.match(
      den.messages.texts('info')[0] ?? '',
      /^Den: copied a link that opens “Refactor auth middleware” in this editor\.$/,
    );
    assert.equal(den.api.panels.panel(id), undefined);
    // The registered handler itself: code-server's browser opens no app links (openExternal of one
    // navigates the page away).
    await den.api.uriHandler.handleUri(vscode.Uri.parse(link));
    await waitFor('the panel', () => den.api.panels.panel(id)?.visible === true);
  });

  it('a link without a session, or to one the service does not have, says so and opens nothing', async () => {
    const base = `${vscode.env.uriScheme}://${EXTENSION_ID}`;
    await den.api.uriHandler.handleUri(vscode.Uri.parse(`${base}/session/`));
    await waitFor('the error', () => den.messages.texts('error').length === 1);
    assert.match(den.messages.texts('error')[0], /^Den cannot open the link: the link names no session/);
    const missing = randomUUID();
    await den.api.uriHandler.handleUri(vscode.Uri.parse(`${base}/session/${missing}`));
    await waitFor('the second error', () => den.messages.shown.length === 2);
    assert.match(den.messages.shown[1].text, /open the linked session/i);
    assert.equal(den.api.panels.panel(missing), undefined);
  });

  it('a link whose session ID is malformed says it is not a session link, and asks the service nothing', async () => {
    // Issue 22 (7): it was sent to the service and reported "no longer exists (404)".
    const base = `${vscode.env.uriScheme}://${EXTENSION_ID}`;
    const before = den.emu.requests().length;
    for (const id of ['not-a-session', 'abc', '3f2a9c1e5b7d4e0f9a8b0c1d2e3f4a5b']) {
      await den.api.uriHandler.handleUri(vscode.Uri.parse(`${base}/session/${id}`));
    }
    await waitFor('the errors', () => den.messages.texts('error').length === 3);
    assert.deepEqual(den.messages.texts('error'), [
      'Den cannot open the link: it is not a session link (“not-a-session” is not a session ID, which is a UUID).',
      'Den cannot open the link: it is not a session link (“abc” is not a session ID, which is a UUID).',
      'Den cannot open the link: it is not a session link (“3f2a9c1e5b7d4e0f9a8b0c1d2e3f4a5b” is not a session ID, which is a UUID).',
    ]);
    assert.deepEqual(
      den.emu
        .requests()
        .slice(before)
        .filter((r) => /not-a-session|\/abc|3f2a9c1e5b7d/.test(r.url)),
      [],
      'a request about the link reached the service',
    );
    assert.equal(den.api.panels.panel('abc'), undefined);
  });
});
