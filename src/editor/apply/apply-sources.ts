/**
 * The agent's files of one apply, as the planner takes them (`AgentFile`): one file of a session,
 * a turn's files (its `sandbox.snapshot` changes and `task.completed` results), or the session's
 * current files (`fileSnapshot`, with the deletions its turns made). Bytes are fetched only when
 * the planner reads a file, through the client's download chain (`core/client/download.ts`), with the
 * session's events for files only a file-writing tool holds.
 */
import type { ApiClient } from '../../core/client/client';
import type { FileInfo, SessionDetail } from '../../core/client/types';
import { firstLine } from '../../core/shared/format';
import { l10n } from '../../core/shared/l10n';
import { transcriptFromDetail } from '../../core/transcript/from-history';
import type { FileChange, Turn } from '../../core/transcript/model';
import type { AgentFile } from '../../model/apply/apply-plan';
import type { StatusFile } from '../../model/session-files/file-status';

export interface AgentFiles {
  files: AgentFile[];
  /** What they are, for the summary: "the file src/a.ts", "the files of “Add a parser”", "the session's files". */
  what: string;
  title: string;
  /** For a turn's files: the turn as the panel and the Sessions view head it ({@link turnName}). */
  turn?: string;
}

/** Which of a session's files: all of them now, a turn's, or one. */
export type AgentScope =
  { kind: 'session' } | { kind: 'turn'; turnId: string } | { kind: 'file'; path: string };

/** A path's state in a scope: the version to fetch (`info`: key, `updatedAt`), or deleted. */
export type AgentVersion = { deleted: true } | { deleted: false; info: FileInfo };

/** The agent's files of a scope by path (as the sandbox names them), without their bytes. */
export interface AgentVersions {
  files: Map<string, AgentVersion>;
  what: string;
  title: string;
  /** For a turn's files: the turn as the panel and the Sessions view head it ({@link turnName}). */
  turn?: string;
  /** The bytes of one version, through the download chain (with the session's events). */
  read(info: FileInfo): Promise<Uint8Array>;
}

/** Loads the session and answers its files for `scope`; throws a plain Error with a message when absent. */
export async function agentFilesOf(
  client: ApiClient,
  sessionId: string,
  scope: AgentScope,
): Promise<AgentFiles> {
  const { files, what, title, read, turn } = await agentVersionsOf(client, sessionId, scope);
  const out: AgentFiles = { files: toAgentFiles(files, (info) => () => read(info)), what, title };
  if (turn !== undefined) out.turn = turn;
  return out;
}

/** The paths and versions of `scope` (what Apply writes and Review shows); throws a plain Error when absent. */
export async function agentVersionsOf(
  client: ApiClient,
  sessionId: string,
  scope: AgentScope,
): Promise<AgentVersions> {
  const detail = await client.getSession(sessionId);
  const reader = readerOf(client, detail);
  const read = (info: FileInfo): Promise<Uint8Array> => reader(info)();
  const title = detail.session.title || l10n.t('Untitled session');
  const latest = sessionFiles(detail);
  if (scope.kind === 'session') return { files: latest, what: l10n.t('the session’s files'), title, read };
  if (scope.kind === 'file') {
    const found = latest.get(scope.path) ?? findByName(latest, scope.path);
    if (!found) throw new Error(l10n.t('The session has no file {0} now.', scope.path));
    return { files: new Map([[scope.path, found]]), what: scope.path, title, read };
  }
  const turns = transcriptFromDetail(detail).turns;
  const index = turns.findIndex(
    (t) => t.agentMessageId === scope.turnId || t.userMessage?.id === scope.turnId,
  );
  if (index < 0) throw new Error(l10n.t('The session has no such turn (it may have been deleted).'));
  const files = turnFiles(turns[index]);
  const turn = turnName(turns[index].userMessage.text);
  return { files, what: l10n.t('the files of {0}', turn), title, turn, read };
}

/**
 * A turn in words, as the person sees it elsewhere (the panel's heading of the turn, its row in the
 * Sessions view): the first line of what it asked, quoted. Never a number: turns are numbered
 * nowhere the person looks.
 */
export function turnName(request: string): string {
  const line = firstLine(request, 60);
  return line ? l10n.t('“{0}”', line) : l10n.t('the turn without request text');
}

/**
 * The session's current files (as Apply Session's Files takes them) from an already-loaded
 * detail, each with its version (key and `updatedAt`) for those that keep results by it.
 */
export function currentFilesOf(client: ApiClient, detail: SessionDetail): StatusFile[] {
  return toAgentFiles(sessionFiles(detail), readerOf(client, detail));
}

/** Fetches a file's bytes through the client's chain, with the session's events for tool-held files. */
function readerOf(client: ApiClient, detail: SessionDetail): (info: FileInfo) => () => Promise<Uint8Array> {
  const events = detail.messages.flatMap((m) => (m.type === 'agent' ? m.events : []));
  return (info) => async () =>
    new Uint8Array((await client.downloadFile(info, { sessionEvents: events })).content);
}

/** The session's files now: the snapshot's, plus what its turns deleted and the snapshot lacks. */
function sessionFiles(detail: SessionDetail): Map<string, AgentVersion> {
  const out = new Map<string, AgentVersion>();
  for (const [key, info] of Object.entries(detail.session.fileSnapshot)) {
    out.set(info.name || key, { deleted: false, info });
  }
  const changes = new Map<string, boolean>();
  for (const turn of transcriptFromDetail(detail).turns) {
    for (const f of turn.files) changes.set(f.path, f.change === 'deleted');
  }
  for (const [path, deleted] of changes) if (deleted && !out.has(path)) out.set(path, { deleted: true });
  return out;
}

/** A turn's files: its snapshot changes, then results not among them. */
function turnFiles(turn: Turn): Map<string, AgentVersion> {
  const out = new Map<string, AgentVersion>();
  for (const f of turn.files) {
    out.set(f.path, f.change === 'deleted' ? { deleted: true } : { deleted: false, info: changeInfo(f) });
  }
  for (const info of turn.outputFiles ?? []) {
    const path = info.name || info.key;
    if (!out.has(path)) out.set(path, { deleted: false, info });
  }
  return out;
}

/** A turn's change as the version it names (no `updatedAt` key when the snapshot gave none). */
function changeInfo(f: FileChange): FileInfo {
  const info: FileInfo = { key: f.key, name: f.name, size: 0 };
  if (f.updatedAt !== undefined) info.updatedAt = f.updatedAt;
  return info;
}

function findByName(files: Map<string, AgentVersion>, path: string): AgentVersion | undefined {
  const bare = path.replace(/^\/+/, '');
  for (const [p, f] of files) if (p.replace(/^\/+/, '') === bare) return f;
  return undefined;
}

function toAgentFiles(
  files: Map<string, AgentVersion>,
  read: (info: FileInfo) => () => Promise<Uint8Array>,
): StatusFile[] {
  return [...files].map(([path, f]): StatusFile =>
    f.deleted
      ? { path, deleted: true, version: 'deleted' }
      : {
          path,
          size: f.info.size > 0 ? f.info.size : undefined,
          read: read(f.info),
          version: `${f.info.key}@${f.info.updatedAt ?? ''}`,
        },
  );
}
