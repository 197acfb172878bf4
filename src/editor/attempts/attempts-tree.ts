/**
 * The Attempts view: each task run as attempts (a group), its attempts compared (state · duration ·
 * files +a −r · conflicts; the answer's first lines in the tooltip), the chosen one first and
 * marked, and each attempt's files with their state against the workspace (a click compares the
 * file with the workspace). The rows are `model/attempts/attempt-rows.ts`'s.
 */
import * as vscode from 'vscode';
import { firstLine } from '../../core/shared/format';
import { formatCount, l10n } from '../../core/shared/l10n';
import {
  attemptRows,
  rowDescription,
  rowLabel,
  type AttemptFile,
  type AttemptRow,
} from '../../model/attempts/attempt-rows';
import type { AttemptGroup, AttemptState, AttemptStore } from '../../model/attempts/attempt-store';
import type { FileStatusModel, FileStatuses } from '../../model/session-files/file-status';
import { fileStatusText, fileStatusWords } from '../../protocol/session-panel/file-status-text';
import { sessionFileUri } from '../session-files/session-fs';
import { STATE_ICON } from '../sessions-view/tree-nodes';

export type AttemptNode =
  | { kind: 'group'; groupId: string }
  | { kind: 'attempt'; groupId: string; sessionId: string }
  | { kind: 'file'; groupId: string; sessionId: string; path: string };

/** The icon and theme colour of each attempt state. */
const ATTEMPT_ICON: Record<AttemptState, [icon: string, color: string]> = {
  starting: ['loading~spin', 'charts.blue'],
  queued: ['clock', 'charts.blue'],
  running: ['sync~spin', 'charts.blue'],
  needsInput: ['bell-dot', 'charts.orange'],
  completed: ['pass', 'testing.iconPassed'],
  error: ['error', 'testing.iconFailed'],
  aborted: ['debug-stop', 'charts.orange'],
  failed: ['error', 'testing.iconFailed'],
};

type Statuses = Pick<FileStatusModel, 'peek' | 'statuses' | 'onDidChange'>;

export class AttemptsTreeProvider implements vscode.TreeDataProvider<AttemptNode>, vscode.Disposable {
  readonly #changed = new vscode.EventEmitter<AttemptNode | undefined>();
  readonly onDidChangeTreeData = this.#changed.event;
  readonly #subscriptions: { dispose(): void }[] = [];
  /** The file states last drawn per session: asked again only when the model says they changed. */
  readonly #drawn = new Map<string, FileStatuses>();
  /** Running attempts' durations move: redrawn each few seconds while one runs. */
  #ticker: ReturnType<typeof setInterval> | undefined;

