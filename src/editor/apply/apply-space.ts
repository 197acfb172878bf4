/**
 * Room on disk for an apply, checked before anything is written: VS Code's workspace edit stops at
 * the first file it cannot write and keeps the files it wrote before it (and an empty file for the
 * one that failed), so a full disk found midway leaves the workspace half-applied. Counted per
 * disk, in whole blocks, for folders on the local file system (`statfs`); elsewhere, or when the
 * system cannot say, nothing is refused here.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { formatBytes } from '../../core/shared/format';
import { l10n } from '../../core/shared/l10n';
import type { PlanEntry } from '../../model/apply/apply-plan';

interface Disk {
  free: number;
  block: number;
  needed: number;
  /** The first file that takes room on this disk. */
  first: string;
}

/** The first entry's path on a disk that lacks room for what goes there, with the message; or undefined. */
export async function spaceProblem(
  root: string,
  entries: readonly PlanEntry[],
): Promise<{ relPath: string; message: string } | undefined> {
  const disks = new Map<number, Disk>();
  for (const e of entries) {
    if (e.action === 'delete' || !e.newContent || !e.relPath) continue;
    const file = path.join(root, ...e.relPath.split('/'));
    const dir = await nearestDir(path.dirname(file));
    if (!dir) return undefined;
    let disk: Disk | undefined;
    try {
      const st = await fs.stat(dir.path);
      disk = disks.get(st.dev);
      if (!disk) {
        const sf = await fs.statfs(dir.path);
        disk = {
          // Root may also use the blocks a file system keeps in reserve.
          free: (process.getuid?.() === 0 ? sf.bfree : sf.bavail) * sf.bsize,
          block: sf.bsize || 4096,
          needed: 0,
          first: '',
        };
        disks.set(st.dev, disk);
      }
    } catch {
      return undefined;
    }
    const old = await fs.stat(file).then(
      (s) => s.size,
      () => undefined,
    );
    const blocks = (n: number): number => Math.ceil(n / disk.block) * disk.block;
    // A new file: its blocks, and one for each folder made on the way (and the name).
    const grows =
      blocks(e.newContent.length) - (old === undefined ? -disk.block * (1 + dir.missing) : blocks(old));
    if (grows <= 0) continue;
    disk.needed += grows;
    disk.first ||= e.relPath;
  }
  for (const d of disks.values()) {
    if (d.needed <= d.free) continue;
    return {
      relPath: d.first,
      message: l10n.t(
        'Nothing was applied. Could not write {0}: the disk is full (ENOSPC): {1} free, {2} needed. Free some space on that disk, then run Apply again.',
        d.first,
        formatBytes(d.free),
        formatBytes(d.needed),
      ),
    };
  }
  return undefined;
}

/** The nearest folder that exists at or above `dir`, and how many folders below it are missing. */
async function nearestDir(dir: string): Promise<{ path: string; missing: number } | undefined> {
  let at = dir;
  for (let missing = 0; missing < 256; missing++) {
    try {
      if ((await fs.stat(at)).isDirectory()) return { path: at, missing };
      return undefined;
    } catch {
      const up = path.dirname(at);
      if (up === at) return undefined;
      at = up;
    }
  }
  return undefined;
}
