/** The apply commands' test fixture: Den's messages answered, the agent's files seeded, the workspace cleaned. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import type { SessionRegistryDeps } from '../../src/model/session/session-registry';
import { useDen } from './fixtures';
import { answerMessages, type Asked } from './message-helpers';

export function root(): string {
  const r = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  assert.ok(r, 'the test window has no workspace folder');
  return r;
}

/** The files a seeded coding turn with `task` writes (see test/emulator/scripts.ts). */
export function turnPaths(slug: string): string[] {
  return [`src/${slug}.ts`, `test/${slug}.test.ts`];
}

/** Inside a `describe`: a signed-in Den, answers that are undone and files that are removed after each test. */
export function useApply() {
  const den = useDen();
  const made: string[] = [];
  let answers: ReturnType<typeof answerMessages> | undefined;

  afterEach(async () => {
    answers?.restore();
    answers = undefined;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const p of made.splice(0)) fs.rmSync(path.join(root(), p), { force: true });
    for (const d of ['src', 'test']) {
      const dir = path.join(root(), d);
      if (fs.existsSync(dir) && fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
    }
  });

  /** Seeds a completed coding turn and answers its session id, agent message id and file bytes. */
  async function seeded(task: string, slug: string) {
    const sessionId = randomUUID();
    const { agentMessageId } = den.emu.seedTurn(sessionId, task, 'code');
    made.push(...turnPaths(slug));
    const bytes = async (p: string): Promise<Buffer> => {
      const res = await fetch(`${den.emu.url}/media/${sessionId}/${p}`, {
        headers: { authorization: `Bearer ${den.emu.keys.primary}` },
      });
      assert.equal(res.status, 200, `media of ${p}`);
      return Buffer.from(await res.arrayBuffer());
    };
    return { sessionId, agentMessageId, bytes };
  }

  return {
    den,
    made,
    seeded,
    /** Answers Den's messages with `choose` until the test ends. */
    answer(
      choose: (a: Asked) => string | undefined,
      options?: Parameters<typeof answerMessages>[1],
    ): ReturnType<typeof answerMessages> {
      answers = answerMessages(choose, options);
      return answers;
    },
  };
}

/**
 * Spies on the bases Den records (after a turn starts, without waiting): `recorded` lists their
 * paths as they are written (`bySession`: with their sessions); `restore` puts the registry's own
 * recorder back.
 */
export function spyOnRecordedBases(registry: unknown): {
  recorded: string[];
  bySession: [sessionId: string, path: string][];
  restore(): void;
} {
  const deps = (registry as { deps: SessionRegistryDeps }).deps;
  const real = deps.recordBase;
  assert.ok(real, 'the session registry records no bases: update this test');
  const recorded: string[] = [];
  const bySession: [string, string][] = [];
  deps.recordBase = async (sessionId, p, content) => {
    const r = await real(sessionId, p, content);
    recorded.push(p);
    bySession.push([sessionId, p]);
    return r;
  };
  return { recorded, bySession, restore: () => (deps.recordBase = real) };
}
