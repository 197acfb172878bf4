import * as vscode from 'vscode';
import type { ApiClient } from '../../core/client/client';
import type { Session } from '../../core/client/types';
import type { Logger } from '../../core/shared/log';
import type { RunningTurn } from '../../model/session/running-turn';
import { firstLine, relativeTime } from '../../core/shared/format';
import { l10n } from '../../core/shared/l10n';

/** Recent sessions offered after "New session". */
const RECENT = 30;

/** What the pick returns: a new session, or an existing one's id. */
export type SessionChoice = { kind: 'new' } | { kind: 'existing'; sessionId: string; title: string };

interface ChoiceItem extends vscode.QuickPickItem {
  choice?: SessionChoice;
}

/** Where the choice's data comes from. */
export interface SessionChoiceDeps {
  /** Sessions the Sessions view has loaded. */
  loaded: readonly Session[];
  running: readonly RunningTurn[];
  /** Used when the view has loaded nothing yet. */
  client: Pick<ApiClient, 'listSessions'>;
  logger?: Logger;
  /** The words of the pick, when it is not about starting a turn. */
  prompt?: ChoicePrompt;
}

/** The title and words of the session pick. */
export interface ChoicePrompt {
  title: string;
  placeHolder: string;
  /** What "New session" does. */
  newDescription: string;
}

/** The words of the pick that starts a turn (looked up when asked: the bundle is set at activation). */
const turnPrompt = (): ChoicePrompt => ({
  title: l10n.t('Den: start the turn in…'),
  placeHolder: l10n.t('A new session, or a session to continue'),
  newDescription: l10n.t('start a new session with this turn'),
});

/**
 * The quick pick items: "New session" first, then sessions with a running turn (marked), then
 * the most recently updated ones.
 */
export function choiceItems(
  sessions: readonly Session[],
  running: readonly RunningTurn[],
  newDescription = turnPrompt().newDescription,
): ChoiceItem[] {
  const runningIds = new Map(running.map((r) => [r.sessionId, r]));
  const items: ChoiceItem[] = [
    {
      label: l10n.t('$(add) New session'),
      description: newDescription,
      alwaysShow: true,
      choice: { kind: 'new' },
    },
  ];
  const known = new Set<string>();
  const recent = sessions
    .filter((s) => !s.deleted)
    .slice()
    .sort((a, b) => b.updatedAt - a.updatedAt);
  const ordered = [...recent.filter((s) => runningIds.has(s.sessionId)), ...recent];
  const rows: ChoiceItem[] = [];
  // Running turns of sessions the list does not have yet (e.g. created a moment ago).
  for (const r of running) {
    if (recent.some((s) => s.sessionId === r.sessionId) || known.has(r.sessionId)) continue;
    known.add(r.sessionId);
    rows.push(row(r.sessionId, r.title || firstLine(r.task, 60), undefined, true));
  }
  for (const s of ordered) {
    if (known.has(s.sessionId) || rows.length >= RECENT) continue;
    known.add(s.sessionId);
    rows.push(row(s.sessionId, s.title, s.updatedAt, runningIds.has(s.sessionId)));
  }
  if (rows.length)
    items.push({ label: l10n.t('Continue a session'), kind: vscode.QuickPickItemKind.Separator });
  return [...items, ...rows];
}

function row(sessionId: string, title: string, updatedAt: number | undefined, running: boolean): ChoiceItem {
  const label = title || l10n.t('Untitled session');
  const when = updatedAt !== undefined ? relativeTime(updatedAt) : '';
  return {
    label: running ? `$(sync~spin) ${label}` : label,
    description: running
      ? [l10n.t('turn running: this one queues after it'), when].filter(Boolean).join(' · ')
      : when,
    choice: { kind: 'existing', sessionId, title: label },
  };
}

/** Asks whether to start a new session or continue one; undefined when dismissed. */
export async function chooseSession(deps: SessionChoiceDeps): Promise<SessionChoice | undefined> {
  const prompt = deps.prompt ?? turnPrompt();
  const items = (async (): Promise<ChoiceItem[]> => {
    let sessions = deps.loaded;
    if (!sessions.length) {
      try {
        const page = await deps.client.listSessions({ limit: RECENT, sort: 'updatedAt', order: 'desc' });
        sessions = page.sessions;
      } catch (err) {
        // Still offer a new session: the list is a convenience here.
        deps.logger?.warn(`Listing sessions for the session pick failed: ${String(err)}`);
      }
    }
    return choiceItems(sessions, deps.running, prompt.newDescription);
  })();
  const picked = await vscode.window.showQuickPick(items, {
    title: prompt.title,
    placeHolder: prompt.placeHolder,
    matchOnDescription: true,
  });
  return picked?.choice;
}
