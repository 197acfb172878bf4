/**
 * The attempts' commands (`docs/commands.md`). Each takes an Attempts view row or a session id and
 * asks for what is missing; failures are shown, never thrown.
 *
 * - `den.newSessionAttempts(options?: { task?, attempts?, mode?, effort?, attachments? })`: the task
 *   run as 2–4 new sessions started together, each carrying the attachments (its own copy, with the
 *   workspace files' bases recorded); resolves to `{ groupId, sessionIds }`.
 * - `den.attempts.open(attempt)`: the attempt's Session panel.
 * - `den.attempts.review(attempt)`: Review Changes of the attempt's files (`den.reviewSession`).
 * - `den.attempts.apply(attempt, options?)`: Apply this attempt (`den.applySession`, options passed
 *   on); once something is written, the attempt is the chosen one. Resolves to the `ApplyResult`.
 * - `den.attempts.choose(attempt)`: marks the attempt chosen without applying.
 * - `den.attempts.archiveOthers(attempt)`: archives the group's other sessions (`den.archiveSession`);
 *   resolves to their ids.
 * - `den.attempts.compareWith(file | { sessionId, path }, otherSessionId?)`: the file of one attempt
 *   beside the same file of another (asked in a quick pick); resolves to the other session id.
 * - `den.attempts.continue(group?, text?)`: the task's next turn (`text`, else asked) sent to the
 *   chosen attempt (asked, and marked chosen, when none is), in its panel; resolves to its session id.
 * - `den.attempts.forget(group?)`: removes the group from the view (its sessions stay).
 */
import * as vscode from 'vscode';
import { DenError } from '../../core/client/errors';
import { EFFORTS, MODES, type Effort, type Mode } from '../../core/client/types';
import { firstLine } from '../../core/shared/format';
import { formatCount, l10n } from '../../core/shared/l10n';
import { rowDescription, rowLabel, type AttemptRow } from '../../model/attempts/attempt-rows';
import { MAX_ATTEMPTS, MIN_ATTEMPTS, type AttemptGroup } from '../../model/attempts/attempt-store';
import type { ApplyResult } from '../apply/apply-command';
import { uploadForAttempt } from '../../model/attempts/attempt-uploads';
import type { TurnRequest } from '../../model/session/turn-request';
import { attachSources } from '../attachments/attach';
import { collectSources, type SizedSource } from '../attachments/attach-collect';
import { guarded } from '../commands/guarded';
import { askTask } from '../commands/turn-commands';
import type { Connection } from '../platform/connection';
import { sessionFileUri } from '../session-files/session-fs';
import type { Attempts } from './attempts';
import type { AttemptNode, AttemptsTreeProvider } from './attempts-tree';

/** `den.newSessionAttempts`'s options; each left out is asked (mode and effort: the settings'). */
export interface NewAttemptsOptions {
  task?: string;
  attempts?: number;
  mode?: Mode;
  effort?: Effort;
  /**
   * Files and folders to attach (URIs, or their strings): every attempt's first turn carries them,
   * each session uploading its own copy, with the workspace files' bases recorded for each.
   */
  attachments?: readonly (vscode.Uri | string)[];
}

interface Deps {
  connection: Connection;
  attempts: Attempts;
  tree: AttemptsTreeProvider;
  /** Opens a session's panel; with `turn`, starts that turn in it. */
  open(sessionId: string, turn?: TurnRequest): Promise<void>;
}

type AttemptArg = AttemptNode | string | undefined;

