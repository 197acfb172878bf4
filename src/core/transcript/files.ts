/** `sandbox.snapshot`: which files a turn added, updated or deleted. */
import type { FileChange, Transcript, Turn } from './model';
import { isRecord } from '../shared/schema';
import { basename, num, str, type Rec } from './read';

/** The session's files as of the start of `turn`: every earlier turn's changes, in order. */
function filesBefore(t: Transcript, turn: Turn): Map<string, FileChange> {
  const known = new Map<string, FileChange>();
  for (const earlier of t.turns) {
    if (earlier === turn) break;
    for (const f of earlier.files) {
      if (f.change === 'deleted') known.delete(f.path);
      else known.set(f.path, f);
    }
  }
  return known;
}

function sameFile(a: FileChange, key: string, name: string, updatedAt: number | undefined): boolean {
  return a.key === key && a.name === name && a.updatedAt === updatedAt;
}

function setFields(f: FileChange, key: string, name: string, updatedAt: number | undefined): void {
  f.key = key;
  f.name = name;
  if (updatedAt === undefined) delete f.updatedAt;
  else f.updatedAt = updatedAt;
}

function fileChange(
  path: string,
  change: FileChange['change'],
  key: string,
  name: string,
  at?: number,
): FileChange {
  const f: FileChange = { path, change, key, name };
  if (at !== undefined) f.updatedAt = at;
  return f;
}

/**
 * Applies a snapshot payload (`snapshot`: path → {key, name, updatedAt}; `deleted`: paths) to the
 * turn's file list. An entry equal to what is already known is no change. Returns whether it changed.
 */
export function applySnapshot(t: Transcript, turn: Turn, payload: Rec): boolean {
  const snapshot = isRecord(payload.snapshot) ? payload.snapshot : {};
  const deleted = Array.isArray(payload.deleted) ? payload.deleted.filter((p) => typeof p === 'string') : [];
  const paths = Object.keys(snapshot);
  if (paths.length === 0 && deleted.length === 0) return false;
  const before = filesBefore(t, turn);
  const mine = new Map(turn.files.map((f) => [f.path, f]));
  let changed = false;

  for (const path of paths) {
    const entry = isRecord(snapshot[path]) ? (snapshot[path] as Rec) : {};
    const key = str(entry.key) ?? path;
    const name = str(entry.name) ?? basename(path);
    const at = num(entry.updatedAt) ?? num(entry.updated_at);
    const own = mine.get(path);
    if (own) {
      if (own.change !== 'deleted' && sameFile(own, key, name, at)) continue;
      if (own.change === 'deleted') own.change = 'updated';
      setFields(own, key, name, at);
      changed = true;
      continue;
    }
    const prior = before.get(path);
    if (prior && sameFile(prior, key, name, at)) continue;
    const f = fileChange(path, prior ? 'updated' : 'added', key, name, at);
    turn.files.push(f);
    mine.set(path, f);
    changed = true;
  }

  for (const path of deleted) {
    const own = mine.get(path);
    if (own) {
      if (own.change === 'deleted') continue;
      if (own.change === 'added') {
        turn.files.splice(turn.files.indexOf(own), 1);
        mine.delete(path);
      } else own.change = 'deleted';
      changed = true;
      continue;
    }
    const prior = before.get(path);
    const f = fileChange(
      path,
      'deleted',
      prior?.key ?? path,
      prior?.name ?? basename(path),
      prior?.updatedAt,
    );
    turn.files.push(f);
    mine.set(path, f);
    changed = true;
  }
  return changed;
}
