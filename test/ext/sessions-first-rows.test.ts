/**
 * The Sessions tree's root as VS Code asks for it: the rows wait for the key and the first page, not
 * for the view's context keys (each a round trip to the workbench), and the tree settles in one draw:
 * what changes while the view waits for the root is drawn with its rows, not in a redraw after them
 * (docs/benchmarks.md, "Issue 26: the Sessions tree's first row").
 */
import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { silentLogger } from '../../src/core/shared/log';
import { SessionsTreeProvider } from '../../src/editor/sessions-view/sessions-tree';
import type { SessionNode } from '../../src/editor/sessions-view/tree-nodes';
import type { IdStorage } from '../../src/model/sessions-list/recent-ids';
import { waitFor } from '../support/wait';
import { useDen } from './fixtures';

type ExecuteFn = (command: string, ...rest: unknown[]) => Thenable<unknown>;

/**
 * Holds every `setContext` until `release`: none is answered, and none reaches the workbench (a
 * second provider's keys must not change the window's own view).
 */
function holdSetContext(): { asked(): string[]; release(): void } {
  const commands = vscode.commands as unknown as { executeCommand: ExecuteFn };
  const saved = commands.executeCommand;
  const asked: string[] = [];
  const waiting: (() => void)[] = [];
  commands.executeCommand = (command, ...rest) => {
    if (command !== 'setContext') return saved.call(vscode.commands, command, ...rest);
    asked.push(String(rest[0]));
    return new Promise<undefined>((resolve) => waiting.push(() => resolve(undefined)));
  };
  return {
    asked: () => [...asked],
    release: () => {
      commands.executeCommand = saved;
      for (const answer of waiting.splice(0)) answer();
    },
  };
}

/** A workspace storage in memory, showing All Sessions (the emulator's sessions were not started here). */
function allSessions(): IdStorage {
  const values = new Map<string, unknown>([['den.sessions.showAll', true]]);
  return { get: (k) => values.get(k), update: async (k, v) => void values.set(k, v) };
}

describe('Sessions tree: the root’s first rows', () => {
  const den = useDen();

  it('lists the rows before any context key is answered, with no redraw after them; an empty root waits for its keys', async () => {
    const held = holdSetContext();
    const tree = new SessionsTreeProvider(den.api.connection, silentLogger, allSessions());
    let rootRedraws = 0;
    const counting = tree.onDidChangeTreeData((e) => {
      if (e === undefined) rootRedraws++;
    });
    try {
      // VS Code asks for the root as it first shows the view; the first page's outcome (its keys
      // and all) comes while it waits.
      let listed: SessionNode[] | undefined;
      void tree.getChildren().then((r) => (listed = r));
      const rows = await waitFor('the root’s rows, every setContext unanswered', () => listed);
      assert.ok(rows.length > 0, 'the seeded sessions are listed');
      assert.ok(
        held.asked().includes('den.sessionsEmpty'),
        `the view asked for its keys (${held.asked().join(', ')})`,
      );
      assert.equal(rootRedraws, 0, 'the outcome came while the view waited: drawn with its rows, no redraw');

      // A search nothing matches: the reset redraws once, and the empty root waits for the keys
      // that pick its welcome.
      tree.model.setFilter('no session has this title');
      tree.model.reset();
      assert.equal(rootRedraws, 1, 'the reset redraws the root');
      let empty: SessionNode[] | undefined;
      void tree.getChildren().then((r) => (empty = r));
      await tree.model.ensureLoaded();
      assert.equal(tree.model.sessions.length, 0);
      await new Promise<void>((r) => setImmediate(r));
      assert.equal(empty, undefined, 'an empty root is listed once its keys are set');
      held.release();
      assert.deepEqual(await waitFor('the empty root', () => empty), []);
      assert.equal(rootRedraws, 1, 'no second redraw of the same root');
    } finally {
      held.release();
      counting.dispose();
      tree.dispose();
    }
  });
});
