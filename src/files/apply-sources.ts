/**
 * The agent's files of one apply, as the planner takes them (`AgentFile`): one file of a session,
 * a turn's files (its `sandbox.snapshot` changes and `task.completed` results), or the session's
 * current files (`fileSnapshot`, with the deletions its turns made). Bytes are fetched only when
 * the planner reads a file, through the client's download chain (`core/api/download.ts`), with the
 * session's events for files only a file-writing tool holds.
 */
import type { ApiClient } from '../core/api/client';
import type { FileInfo, SessionDetail } from '../core/api/types';
import { transcriptFromDetail } from '../core/transcript/from-history';
import type { Turn } from '../core/transcript/model';
import type { AgentFile } from '../session/apply-plan';
import type { StatusFile } from '../session/file-status';

export interface AgentFiles {
  files: AgentFile[];
  /** What they are, for the summary: "the file src/a.ts", "turn 3's files", "the session's files". */
  what: string;
  title: string;
}

/** Loads the session and answers its files for `scope`; throws a plain Error with a message when absent. */
export async function agentFilesOf(
  client: ApiClient,
  sessionId: string,
  scope: { kind: 'session' } | { kind: 'turn'; turnId: string } | { kind: 'file'; path: string },
): Promise<AgentFiles> {
  const detail = await client.getSession(sessionId);
  const read = readerOf(client, detail);
  const title = detail.session.title || 'Untitled session';
  const latest = sessionFiles(detail);
  if (scope.kind === 'session') {
    return { files: toAgentFiles(latest, read), what: 'the session’s files', title };
  }
  if (scope.kind === 'file') {
    const found = latest.get(scope.path) ?? findByName(latest, scope.path);
    if (!found) throw new Error(`The session has no file ${scope.path} now.`);
    return { files: toAgentFiles(new Map([[scope.path, found]]), read), what: scope.path, title };
  }
  const turns = transcriptFromDetail(detail).turns;
  const index = turns.findIndex(
    (t) => t.agentMessageId === scope.turnId || t.userMessage?.id === scope.turnId,
  );
  if (index < 0) throw new Error('The session has no such turn (it may have been deleted).');
  return { files: toAgentFiles(turnFiles(turns[index]), read), what: `turn ${index + 1}’s files`, title };
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

/** A path's latest state: the file to fetch, or deleted. */
type Latest = { deleted: true } | { deleted: false; info: FileInfo };

/** The session's files now: the snapshot's, plus what its turns deleted and the snapshot lacks. */
function sessionFiles(detail: SessionDetail): Map<string, Latest> {
  const out = new Map<string, Latest>();
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
function turnFiles(turn: Turn): Map<string, Latest> {
  const out = new Map<string, Latest>();
  for (const f of turn.files) {
    out.set(
      f.path,
      f.change === 'deleted'
        ? { deleted: true }
        : { deleted: false, info: { key: f.key, name: f.name, size: 0, updatedAt: f.updatedAt } },
    );
  }
  for (const info of turn.outputFiles ?? []) {
    const path = info.name || info.key;
    if (!out.has(path)) out.set(path, { deleted: false, info });
  }
  return out;
}

function findByName(files: Map<string, Latest>, path: string): Latest | undefined {
  const bare = path.replace(/^\/+/, '');
  for (const [p, f] of files) if (p.replace(/^\/+/, '') === bare) return f;
  return undefined;
}

function toAgentFiles(
  files: Map<string, Latest>,
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
