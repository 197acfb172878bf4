/**
 * Den's public extension API (`src/editor/api/types.ts`, docs/api.md), as another extension uses it:
 * `vscode.extensions.getExtension('den-dev.den').exports`.
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { DenExtensionApi, DenTurnSnapshot } from '../../src/editor/api/types';
import { waitFor } from '../support/wait';
import { EXTENSION_ID } from './den-api';
import { emuFetch } from './emulator-helpers';
import { useDen } from './fixtures';
import { settleKeyChange } from './sign-in-helpers';

/** The exports exactly as another extension sees them. */
function publicApi(): DenExtensionApi {
  const ext = vscode.extensions.getExtension<DenExtensionApi>(EXTENSION_ID);
  assert.ok(ext?.isActive, 'Den is active');
  return ext.exports;
}

/** Every snapshot of a turn until it ends. */
function snapshotsUntilEnd(api: DenExtensionApi, ref: { sessionId: string; agentMessageId: string }) {
  const seen: DenTurnSnapshot[] = [];
  let sub: vscode.Disposable | undefined;
  const ended = new Promise<DenTurnSnapshot>((resolve) => {
    sub = api.followTurn(ref, (s) => {
      seen.push(s);
      if (!['queued', 'running'].includes(s.status)) resolve(s);
    });
  });
  return { seen, ended, dispose: () => sub?.dispose() };
}

function tempDir(): string {
  const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(root, 'the test window has a workspace folder');
  return fs.mkdtempSync(path.join(root, 'den-api-'));
}