  readonly #store: AttemptStore;
  readonly #statuses: Statuses;
  readonly #now: () => number;
  constructor(store: AttemptStore, statuses: Statuses, now: () => number = Date.now) {
    this.#store = store;
    this.#statuses = statuses;
    this.#now = now;
    this.#subscriptions.push(
      store.onDidChange(() => this.refresh()),
      statuses.onDidChange((id) => {
        if (store.groupOf(id)) this.#ask(id);
      }),
    );
  }

  refresh(): void {
    this.#changed.fire(undefined);
    this.#tick();
  }

  /**
   * The comparison rows of a group, as known now (the chosen one first); file states not asked yet
   * are asked, and the view redrawn when they come.
   */
  rows(groupId: string): AttemptRow[] {
    const group = this.#store.get(groupId);
    if (!group) return [];
    for (const a of group.attempts) if (!this.#drawn.has(a.sessionId)) this.#ask(a.sessionId);
    return attemptRows(group, (id) => this.#drawn.get(id) ?? this.#statuses.peek(id), this.#now());
  }

  getChildren(node?: AttemptNode): AttemptNode[] {
    if (!node) return this.#store.groups().map((g) => ({ kind: 'group', groupId: g.id }));
    if (node.kind === 'group') {
      return this.rows(node.groupId).map((r) => ({
        kind: 'attempt',
        groupId: node.groupId,
        sessionId: r.sessionId,
      }));
    }
    if (node.kind === 'attempt') {
      const row = this.#row(node.groupId, node.sessionId);
      return (row?.files ?? []).map((f) => ({ ...node, kind: 'file', path: f.path }));
    }
    return [];
  }

  getParent(node: AttemptNode): AttemptNode | undefined {
    if (node.kind === 'group') return undefined;
    if (node.kind === 'attempt') return { kind: 'group', groupId: node.groupId };
    return { kind: 'attempt', groupId: node.groupId, sessionId: node.sessionId };
  }

  getTreeItem(node: AttemptNode): vscode.TreeItem {
    const group = this.#store.get(node.groupId);
    if (!group) return new vscode.TreeItem(l10n.t('Removed'));
    if (node.kind === 'group') return groupItem(group);
    const row = this.#row(node.groupId, node.sessionId);
    if (!row) return new vscode.TreeItem(l10n.t('Removed'));
    if (node.kind === 'attempt') return attemptItem(group, row);
    const file = row.files?.find((f) => f.path === node.path);
    return file ? fileItem(node.sessionId, file) : new vscode.TreeItem(l10n.t('Removed'));
  }

  dispose(): void {
    if (this.#ticker) clearInterval(this.#ticker);
    for (const s of this.#subscriptions) s.dispose();
    this.#changed.dispose();
  }

  #row(groupId: string, sessionId: string): AttemptRow | undefined {
    return this.rows(groupId).find((r) => r.sessionId === sessionId);
  }

  /** Asks the file states of a session; redraws when they differ from what was drawn. */
  #ask(sessionId: string): void {
    this.#statuses.statuses(sessionId).then(
      (s) => {
        if (this.#drawn.get(sessionId) === s) return;
        this.#drawn.set(sessionId, s);
        this.#changed.fire(undefined);
      },
      () => undefined,
    );
  }

  #tick(): void {
    const running = this.#store
      .groups()
      .some((g) => g.attempts.some((a) => ['starting', 'queued', 'running', 'needsInput'].includes(a.state)));
    if (running && !this.#ticker) this.#ticker = setInterval(() => this.#changed.fire(undefined), 5_000);
    if (!running && this.#ticker) {
      clearInterval(this.#ticker);
      this.#ticker = undefined;
    }
  }
}

function groupItem(group: AttemptGroup): vscode.TreeItem {
  const item = new vscode.TreeItem(
    firstLine(group.task) || l10n.t('(empty task)'),
    vscode.TreeItemCollapsibleState.Expanded,
  );
  item.id = `attempts:${group.id}`;
  const n = formatCount(group.attempts.length);
  const chosen = group.attempts.findIndex((a) => a.sessionId === group.chosen);
  item.description =
    chosen >= 0
      ? l10n.t('{0} attempts · attempt {1} chosen', n, formatCount(chosen + 1))
      : l10n.t('{0} attempts', n);
  item.iconPath = new vscode.ThemeIcon('versions');
  item.tooltip = new vscode.MarkdownString().appendText(group.task);
  item.contextValue = chosen >= 0 ? 'attemptGroup.chosen' : 'attemptGroup';
  item.accessibilityInformation = { label: [item.label, item.description].join(', ') };
  return item;
}

function attemptItem(group: AttemptGroup, row: AttemptRow): vscode.TreeItem {
  const item = new vscode.TreeItem(
    rowLabel(row),
    row.files?.length ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
  );
  item.id = `attempt:${row.sessionId}`;
  item.description = rowDescription(row);
  const [icon, color] = row.chosen ? ['star-full', 'charts.yellow'] : ATTEMPT_ICON[row.state];
  item.iconPath = new vscode.ThemeIcon(icon, new vscode.ThemeColor(color));
  const tip = new vscode.MarkdownString();
  tip.appendText(`${rowLabel(row)} — ${rowDescription(row)}\n\n`);
  tip.appendText(row.answer || l10n.t('No answer yet.'));
  item.tooltip = tip;
  item.contextValue = `attempt${row.chosen ? '.chosen' : ''}`;
  item.accessibilityInformation = {
    label: [rowLabel(row), rowDescription(row), firstLine(row.answer)].filter(Boolean).join(', '),
  };
  item.command = {
    command: 'den.attempts.open',
    title: l10n.t('Open Attempt'),
    arguments: [{ kind: 'attempt', groupId: group.id, sessionId: row.sessionId } satisfies AttemptNode],
  };
  return item;
}

function fileItem(sessionId: string, f: AttemptFile): vscode.TreeItem {
  const name = f.path.split('/').pop() || f.path;
  const dir = f.path.includes('/') ? f.path.slice(0, f.path.lastIndexOf('/')) : '';
  const item = new vscode.TreeItem(name, vscode.TreeItemCollapsibleState.None);
  item.id = `attemptFile:${sessionId}:${f.path}`;
  item.description = [fileStatusText(f), dir].filter(Boolean).join(' · ');
  item.resourceUri = sessionFileUri(sessionId, f.path);
  const [icon, color] = STATE_ICON[f.state];
  item.iconPath = new vscode.ThemeIcon(icon, new vscode.ThemeColor(color));
  item.tooltip = [f.path, l10n.t('Against the workspace: {0}', fileStatusWords(f)), f.reason ?? '']
    .filter(Boolean)
    .join('\n');
  item.contextValue = 'attemptFile';
  item.accessibilityInformation = {
    label: [name, dir && l10n.t('in {0}', dir), fileStatusWords(f)].filter(Boolean).join(', '),
  };
  item.command = {
    command: 'den.compareWithWorkspace',
    title: l10n.t('Compare with Workspace'),
    arguments: [sessionId, f.path],
  };
  return item;
}