export function registerAttemptCommands(deps: Deps): vscode.Disposable[] {
  const { attempts, tree } = deps;
  const store = attempts.store;
  const register = <A extends unknown[], R>(id: string, doing: string, fn: (...a: A) => Promise<R>) =>
    vscode.commands.registerCommand(id, guarded(doing, fn));

  /** The attempt a row or id names (an attempt of some group), else one picked from every group. */
  const attemptOf = async (
    arg: AttemptArg,
    title: string,
  ): Promise<{ group: AttemptGroup; row: AttemptRow } | undefined> => {
    const id = typeof arg === 'string' ? arg : arg && arg.kind !== 'group' ? arg.sessionId : undefined;
    const groups = id
      ? [store.groupOf(id)?.group].filter((g): g is AttemptGroup => g !== undefined)
      : typeof arg === 'object' && arg.kind === 'group'
        ? [store.get(arg.groupId)].filter((g): g is AttemptGroup => g !== undefined)
        : store.groups();
    const items = groups.flatMap((group) =>
      tree
        .rows(group.id)
        .filter((row) => !id || row.sessionId === id)
        .map((row) => ({
          label: rowLabel(row),
          description: rowDescription(row),
          detail: firstLine(group.task),
          group,
          row,
        })),
    );
    if (items.length <= 1) {
      if (!items.length)
        void vscode.window.showInformationMessage(
          id ? l10n.t('Den: that session is not an attempt.') : l10n.t('Den: there are no attempts yet.'),
        );
      return items[0];
    }
    return vscode.window.showQuickPick(items, { title, matchOnDescription: true, matchOnDetail: true });
  };

  const groupOf = async (arg: AttemptArg, title: string): Promise<AttemptGroup | undefined> => {
    if (typeof arg === 'object') return store.get(arg.groupId);
    if (typeof arg === 'string') return store.get(arg) ?? store.groupOf(arg)?.group;
    const groups = store.groups();
    if (groups.length <= 1) {
      if (!groups.length)
        void vscode.window.showInformationMessage(l10n.t('Den: there are no attempts yet.'));
      return groups[0];
    }
    const picked = await vscode.window.showQuickPick(
      groups.map((g) => ({
        label: firstLine(g.task),
        description: l10n.t('{0} attempts', formatCount(g.attempts.length)),
        group: g,
      })),
      { title },
    );
    return picked?.group;
  };

  return [
    register(
      'den.newSessionAttempts',
      l10n.t('start the attempts'),
      async (
        options?: NewAttemptsOptions,
      ): Promise<{ groupId: string; sessionIds: string[] } | undefined> => {
        const o = options ?? {};
        if (o.mode !== undefined && !MODES.includes(o.mode))
          throw badRequest(l10n.t('unknown mode {0}.', String(o.mode)));
        if (o.effort !== undefined && !EFFORTS.includes(o.effort))
          throw badRequest(l10n.t('unknown effort {0}.', String(o.effort)));
        await deps.connection.ready;
        deps.connection.requireClient();
        const task = await askTask(o.task, {
          title: l10n.t('Den: New Session as Attempts'),
          placeHolder: l10n.t('What should the agent do?'),
        });
        if (task === undefined) return undefined;
        const n = o.attempts ?? (await askCount());
        if (n === undefined) return undefined;
        if (!Number.isInteger(n) || n < MIN_ATTEMPTS || n > MAX_ATTEMPTS)
          throw badRequest(
            l10n.t('the attempts must be {0} to {1}.', formatCount(MIN_ATTEMPTS), formatCount(MAX_ATTEMPTS)),
          );
        const s = deps.connection.settings;
        if (o.attachments !== undefined && !Array.isArray(o.attachments))
          throw badRequest(l10n.t('the attachments must be URIs.'));
        const items = o.attachments?.length
          ? await attachmentSources(o.attachments, s.maxAttachmentBytes)
          : [];
        if (!items) return undefined;
        const client = deps.connection.requireClient();
        const group = await attempts.start({
          task,
          attempts: n,
          mode: o.mode ?? s.defaultMode,
          effort: o.effort ?? s.defaultEffort,
          ...(items.length
            ? {
                turnFor: (sessionId: string) =>
                  uploadForAttempt((list) =>
                    attachSources(
                      client,
                      { sessionId, attach: (spec) => list.add(spec), attachmentNames: () => list.names() },
                      items,
                    ),
                  ),
              }
            : {}),
        });
        attempts.warnFailed(group);
        return { groupId: group.id, sessionIds: group.attempts.map((a) => a.sessionId) };
      },
    ),

    register('den.attempts.open', l10n.t('open the attempt'), async (arg?: AttemptArg) => {
      const a = await attemptOf(arg, l10n.t('Den: Open Attempt'));
      if (a) await deps.open(a.row.sessionId);
      return a?.row.sessionId;
    }),

    register('den.attempts.review', l10n.t('review the attempt'), async (arg?: AttemptArg) => {
      const a = await attemptOf(arg, l10n.t('Den: Review Attempt'));
      return a && vscode.commands.executeCommand('den.reviewSession', a.row.sessionId);
    }),

    register(
      'den.attempts.apply',
      l10n.t('apply the attempt'),
      async (arg?: AttemptArg, options?: Record<string, unknown>): Promise<ApplyResult | undefined> => {
        const a = await attemptOf(arg, l10n.t('Den: Apply This Attempt'));
        if (!a) return undefined;
        const r = await vscode.commands.executeCommand<ApplyResult | undefined>(
          'den.applySession',
          a.row.sessionId,
          ...(options ? [options] : []),
        );
        if (r?.written.length) await store.choose(a.row.sessionId);
        return r;
      },
    ),

    register('den.attempts.choose', l10n.t('choose the attempt'), async (arg?: AttemptArg) => {
      const a = await attemptOf(arg, l10n.t('Den: Choose Attempt'));
      if (a) await store.choose(a.row.sessionId);
      return a?.row.sessionId;
    }),

    register('den.attempts.archiveOthers', l10n.t('archive the other attempts'), async (arg?: AttemptArg) => {
      const a = await attemptOf(arg, l10n.t('Den: Archive the Other Attempts'));
      if (!a) return undefined;
      const others = a.group.attempts.map((x) => x.sessionId).filter((id) => id !== a.row.sessionId);
      for (const id of others) await vscode.commands.executeCommand('den.archiveSession', id);
      vscode.window.setStatusBarMessage(
        others.length === 1
          ? l10n.t('Den: 1 other attempt archived')
          : l10n.t('Den: {0} other attempts archived', formatCount(others.length)),
        4000,
      );
      return others;
    }),

    register(
      'den.attempts.compareWith',
      l10n.t('compare the attempts'),
      async (arg?: AttemptNode | { sessionId: string; path: string }, otherId?: string) => {
        const file = arg && 'path' in arg ? { sessionId: arg.sessionId, path: arg.path } : undefined;
        if (!file) {
          void vscode.window.showInformationMessage(
            l10n.t('Den: choose a file of an attempt in the Attempts view, then Compare with Attempt…'),
          );
          return undefined;
        }
        const group = store.groupOf(file.sessionId)?.group;
        if (!group) return undefined;
        const rows = tree.rows(group.id);
        const others = rows.filter((r) => r.sessionId !== file.sessionId);
        const other =
          (otherId && others.find((r) => r.sessionId === otherId)) ||
          (
            await vscode.window.showQuickPick(
              others.map((r) => ({ label: rowLabel(r), description: rowDescription(r), row: r })),
              { title: l10n.t('Den: Compare {0} with Attempt…', file.path) },
            )
          )?.row;
        if (!other) return undefined;
        if (other.files && !other.files.some((f) => f.path === file.path)) {
          void vscode.window.showInformationMessage(
            l10n.t('Den: {0} has no {1}.', rowLabel(other), file.path),
          );
          return undefined;
        }
        const mine = rows.find((r) => r.sessionId === file.sessionId);
        const name = file.path.split('/').pop() ?? file.path;
        await vscode.commands.executeCommand(
          'vscode.diff',
          sessionFileUri(other.sessionId, file.path),
          sessionFileUri(file.sessionId, file.path),
          l10n.t('{0} ({1} ↔ {2})', name, rowLabel(other), mine ? rowLabel(mine) : ''),
        );
        return other.sessionId;
      },
    ),

    register(
      'den.attempts.continue',
      l10n.t('continue the task'),
      async (arg?: AttemptArg, text?: string): Promise<string | undefined> => {
        if (text !== undefined && typeof text !== 'string') throw badRequest(l10n.t('the task is empty.'));
        const group = await groupOf(arg, l10n.t('Den: Continue the Task'));
        if (!group) return undefined;
        let chosen = group.chosen;
        if (!chosen) {
          const a = await attemptOf(
            { kind: 'group', groupId: group.id },
            l10n.t('Den: Choose the Attempt to Go On With'),
          );
          if (!a) return undefined;
          chosen = a.row.sessionId;
          await store.choose(chosen);
        }
        const number = group.attempts.findIndex((a) => a.sessionId === chosen) + 1;
        const task = await askTask(text, {
          title: l10n.t('Den: Continue the Task in Attempt {0}', formatCount(number)),
          placeHolder: l10n.t('What should the agent do next?'),
        });
        if (task === undefined) return undefined;
        // The chosen attempt's own mode and fast/think (its composer's) carry the follow-up.
        await deps.open(chosen, { task });
        return chosen;
      },
    ),

    register('den.attempts.forget', l10n.t('remove the attempts from the view'), async (arg?: AttemptArg) => {
      const group = await groupOf(arg, l10n.t('Den: Remove Attempts from View'));
      if (group) await store.remove(group.id);
      return group?.id;
    }),

    register('den.attempts.refresh', l10n.t('refresh the attempts'), async () => tree.refresh()),
  ];
}

