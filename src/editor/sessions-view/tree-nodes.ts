import * as vscode from 'vscode';
import type { Session } from '../../core/client/types';
import { formatCount, l10n } from '../../core/shared/l10n';
import { sessionFileUri } from '../session-files/session-fs';
import { firstLine, formatBytes, relativeTime } from '../../core/shared/format';
import { fileStatusText, fileStatusWords, runsCodeNote } from '../../protocol/session-panel/file-status-text';
import type { FileStatus } from '../../model/session-files/file-status';
import type { ReviewCount } from '../../model/review/review-marks';
import { reviewedCountText } from '../../protocol/session-panel/reviewed';
import { sessionFilePath } from '../../model/session-files/file-index';
import { GROUP_LABELS, type SessionGroup } from '../../model/sessions-list/history-groups';
import type { TurnState } from '../../model/sessions-list/sessions-model';
import type { SessionNode } from '../../model/sessions-list/tree-nodes';

export type { SessionNode } from '../../model/sessions-list/tree-nodes';

/** The icon and theme colour of each known state of a session's last turn (its name is the word). */
const TURN_STATE: Record<TurnState, [icon: string, color: string]> = {
  running: ['sync', 'charts.blue'],
  done: ['pass', 'testing.iconPassed'],
  failed: ['error', 'testing.iconFailed'],
  stopped: ['debug-stop', 'charts.orange'],
};

/** The word shown for a state of a session's last turn. */
function turnStateWord(state: TurnState): string {
  switch (state) {
    case 'running':
      return l10n.t('running');
    case 'done':
      return l10n.t('done');
    case 'failed':
      return l10n.t('failed');
    case 'stopped':
      return l10n.t('stopped');
  }
}

/** How a session row is drawn besides its data: its last turn's state (when known), archived here. */
export interface SessionLook {
  state?: TurnState;
  archived?: boolean;
  /** The session is an attempt of a task (`src/editor/attempts`): `attempt 2 of 3`, `chosen attempt`. */
  attempt?: string;
  /** The session is a web task's own (its run's `properties.sessionId`). */
  webTask?: boolean;
}

