/** A fake workspace folder and agent files for the apply planner's tests. */
import { contentHash } from '../../../../src/core/merge/hash';
import type { RealPath } from '../../../../src/core/paths/real-path';
import type { AgentFile, PlanBase, PlanFolder } from '../../../../src/model/apply/apply-plan';

export type Bytes = string | Uint8Array;

export const bytes = (b: Bytes): Uint8Array => (typeof b === 'string' ? new TextEncoder().encode(b) : b);
export const text = (b: Uint8Array | undefined): string | undefined =>
  b === undefined ? undefined : new TextDecoder('utf-8', { ignoreBOM: true }).decode(b);

export const bin = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x00, 0x01);
export const bin2 = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x00, 0x02);
export const bin3 = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x00, 0x03);

export const ROOT = '/ws';

export interface FakeFolder extends PlanFolder {
  /** Every relative path read, in order. */
  reads: string[];
  /** The workspace files by relative path (a test may change them). */
  files: Map<string, Uint8Array>;
}

export interface FolderSetup {
  files?: Record<string, Bytes>;
  dirty?: string[];
  /** Absolute link → absolute target; with it, `realPath` is set. */
  links?: Record<string, string>;
  /** Relative paths whose reading throws. */
  unreadable?: string[];
}

export function fakeFolder(setup: FolderSetup = {}): FakeFolder {
  const files = new Map(Object.entries(setup.files ?? {}).map(([p, b]) => [p, bytes(b)]));
  const reads: string[] = [];
  const folder: FakeFolder = {
    name: 'app',
    root: ROOT,
    reads,
    files,
    readFile: async (rel) => {
      reads.push(rel);
      if (setup.unreadable?.includes(rel)) throw new Error('EACCES: permission denied');
      return files.get(rel);
    },
    isDirty: (rel) => setup.dirty?.includes(rel) ?? false,
  };
  if (setup.links) folder.realPath = fakeRealPath([...files.keys()], setup.links);
  return folder;
}

/** Links are followed by prefix; a path exists when it is the root, a file or a folder of one. */
function fakeRealPath(relFiles: string[], links: Record<string, string>): RealPath {
  const abs = relFiles.map((p) => `${ROOT}/${p}`);
  return async (p) => {
    for (const [from, to] of Object.entries(links)) {
      if (p === from || p.startsWith(`${from}/`)) return to + p.slice(from.length);
    }
    const exists = p === ROOT || abs.some((f) => f === p || f.startsWith(`${p}/`));
    return exists ? p : undefined;
  };
}

export interface FakeAgentFile {
  file: AgentFile;
  /** How many times its bytes were read. */
  readCount(): number;
}

/** The agent's file: `null` for a deletion; `size` is announced when given. */
export function agentFile(
  path: string,
  content: Bytes | null,
  options: { size?: number; fails?: boolean } = {},
): FakeAgentFile {
  let count = 0;
  if (content === null) return { file: { path, deleted: true }, readCount: () => count };
  const file: AgentFile = {
    path,
    read: async () => {
      count++;
      if (options.fails) throw new Error('the service answered 404');
      return bytes(content);
    },
  };
  if (options.size !== undefined) file.size = options.size;
  return { file, readCount: () => count };
}

/** A base lookup over `relPath → content`; `{ hashOf }` records only the hash. */
export function basesOf(
  bases: Record<string, Bytes | { hashOf: Bytes }>,
): (rel: string) => Promise<PlanBase | undefined> {
  return async (rel) => {
    const b = bases[rel];
    if (b === undefined) return undefined;
    if (typeof b === 'string' || b instanceof Uint8Array)
      return { hash: contentHash(bytes(b)), content: bytes(b) };
    return { hash: contentHash(bytes(b.hashOf)) };
  };
}