/**
 * The files `den.newSessionAttempts` attaches, collected once (folders expanded, the size limit
 * applied); undefined (said why) when none is left, or an entry is no URI.
 */
async function attachmentSources(
  given: readonly (vscode.Uri | string)[],
  maxFileBytes: number,
): Promise<SizedSource[] | undefined> {
  const uris: vscode.Uri[] = [];
  for (const u of given) {
    if (u instanceof vscode.Uri) uris.push(u);
    else if (typeof u === 'string' && u) uris.push(vscode.Uri.parse(u, true));
    else throw badRequest(l10n.t('the attachments must be URIs.'));
  }
  const warn = (message: string): void => void vscode.window.showWarningMessage(l10n.t('Den: {0}', message));
  const items = await collectSources(uris, { maxFileBytes, confirmFolders: true, warn });
  if (!items?.length) {
    void vscode.window.showWarningMessage(l10n.t('Den: none of the attachments could be attached.'));
    return undefined;
  }
  return items;
}

/** Asks how many attempts (2–4); undefined when dismissed. */
async function askCount(): Promise<number | undefined> {
  const items = Array.from({ length: MAX_ATTEMPTS - MIN_ATTEMPTS + 1 }, (_, i) => {
    const n = MIN_ATTEMPTS + i;
    return { label: l10n.t('{0} attempts', formatCount(n)), n };
  });
  const picked = await vscode.window.showQuickPick(items, {
    title: l10n.t('Den: How Many Attempts?'),
    placeHolder: l10n.t('Each attempt is a new session with the same task, started now'),
  });
  return picked?.n;
}

function badRequest(message: string): DenError {
  return new DenError({ code: 'bad_request', message });
}
