/**
 * The Sessions tree's rows as data (no `vscode`): the node kinds, one object per logical node, the
 * keys a row's drawn state is compared by, and what the view does after a change (`TreeUpdate`).
 */
import type { FileInfo, Message } from '../../core/client/types';
import type { Listen } from '../../core/shared/emitter';
import type { FileStatus, FileStatuses } from '../session-files/file-status';
import type { SessionGroup } from './history-groups';

/** The elements of the Sessions tree. Ids are stable so VS Code keeps expansion and selection. */
export type SessionNode =
  | { kind: 'day'; group: SessionGroup }
  | { kind: 'session'; sessionId: string }
  | { kind: 'group'; group: 'turns' | 'files'; sessionId: string }
  | { kind: 'turn'; sessionId: string; message: Message; agent?: Message }
  | { kind: 'file'; sessionId: string; path: string; file: FileInfo }
  | { kind: 'more' }
  /** This Workspace is shown: how many loaded sessions All Sessions adds (a click switches). */
  | { kind: 'elsewhere' }
  | { kind: 'note'; id: string; label: string; icon: string };

/** One object per logical node, so VS Code's targeted refresh finds the element it knows. */
export class NodeCache {
  readonly #nodes = new Map<string, SessionNode>();

  /** The known node for `n`; turns and files are replaced, as their data may have changed. */
  node(n: SessionNode): SessionNode {
    const key = nodeKey(n);
    const known = this.#nodes.get(key);
    if (known && n.kind !== 'turn' && n.kind !== 'file') return known;
    this.#nodes.set(key, n);
    return n;
  }
}

function nodeKey(n: SessionNode): string {
  switch (n.kind) {
    case 'day':
      return `d:${n.group}`;
    case 'session':
      return `s:${n.sessionId}`;
    case 'group':
      return `g:${n.group}:${n.sessionId}`;
    case 'turn':
      return `t:${n.sessionId}:${n.message.id}`;
    case 'file':
      return `f:${n.sessionId}:${n.path}`;
    case 'more':
      return 'more';
    case 'elsewhere':
      return 'elsewhere';
    case 'note':
      return `n:${n.id}`;
  }
}

/** The key a row's drawn state is compared by (undefined: drawn without one). */
export function statusKey(status: FileStatus | undefined): string | undefined {
  return status && JSON.stringify(status);
}

export function rowId(n: Extract<SessionNode, { kind: 'file' }>): string {
  return `${n.sessionId}\u0000${n.path}`;
}

/** The files' states against the workspace, as the tree reads them (`FileStatusModel` has this shape). */
export interface TreeFileStatus {
  /** The states last computed for a session, if any (no work). */
  peek(sessionId: string): FileStatuses | undefined;
  statuses(sessionId: string): Promise<FileStatuses>;
  /** A session's states may have changed. */
  readonly onDidChange: Listen<string>;
}

/** Which context keys the view applies (after those before it, computed when applied). */
export type KeySet = 'scope' | 'welcome' | 'noWelcome';

/**
 * What the view does after a change, in this order: redraw (unless after the keys), set the message
 * above the tree, set the description, then apply the context keys (and redraw, when after them).
 */
export interface TreeUpdate {
  /** What to redraw: the whole tree, or these rows. */
  readonly redraw?: 'all' | readonly SessionNode[];
  /** Redraw once the context keys are applied (the welcome follows a load's outcome first). */
  readonly redrawAfterKeys?: boolean;
  /** The message above the tree, when it changes (`text` undefined: none). */
  readonly message?: { readonly text: string | undefined };
  /** The view's description changed (`description`). */
  readonly description?: boolean;
  readonly keys?: KeySet;
  /** A session the service no longer has left the list: say so. */
  readonly gone?: boolean;
}

/** A session's turns: each user message, with the agent message right after it when there is one. */
export function turnPairs(msgs: readonly Message[]): { message: Message; agent?: Message }[] {
  const out: { message: Message; agent?: Message }[] = [];
  for (let i = 0; i < msgs.length; i++) {
    const m = msgs[i];
    if (m.type !== 'user') continue;
    const next = msgs[i + 1];
    out.push({ message: m, agent: next && next.type === 'agent' ? next : undefined });
  }
  return out;
}
