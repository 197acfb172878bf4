/**
 * Attempts beyond the palette (issue 24, "Attempts"): a new session's composer sends its task as
 * attempts (the host checks the count), the attachments and their recorded bases go to every
 * attempt, the group is notified once, and the task's next turns go to the chosen attempt.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SessionPanel } from '../../src/editor/session-panel/session-panel';
import type { Turn } from '../../src/core/transcript/model';
import { waitFor } from '../support/wait';
import { root, spyOnRecordedBases, turnPaths, useApply } from './apply-helpers';
import { lastTurn, openPanel, turnEnded } from './panel-helpers';
import { replaceInputBox } from './message-helpers';

const TASK = 'Write a varied parser';
const SLUG = 'write-varied-parser';

describe('Attempts from the composer: attachments and bases for each, one notification, follow-ups to the chosen one', function () {
  this.timeout(90_000);
  let undo: (() => void)[] = [];
  // Declared before the fixture's: what the test replaced goes back before the fixture resets Den.
  afterEach(async () => {
    for (const u of undo.reverse()) u();
    undo = [];
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const api = fx.den.api;
    const ids = api.attempts.store.groups().flatMap((g) => g.attempts.map((a) => a.sessionId));
    await waitFor('the attempts’ hosts to be let go', () => ids.every((id) => !api.registry.host(id)));
    await forgetAll();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const fx = useApply();
  let dir: string;
  let rel: string;
  let file: vscode.Uri;
  let bases: ReturnType<typeof spyOnRecordedBases>;

  const forgetAll = async (): Promise<void> => {
    const store = fx.den.api.attempts.store;
    for (const g of [...store.groups()]) await store.remove(g.id);
  };

  beforeEach(async () => {
    await forgetAll();
    fx.made.push(...turnPaths(SLUG));
    dir = fs.mkdtempSync(path.join(root(), 'den-attempts-'));
    const p = path.join(dir, 'grammar.txt');
    fs.writeFileSync(p, 'expr := term (+ term)*\n');
    file = vscode.Uri.file(p);
    rel = path.relative(root(), p).split(path.sep).join('/');
    bases = spyOnRecordedBases(fx.den.api.registry);
    // The test window's focus cannot be set: attention asks this instead (nobody looks).
    const attention = fx.den.api.attention;
    const saved = attention.windowFocused;
    attention.windowFocused = () => false;
    undo = [() => bases.restore(), () => (attention.windowFocused = saved), () => attention.seen()];
  });

  /** A new session's panel (no turn yet) with `uri` attached to its composer. */
  async function newPanelWith(uri: vscode.Uri): Promise<SessionPanel> {
    const panel = await openPanel(fx.den.api, randomUUID(), { isNew: true });
    const counts = await panel.attach([uri]);
    assert.equal(counts?.uploaded, 1, fx.den.messages.texts().join(' | '));
    return panel;
  }

  /** The first turn of each attempt (read through a host that follows, or the service's history). */
  async function firstTurns(sessionIds: readonly string[]): Promise<Turn[]> {
    const api = fx.den.api;
    const out: Turn[] = [];
    for (const id of sessionIds) {
      const t = api.registry.transcriptOf(id) ?? (await api.registry.watch(id));
      out.push(t.turns[0]);
    }
    return out;
  }

  /** Waits for every attempt of the group to end. */
  async function groupEnded(groupId: string): Promise<void> {
    const store = fx.den.api.attempts.store;
    await waitFor(
      'the attempts to end',
      () => store.get(groupId)?.attempts.every((a) => a.state === 'completed'),
      { timeoutMs: 30_000 },
    ).catch(() => assert.fail(JSON.stringify(store.get(groupId))));
  }

  it('refuses a count outside 1–4, and attempts in a session that has turns, saying why', async () => {
    const panel = await newPanelWith(file);
    assert.equal(panel.host.view.composer().attempts, true, 'a new session’s composer offers attempts');
    for (const attempts of [7, 0, 2.5]) {
      await panel.handleMessage({
        type: 'send',
        text: TASK,
        mode: 'code',
        effort: 'fast',
        attempts,
        sendId: `s${attempts}`,
      });
      assert.match(panel.host.view.notice?.message ?? '', /whole number from 1 to 4/, String(attempts));
    }
    assert.equal(fx.den.api.attempts.store.groups().length, 0);
    assert.equal(panel.transcript.turns.length, 0, 'no turn started');
    // A send with 1 attempt is a plain turn; after it, attempts are refused in this session.
    await panel.handleMessage({
      type: 'send',
      text: 'answer in 5 events',
      mode: 'auto',
      effort: 'fast',
      attempts: 1,
    });
    await turnEnded(fx.den.api, lastTurn(panel));
    await panel.handleMessage({
      type: 'send',
      text: TASK,
      mode: 'code',
      effort: 'fast',
      attempts: 3,
      sendId: 'late',
    });
    assert.match(panel.host.view.notice?.message ?? '', /new session/);
    assert.equal(panel.host.view.composer().attempts, undefined, 'no more once the session has a turn');
    assert.equal(panel.transcript.turns.length, 1);
    assert.equal(fx.den.api.attempts.store.groups().length, 0);
  });

  it('sends a new session’s task as two attempts with the attached file, its base recorded for each, one notification for both', async () => {
    const api = fx.den.api;
    const panel = await newPanelWith(file);
    await panel.handleMessage({
      type: 'send',
      text: TASK,
      mode: 'code',
      effort: 'think',
      attempts: 2,
      sendId: 'a',
    });
    const [group] = api.attempts.store.groups();
    assert.ok(group, fx.den.messages.texts().join(' | '));
    assert.equal(group.task, TASK);
    assert.equal(group.effort, 'think');
    const ids = group.attempts.map((a) => a.sessionId);
    assert.equal(ids.length, 2);
    assert.equal(ids[0], panel.sessionId, 'the composer’s own session is the first attempt');
    // The composer's chip went with the first attempt's turn.
    assert.deepEqual(panel.host.view.composer().attachments, []);

    await groupEnded(group.id);
    const turns = await firstTurns(ids);
    for (const t of turns) {
      assert.equal(t.userMessage.text, TASK);
      assert.equal(t.userMessage.mode, 'code');
      assert.deepEqual(
        t.userMessage.files.map((f) => f.name),
        ['grammar.txt'],
      );
    }
    // Each session its own copy of the file.
    assert.notEqual(turns[0].userMessage.files[0].key, turns[1].userMessage.files[0].key);
    await waitFor('the file’s base recorded for each attempt', () =>
      ids.every((id) => bases.bySession.some(([s, p]) => s === id && p === rel)),
    ).catch(() => assert.fail(JSON.stringify(bases.bySession)));

    // One notification for the group, none per attempt.
    await waitFor('the group’s notification', () =>
      fx.den.messages.texts().some((t) => /2 attempts of/.test(t)),
    ).catch(() => assert.fail(fx.den.messages.texts().join(' | ')));
    const finished = fx.den.messages.texts().filter((t) => /finished/.test(t));
    assert.deepEqual(finished, [`Den: 2 attempts of “${TASK}” finished`]);
  });

  it('den.newSessionAttempts with attachments: every attempt carries them, each with its recorded base', async () => {
    const started = await vscode.commands.executeCommand<{ groupId: string; sessionIds: string[] }>(
      'den.newSessionAttempts',
      { task: TASK, attempts: 2, mode: 'code', attachments: [file] },
    );
    assert.ok(started, fx.den.messages.texts().join(' | '));
    await groupEnded(started.groupId);
    for (const t of await firstTurns(started.sessionIds))
      assert.deepEqual(
        t.userMessage.files.map((f) => f.name),
        ['grammar.txt'],
      );
    await waitFor('the file’s base recorded for each attempt', () =>
      started.sessionIds.every((id) => bases.bySession.some(([s, p]) => s === id && p === rel)),
    ).catch(() => assert.fail(JSON.stringify(bases.bySession)));
  });

  it('turns after the first go to the chosen attempt: Continue the Task, and a follow-up typed in another attempt', async () => {
    const api = fx.den.api;
    const started = await vscode.commands.executeCommand<{ groupId: string; sessionIds: string[] }>(
      'den.newSessionAttempts',
      { task: TASK, attempts: 2, mode: 'code' },
    );
    assert.ok(started);
    const [first, second] = started.sessionIds;
    await groupEnded(started.groupId);

    // None chosen yet: Continue asks which (the quick pick answered with the second), then the text.
    const picks = vscode.window as unknown as { showQuickPick: unknown };
    const savedPick = picks.showQuickPick;
    picks.showQuickPick = (items: readonly { row?: { sessionId: string } }[]) =>
      Promise.resolve(items.find((i) => i.row?.sessionId === second));
    undo.push(() => (picks.showQuickPick = savedPick));
    const box = replaceInputBox(() => 'answer in 5 events');
    undo.push(() => box.restore());
    const continued = await vscode.commands.executeCommand<string>('den.attempts.continue', started.groupId);
    assert.equal(continued, second);
    assert.equal(api.attempts.store.get(started.groupId)?.chosen, second);
    assert.equal(box.prompts.length, 1, 'the follow-up was asked');
    const chosenPanel = api.panels.panel(second);
    assert.ok(chosenPanel?.visible, 'the chosen attempt’s panel');
    await waitFor('the follow-up in the chosen attempt', () => chosenPanel.transcript.turns.length === 2);
    assert.equal(lastTurn(chosenPanel).userMessage.text, 'answer in 5 events');
    await turnEnded(api, lastTurn(chosenPanel));
    // Given as an argument: nothing asked.
    await vscode.commands.executeCommand('den.attempts.continue', started.groupId, 'answer in 3 events');
    await waitFor('the second follow-up', () => chosenPanel.transcript.turns.length === 3);
    assert.equal(box.prompts.length, 1);
    await turnEnded(api, lastTurn(chosenPanel));

    // A follow-up typed in the other attempt's panel: asked where it goes; the chosen one by default.
    const otherPanel = await openPanel(api, first);
    await waitFor('the other attempt’s history', () => otherPanel.host.loaded);
    const asked = fx.answer((a) => a.buttons[0], { notifications: true });
    await otherPanel.handleMessage({
      type: 'send',
      text: 'answer in 4 events',
      mode: 'auto',
      effort: 'fast',
      sendId: 'f1',
    });
    const question = asked.asked.find((a) => /chosen one/.test(a.text));
    assert.ok(question, JSON.stringify(asked.asked));
    assert.deepEqual(question.buttons, ['Send to the Chosen Attempt (2)', 'Send Here']);
    await waitFor('the follow-up in the chosen attempt', () => chosenPanel.transcript.turns.length === 4);
    assert.equal(lastTurn(chosenPanel).userMessage.text, 'answer in 4 events');
    assert.equal(otherPanel.transcript.turns.length, 1, 'nothing sent here');
    await turnEnded(api, lastTurn(chosenPanel));
    asked.restore();
    // Send Here: the other attempt's own turn.
    fx.answer((a) => a.buttons.find((b) => b === 'Send Here'), { notifications: true });
    await otherPanel.handleMessage({
      type: 'send',
      text: 'answer in 2 events',
      mode: 'auto',
      effort: 'fast',
      sendId: 'f2',
    });
    await waitFor('the turn here', () => otherPanel.transcript.turns.length === 2);
    assert.equal(lastTurn(otherPanel).userMessage.text, 'answer in 2 events');
    assert.equal(chosenPanel.transcript.turns.length, 4);
    await turnEnded(api, lastTurn(otherPanel));
  });
});
