/**
 * The Sessions tree as the view renders it: its TreeView, its rows (groups expanded or kept), their
 * labels and session ids, and whether the tree has a retry scheduled.
 */
import type * as vscode from 'vscode';
import type { SessionNode } from '../../src/editor/sessions-view/tree-nodes';
import type { DenApi } from './den-api';

/**
 * The Sessions TreeView Den created (its `message` and `description`). The provider keeps it in a
 * private field; reading it here keeps that knowledge in one place.
 */
export function sessionsView(api: DenApi): vscode.TreeView<SessionNode> {
  const view = (api.sessions as unknown as { view?: vscode.TreeView<SessionNode> }).view;
  if (!view) throw new Error('the Sessions provider has no TreeView attached');
  return view;
}

/** A node with the TreeItem Den renders for it. */
export interface Row {
  node: SessionNode;
  item: vscode.TreeItem;
}

/**
 * The children of `node` as the view would render them. Without `node`: the root with its groups
 * (Pinned, Today, …, Archived) expanded in place, so the rows read as the list of sessions they
 * group, followed by "Load more"; `groupedRows` keeps the groups.
 */
export async function rows(api: DenApi, node?: SessionNode): Promise<Row[]> {
  const out: Row[] = [];
  for (const r of await childRows(api, node)) {
    if (!node && r.node.kind === 'day') out.push(...(await childRows(api, r.node)));
    else out.push(r);
  }
  return out;
}

async function childRows(api: DenApi, node?: SessionNode): Promise<Row[]> {
  const nodes = (await api.sessions.getChildren(node)) ?? [];
  return nodes.map((n) => ({ node: n, item: api.sessions.getTreeItem(n) as vscode.TreeItem }));
}

/** The root's groups as `[label, session titles]`, in order. */
export async function groupedRows(api: DenApi): Promise<[string, string[]][]> {
  const out: [string, string[]][] = [];
  for (const g of await childRows(api)) {
    if (g.node.kind !== 'day') continue;
    out.push([labelOf(g.item), (await childRows(api, g.node)).map((r) => labelOf(r.item))]);
  }
  return out;
}

/** Label text of a TreeItem. */
export function labelOf(item: vscode.TreeItem): string {
  const l = item.label;
  return typeof l === 'string' ? l : (l?.label ?? '');
}

/** Session ids of root rows, in order. */
export function sessionIds(list: Row[]): string[] {
  return list.flatMap((r) => (r.node.kind === 'session' ? [r.node.sessionId] : []));
}

/**
 * Whether the Sessions tree has a retry of its list load scheduled. Read from the provider's private
 * timer: what the tree will do by itself, known now rather than by waiting to see whether it does.
 */
export function treeRetryPending(api: DenApi): boolean {
  const tree = api.sessions as unknown as Record<string, unknown>;
  if (!('retryTimer' in tree)) {
    throw new Error('the Sessions provider has no `retryTimer` any more: update treeRetryPending');
  }
  return tree.retryTimer !== undefined;
}
