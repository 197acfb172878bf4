/**
 * What applying the agent's version of one file would do to the workspace, from up to three
 * versions of it. Pure; no vscode, no Node.
 */
import { asLines, merge3, type Content } from './merge';
import { endsWithNewline } from './text';

export type FileState = 'new' | 'modified' | 'deleted' | 'identical' | 'conflicts';

/**
 * The versions of one file. The agent's side is explicit: its content, or `agentDeleted` (content
 * that could not be fetched is neither, so it can never read as a deletion).
 */
export type FileStateInput = {
  /** What the agent saw (the workspace file when it was attached); undefined when unknown. */
  base?: Content;
  /** The workspace file now; undefined when there is none. */
  workspace?: Content;
} & ({ agent: Content; agentDeleted?: false } | { agent?: undefined; agentDeleted: true });

export interface FileStateResult {
  state: FileState;
  /**
   * Whether applying needs no decision from a person: nothing the workspace has would be lost or
   * overwritten blindly. Always false without a base, except when there is nothing to do.
   */
  clean: boolean;
  /** For a clean `modified` text file: the merged text to write (the workspace's line endings). */
  merged?: string;
}

/**
 * Decided in this order ("same" means equal bytes, or texts with the same lines and trailing
 * newline: line endings and a byte order mark are the workspace's style, which applying keeps):
 * 1. The agent deleted the file: `identical` (clean) when the workspace has none either;
 *    otherwise `deleted`, clean when the base is known and the workspace is the same as it
 *    (deleting loses no edit made since).
 * 2. No workspace file: `new`; clean when there is no base (the file did not exist when attached;
 *    with a base, the person deleted it since and writing it back is their call).
 * 3. Workspace the same as the agent's: `identical`, clean.
 * 4. No base: `modified`, not clean (applying replaces the workspace file; a person decides).
 * 5. The agent's the same as the base: `identical`, clean: the agent left the file as it saw it,
 *    so there is nothing to apply and the workspace's later edits stand.
 * 6. Workspace the same as the base (only the agent changed it): `modified`, clean.
 * 7. Both changed and either is binary: `conflicts`.
 * 8. Otherwise the three-way merge decides: clean → `modified` (clean, with `merged`); else
 *    `conflicts` (both changed the same or adjacent lines).
 */
export function fileState(input: FileStateInput): FileStateResult {
  const { base, workspace } = input;
  if (input.agentDeleted) {
    if (workspace === undefined) return { state: 'identical', clean: true };
    return { state: 'deleted', clean: base !== undefined && same(workspace, base) };
  }
  const agent = input.agent;
  // Untyped callers: missing content must never pass for a deletion.
  if (agent === undefined)
    throw new Error('fileState: the agent’s content is missing and it was not deleted');
  if (workspace === undefined) return { state: 'new', clean: base === undefined };
  if (same(workspace, agent)) return { state: 'identical', clean: true };
  if (base === undefined) return { state: 'modified', clean: false };
  if (same(agent, base)) return { state: 'identical', clean: true };
  const merged = merge3({ base, ours: workspace, theirs: agent });
  if (merged.binary) {
    return same(workspace, base) ? { state: 'modified', clean: true } : { state: 'conflicts', clean: false };
  }
  if (!merged.clean) return { state: 'conflicts', clean: false };
  return { state: 'modified', clean: true, merged: merged.text };
}

/** Equal bytes, or texts equal but for line endings and a byte order mark. */
export function same(a: Content, b: Content): boolean {
  if (typeof a === 'string' && typeof b === 'string' && a === b) return true;
  if (typeof a !== 'string' && typeof b !== 'string' && equalBytes(a, b)) return true;
  const x = asLines(a);
  const y = asLines(b);
  if (!x || !y) return false;
  if (x.lines.length !== y.lines.length) return false;
  if (endsWithNewline(x.lines) !== endsWithNewline(y.lines)) return false;
  return x.lines.every((l, k) => l.text === y.lines[k].text);
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}
