/**
 * The context keys Den sets (`setContext`) and the Sessions view's welcome content they pick, which
 * VS Code does not let an extension read back: recorded here, and its `when` clauses read the way
 * VS Code reads them.
 */
import * as vscode from 'vscode';
import { denManifest } from './den-api';

/** The context keys Den set (`setContext`) while tracked; `restore` stops tracking. */
export interface ContextTracker {
  get(key: string): unknown;
  /** Every `setContext` call while tracked, in the order Den made them. */
  history(): [key: string, value: unknown][];
  restore(): void;
}

type ExecuteFn = (command: string, ...rest: unknown[]) => Thenable<unknown>;

/**
 * Records `setContext` calls (they drive the view's welcome content, which VS Code does not let
 * an extension read back) and passes every command through unchanged.
 */
export function trackContext(): ContextTracker {
  const commands = vscode.commands as unknown as { executeCommand: ExecuteFn };
  const saved = commands.executeCommand;
  const values = new Map<string, unknown>();
  const calls: [string, unknown][] = [];
  commands.executeCommand = (command, ...rest) => {
    if (command === 'setContext') {
      values.set(String(rest[0]), rest[1]);
      calls.push([String(rest[0]), rest[1]]);
    }
    return saved.call(vscode.commands, command, ...rest);
  };
  return {
    get: (key) => values.get(key),
    history: () => [...calls],
    restore: () => {
      commands.executeCommand = saved;
    },
  };
}

/** A `viewsWelcome` entry of package.json. */
export interface WelcomeEntry {
  view: string;
  contents: string;
  when: string;
}

/** The Sessions view's welcome entries, as package.json contributes them. */
export function sessionsWelcomes(): WelcomeEntry[] {
  const manifest = denManifest<{ contributes: { viewsWelcome: WelcomeEntry[] } }>();
  return manifest.contributes.viewsWelcome.filter((w) => w.view === 'den.sessions');
}

/**
 * Whether a `when` clause holds for these context values, as VS Code reads the forms Den uses:
 * keys, `!key`, `&&` and `||` (an unset key is false). Anything else throws, so a clause this
 * cannot read fails the test instead of passing it.
 */
export function whenHolds(when: string, context: ReadonlyMap<string, unknown>): boolean {
  return when.split('||').some((alt) =>
    alt.split('&&').every((raw) => {
      const term = raw.trim();
      const m = /^(!?)([A-Za-z][\w.]*)$/.exec(term);
      if (!m) throw new Error(`whenHolds cannot read "${term}" in "${when}"`);
      return m[1] ? !context.get(m[2]) : !!context.get(m[2]);
    }),
  );
}