export function sessionItem(s: Session, look: SessionLook, now: number): vscode.TreeItem {
  const { state, archived, attempt, webTask } = look;
  const title = s.title || l10n.t('Untitled session');
  const item = new vscode.TreeItem(title, vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `session:${s.sessionId}`;
  const when = relativeTime(s.updatedAt, now);
  const marks = [
    s.isPinned && l10n.t('pinned'),
    archived && l10n.t('archived'),
    webTask && l10n.t('web task'),
    attempt,
    state && turnStateWord(state),
  ].filter(Boolean);
  item.description = [...marks, when].join(' · ');
  item.contextValue = `session${s.isPinned ? '.pinned' : ''}${archived ? '.archived' : ''}`;
  const icon = state && TURN_STATE[state];
  item.iconPath = icon
    ? new vscode.ThemeIcon(icon[0], new vscode.ThemeColor(icon[1]))
    : s.isPinned
      ? new vscode.ThemeIcon('pinned', new vscode.ThemeColor('charts.yellow'))
      : new vscode.ThemeIcon(webTask ? 'globe' : 'comment-discussion');
  const files = Object.keys(s.fileSnapshot).length;
  const tip = new vscode.MarkdownString(undefined, true);
  tip.appendMarkdown(
    `**${escapeMd(title)}**${state ? ` — $(${TURN_STATE[state][0]}) ${turnStateWord(state)}` : ''}\n\n`,
  );
  tip.appendMarkdown(`${l10n.t('Session ID: {0}', `\`${s.sessionId}\``)}  \n`);
  tip.appendMarkdown(`${l10n.t('Created: {0}', new Date(s.createdAt).toLocaleString())}  \n`);
  tip.appendMarkdown(`${l10n.t('Updated: {0}', new Date(s.updatedAt).toLocaleString())}  \n`);
  // Backslash escapes show literally inside a code span: drop the one character that could end it.
  if (s.sandboxImage)
    tip.appendMarkdown(`${l10n.t('Sandbox image: {0}', `\`${s.sandboxImage.replace(/`/g, "'")}\``)}  \n`);
  tip.appendMarkdown(
    l10n.t('Files: {0}', formatCount(files)) +
      (s.isPinned ? `  \n${l10n.t('Pinned')}` : '') +
      (archived ? `  \n${l10n.t('Archived here')}` : ''),
  );
  item.tooltip = tip;
  item.accessibilityInformation = { label: [title, ...marks, l10n.t('updated {0}', when)].join(', ') };
  // A click (or Enter) shows the session in the preview panel (a double-click keeps it open), what a
  // person came for; the twistie (or →) still expands it.
  item.command = {
    command: 'den.previewSession',
    title: l10n.t('Open Session'),
    arguments: [s.sessionId, s.title],
  };
  return item;
}

/**
 * A group at the root (Pinned, Today, …): expanded, but Archived, which holds what was put away, and
 * Web Tasks, the sessions web task runs made, which would crowd the list.
 */
export function dayItem(group: SessionGroup, count: number): vscode.TreeItem {
  const item = new vscode.TreeItem(
    GROUP_LABELS[group],
    group === 'archived' || group === 'webtasks'
      ? vscode.TreeItemCollapsibleState.Collapsed
      : vscode.TreeItemCollapsibleState.Expanded,
  );
  item.id = `day:${group}`;
  item.description = formatCount(count);
  item.contextValue = `day.${group}`;
  item.accessibilityInformation = {
    label:
      count === 1
        ? l10n.t('{0}, 1 session', GROUP_LABELS[group])
        : l10n.t('{0}, {1} sessions', GROUP_LABELS[group], formatCount(count)),
  };
  return item;
}

export function groupItem(group: 'turns' | 'files', sessionId: string, count?: number): vscode.TreeItem {
  const label = group === 'turns' ? l10n.t('Turns') : l10n.t('Files');
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.Collapsed);
  item.id = `${group}:${sessionId}`;
  item.description = count === undefined ? undefined : formatCount(count);
  item.iconPath = new vscode.ThemeIcon(group === 'turns' ? 'history' : 'files');
  item.contextValue = `group.${group}`;
  return item;
}

/**
 * A turn row; `reviewed`: how many of the files it changed are marked reviewed ("3 of 5 reviewed"
 * in its description), when it changed any.
 */
export function turnItem(
  n: Extract<SessionNode, { kind: 'turn' }>,
  running: boolean,
  now: number,
  reviewed?: ReviewCount,
): vscode.TreeItem {
  const m = n.message;
  const item = new vscode.TreeItem(
    firstLine(m.content) || l10n.t('(empty prompt)'),
    vscode.TreeItemCollapsibleState.None,
  );
  item.id = `turn:${n.sessionId}:${m.id}`;
  const aborted = n.agent?.aborted || m.aborted;
  const parts = [
    m.inputMode ?? 'auto',
    aborted ? l10n.t('aborted') : running ? l10n.t('running') : '',
    reviewed && reviewed.total > 0 ? reviewedCountText(reviewed.reviewed, reviewed.total) : '',
    relativeTime(m.createdAt, now),
  ];
  item.description = parts.filter(Boolean).join(' · ');
  item.iconPath = aborted
    ? new vscode.ThemeIcon('debug-stop', new vscode.ThemeColor('errorForeground'))
    : running
      ? new vscode.ThemeIcon('sync')
      : new vscode.ThemeIcon('comment');
  item.tooltip = new vscode.MarkdownString().appendText(m.content || l10n.t('(empty prompt)'));
  item.contextValue = aborted ? 'turn.aborted' : 'turn';
  item.command = { command: 'den.previewSession', title: l10n.t('Open Session'), arguments: [n.sessionId] };
  return item;
}

/** The icon and theme color of each state (the Source Control view's colors). */
export const STATE_ICON: Record<FileStatus['state'], [icon: string, color: string]> = {
  new: ['diff-added', 'gitDecoration.addedResourceForeground'],
  modified: ['diff-modified', 'gitDecoration.modifiedResourceForeground'],
  partly: ['diff-modified', 'gitDecoration.modifiedResourceForeground'],
  deleted: ['diff-removed', 'gitDecoration.deletedResourceForeground'],
  conflicts: ['warning', 'gitDecoration.conflictingResourceForeground'],
  identical: ['check', 'gitDecoration.ignoredResourceForeground'],
  refused: ['circle-slash', 'errorForeground'],
  failed: ['error', 'errorForeground'],
};

/** The icon of a file that can run code (`FileStatus.runsCode`), beside any state. */
const RUNS_CODE_ICON: [string, string] = ['shield', 'list.warningForeground'];

/**
 * A file row. With `status` (its state against the workspace folder, see `editor/session-files/workspace-file-status.ts`),
 * the description, icon, tooltip and accessible label say it; without, the directory and size.
 * `reviewed`: its current version is marked reviewed (said first; its context value `file.reviewed`).
 */
export function fileItem(
  n: Extract<SessionNode, { kind: 'file' }>,
  status?: FileStatus,
  reviewed = false,
): vscode.TreeItem {
  // The snapshot's map key may be a storage key (`<session>/<path>`); the file's name is its path.
  const shown = n.file.name || n.path;
  const name = shown.split('/').filter(Boolean).pop() ?? shown;
  const item = new vscode.TreeItem(name, vscode.TreeItemCollapsibleState.None);
  item.id = `file:${n.sessionId}:${n.path}`;
  const dir = shown.includes('/') ? shown.slice(0, shown.lastIndexOf('/')) : '';
  const state = status && fileStatusText(status);
  const mark = reviewed ? l10n.t('reviewed') : '';
  item.description = [mark, state ?? '', dir, state ? '' : formatBytes(n.file.size)]
    .filter(Boolean)
    .join(' · ');
  const path = sessionFilePath(n.sessionId, n.path, n.file);
  item.resourceUri = sessionFileUri(n.sessionId, path);
  // A file that can run code: its own icon, whatever applying it would do.
  const look = status && (status.runsCode !== undefined ? RUNS_CODE_ICON : STATE_ICON[status.state]);
  item.iconPath = look
    ? new vscode.ThemeIcon(look[0], new vscode.ThemeColor(look[1]))
    : vscode.ThemeIcon.File;
  item.command = {
    command: 'den.openGeneratedFile',
    title: l10n.t('Open Generated File'),
    arguments: [n.sessionId, path],
  };
  const against = status && [
    l10n.t('Against the workspace: {0}', fileStatusWords(status)),
    runsCodeNote(status),
    status.reason ?? '',
  ];
  item.tooltip = [
    shown,
    formatBytes(n.file.size),
    l10n.t('key: {0}', n.file.key),
    reviewed ? l10n.t('Marked as reviewed (this version)') : '',
    ...(against ?? []),
  ]
    .filter(Boolean)
    .join('\n');
  item.contextValue = reviewed ? 'file.reviewed' : 'file';
  item.accessibilityInformation = {
    label: [
      name,
      dir && l10n.t('in {0}', dir),
      formatBytes(n.file.size),
      status && fileStatusWords(status),
      mark,
    ]
      .filter(Boolean)
      .join(', '),
  };
  return item;
}

export function moreItem(loaded: number, total: number): vscode.TreeItem {
  const item = new vscode.TreeItem(l10n.t('Load more…'), vscode.TreeItemCollapsibleState.None);
  item.id = 'more';
  item.description = l10n.t('{0} of {1}', formatCount(loaded), formatCount(total));
  item.iconPath = new vscode.ThemeIcon('ellipsis');
  item.command = { command: 'den.loadMoreSessions', title: l10n.t('Load More Sessions') };
  item.contextValue = 'more';
  return item;
}

/**
 * Under This Workspace: "8 more sessions in All Sessions", a click switches to All Sessions
 * (`hasMore`: the service has more than is loaded, so the count is at least that).
 */
export function elsewhereItem(count: number, hasMore: boolean): vscode.TreeItem {
  const n = formatCount(count);
  const label = hasMore
    ? l10n.t('{0}+ more sessions in All Sessions', n)
    : count === 1
      ? l10n.t('1 more session in All Sessions')
      : l10n.t('{0} more sessions in All Sessions', n);
  const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
  item.id = 'elsewhere';
  item.description = l10n.t('Show All');
  item.iconPath = new vscode.ThemeIcon('list-flat');
  item.tooltip = l10n.t(
    'This Workspace shows the sessions started here and the pinned ones. Click to show the sessions of every workspace.',
  );
  item.accessibilityInformation = { label: l10n.t('{0}. Activate to show All Sessions.', label) };
  item.command = { command: 'den.sessions.showAll', title: l10n.t('Show All Sessions') };
  item.contextValue = 'elsewhere';
  return item;
}

export function noteItem(n: Extract<SessionNode, { kind: 'note' }>): vscode.TreeItem {
  const item = new vscode.TreeItem(n.label, vscode.TreeItemCollapsibleState.None);
  item.id = n.id;
  item.iconPath = new vscode.ThemeIcon(n.icon);
  item.contextValue = 'note';
  return item;
}

function escapeMd(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