describe('Public API', () => {
  const den = useDen();

  it('is typed and versioned: startTurn, followTurn, getSession, stopTurn, answerTurn, openSession, reviewChanges, runWebTask, onDidChangeSession', () => {
    const api = publicApi();
    assert.equal(api.apiVersion, 1);
    for (const fn of [
      'startTurn',
      'followTurn',
      'getSession',
      'stopTurn',
      'answerTurn',
      'openSession',
      'reviewChanges',
      'runWebTask',
    ])
      assert.equal(typeof (api as unknown as Record<string, unknown>)[fn], 'function', fn);
    assert.equal(typeof api.onDidChangeSession, 'function');
  });

  it('the public API answers a waiting turn (answerTurn) and says false once it no longer waits', async () => {
    const api = publicApi();
    const ref = await api.startTurn({ task: 'ask me a name', mode: 'code' });
    await waitFor('the question', async () => (await api.getSession(ref.sessionId)).turns.at(-1)?.needsInput);
    const snap = (await api.getSession(ref.sessionId)).turns.at(-1);
    assert.equal(snap?.asks, 'reply');
    assert.equal(await api.answerTurn(ref, { kind: 'reply', text: 'parser-v2' }), true);
    await waitFor(
      'the end',
      async () => (await api.getSession(ref.sessionId)).turns.at(-1)?.status === 'completed',
    );
    assert.equal(await api.answerTurn(ref, { kind: 'reply', text: 'again' }), false);
    await assert.rejects(api.answerTurn(ref, { kind: 'reply', text: ' ' }), /Den: say what to answer/);
  });

  it('starts a headless turn in a new session and follows it to completed: answer, tools and files, no panel', async () => {
    const api = publicApi();
    const ref = await api.startTurn({ task: 'Add a slugify helper', mode: 'code' });
    assert.match(ref.sessionId, /^[0-9a-f-]{36}$/);
    const follow = snapshotsUntilEnd(api, ref);
    const last = await follow.ended;
    follow.dispose();
    assert.equal(last.status, 'completed');
    assert.equal(last.task, 'Add a slugify helper');
    assert.equal(last.mode, 'code');
    assert.ok(last.answer.length > 0, 'an answer');
    assert.ok(
      last.tools.length > 0 && last.tools.every((t) => t.status !== 'running'),
      JSON.stringify(last.tools),
    );
    assert.ok(
      last.files.some((f) => f.kind === 'added'),
      JSON.stringify(last.files),
    );
    // The answer grew: more than one snapshot, each answer a prefix of the next.
    assert.ok(follow.seen.length > 1);
    for (let i = 1; i < follow.seen.length; i++)
      assert.ok(follow.seen[i].answer.startsWith(follow.seen[i - 1].answer));
    assert.equal(den.api.panels.panel(ref.sessionId), undefined, 'no panel was opened');
    // The service has it.
    const { body } = await emuFetch(den.emu, `/sessions/${ref.sessionId}`);
    assert.equal((body.messages as { content?: string }[])[0].content, 'Add a slugify helper');
  });

  it('attaches a file and a range, then continues the same session', async () => {
    const api = publicApi();
    const dir = tempDir();
    try {
      const file = path.join(dir, 'calc.ts');
      fs.writeFileSync(file, 'export const a = 1;\nexport const b = 2;\nexport const c = 3;\n');
      const uri = vscode.Uri.file(file);
      const ref = await api.startTurn({
        task: 'Review this',
        files: [uri, new vscode.Location(uri, new vscode.Range(1, 0, 1, 19))],
      });
      await snapshotsUntilEnd(api, ref).ended;
      const { body } = await emuFetch(den.emu, `/sessions/${ref.sessionId}`);
      const user = (body.messages as { type: string; files: { name: string }[] }[]).find(
        (m) => m.type === 'user',
      );
      assert.deepEqual(user?.files.map((f) => f.name).sort(), ['calc-L2.ts', 'calc.ts']);

      const next = await api.startTurn({ task: 'Now add tests', sessionId: ref.sessionId });
      assert.equal(next.sessionId, ref.sessionId);
      assert.notEqual(next.agentMessageId, ref.agentMessageId);
      await snapshotsUntilEnd(api, next).ended;
      const session = await api.getSession(ref.sessionId);
      assert.deepEqual(
        session.turns.map((t) => t.task),
        ['Review this', 'Now add tests'],
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports a failed turn with its error, and reads a session it does not hold from the service', async () => {
    const api = publicApi();
    const ref = await api.startTurn({ task: 'Please fail this one' });
    const last = await snapshotsUntilEnd(api, ref).ended;
    assert.equal(last.status, 'error');
    assert.ok(last.error, 'the error message');
    // A session created elsewhere (on the service directly): read from GET /sessions/{id}.
    const listed = await emuFetch(den.emu, '/sessions');
    const other = (listed.body.sessions as { sessionId?: string; id?: string }[])[0];
    const otherId = (other.sessionId ?? other.id) as string;
    assert.equal(den.api.registry.transcriptOf(otherId), undefined);
    const s = await api.getSession(otherId);
    assert.equal(s.sessionId, otherId);
    assert.ok(s.turns.length > 0 && s.title.length > 0);
  });

  it('follows a turn Den did not start (started on the service directly) live, from its history to its end', async () => {
    const api = publicApi();
    const sessionId = '5f0c7c1e-2b7a-4d55-9a57-0c7d3f1e9b21';
    const { status, body } = await emuFetch(den.emu, '/sessions/new', {
      method: 'POST',
      body: JSON.stringify({ session_id: sessionId, task: 'A slow coding task' }),
    });
    assert.equal(status, 200, JSON.stringify(body));
    const agentMessageId = body.agent_message_id as string;
    assert.equal(den.api.registry.transcriptOf(sessionId), undefined, 'Den holds nothing of it');
    const follow = snapshotsUntilEnd(api, { sessionId, agentMessageId });
    const last = await follow.ended;
    follow.dispose();
    assert.equal(last.status, 'completed');
    assert.equal(last.task, 'A slow coding task');
    assert.ok(last.answer.length > 0 && last.files.length > 0);
    assert.ok(follow.seen.length > 2, `followed live, not only read: ${follow.seen.map((x) => x.status)}`);
  });

  it('stops a running turn: followers see it end aborted', async () => {
    const api = publicApi();
    const ref = await api.startTurn({ task: 'A slow long answer' });
    const follow = snapshotsUntilEnd(api, ref);
    await waitFor('the turn to run', () => follow.seen.some((s) => s.status === 'running'));
    assert.equal(await api.stopTurn(ref.sessionId), true);
    assert.equal((await follow.ended).status, 'aborted');
    assert.equal(await api.stopTurn(ref.sessionId), false, 'nothing left to stop');
  });

  it('refuses an empty task, and says what to do when signed out, without the key', async () => {
    const api = publicApi();
    await assert.rejects(api.startTurn({ task: '  ' }), /the task is empty/);
    await settleKeyChange(den.api, () => den.api.keys.clear());
    const err = await api.startTurn({ task: 'Anything' }).then(
      () => undefined,
      (e: Error) => e,
    );
    assert.ok(err instanceof Error, 'rejected');
    assert.match(err.message, /^Den: .*(API key|sign in|Sign in)/i);
    assert.ok(!err.message.includes(den.emu.keys.primary));
  });

  it('a turn someone follows (as @den does) is looked at: it ends without a notification or an unseen count', async () => {
    const api = publicApi();
    const saved = den.api.attention.windowFocused;
    den.api.attention.windowFocused = () => true;
    const ended: string[] = [];
    const sub = api.onDidChangeSession((e) => ended.push(e.kind));
    try {
      const ref = await api.startTurn({ task: 'Add a slugify helper' });
      assert.equal((await snapshotsUntilEnd(api, ref).ended).status, 'completed');
      await waitFor('the completed event', () => ended.includes('completed'));
      assert.deepEqual(den.messages.texts(), []);
      assert.equal(den.api.attention.unseenCount, 0);
    } finally {
      sub.dispose();
      den.api.attention.windowFocused = saved;
    }
  });

  it('runs a web task and resolves with its records and schema problems', async () => {
    const api = publicApi();
    const r = await api.runWebTask({
      appUrl: 'https://shop.example.com',
      query: 'list products with gaps',
      schema: { name: 'the product name', price: 'the price in USD' },
      maxCount: 4,
    });
    assert.equal(r.status, 'DONE');
    assert.equal(r.records.length, 4);
    assert.ok(
      Object.values(r.problems).some((n) => n > 0),
      JSON.stringify(r.problems),
    );
    await assert.rejects(
      api.runWebTask({ appUrl: 'shop.example.com', query: 'x', schema: { a: 'b' } }),
      /not valid.*appUrl/,
    );
  });
});
