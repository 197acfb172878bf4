import { l10n } from '../shared/l10n';
/**
 * Whether a relative path inside a workspace folder really stays inside it once symbolic links are
 * followed: a link in the folder may point anywhere. The caller supplies the resolution (`RealPath`),
 * so the editor's layer can use its own file system for remote workspaces; `nodeRealPath` is the
 * one for the local disk. A check, not a lock: the caller checks right before writing, and a link
 * made between the two is not seen. Hard links cannot be told apart and are not looked for.
 */
import { promises as fs } from 'node:fs';
import { show } from './path-safety';

/**
 * The real path of an existing entry (links followed), `/` or `\` separated; undefined when there
 * is no entry at all at `path`. It must throw for a link that leads nowhere (a write would create
 * its target, wherever that is) and for any error: the check then refuses.
 */
export type RealPath = (path: string) => Promise<string | undefined>;

export type InsideCheck = { ok: true; realPath: string } | { ok: false; message: string };

export interface InsideOptions {
  /** Compare without case (Windows, macOS by default). */
  caseInsensitive?: boolean;
}

/**
 * Resolves `folder/relative` through its deepest existing ancestor (the file itself when it
 * exists; a missing tail cannot hold links) and answers whether that stays inside the folder's
 * own real path. `relative` is a path that `safeRelativePath` accepted.
 */
export async function checkInside(
  folder: string,
  relative: string,
  realpath: RealPath,
  options: InsideOptions = {},
): Promise<InsideCheck> {
  const refuse = (why: string): InsideCheck => ({
    ok: false,
    message: l10n.t('Refused the path {0}: {1}.', show(relative), why),
  });
  const segments = relative.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..'))
    return refuse(l10n.t('it is not a plain relative path'));
  const base = folder.replace(/[/\\]+$/, '');
  try {
    // `C:` alone would be the drive's current folder: a root is resolved as given.
    const realFolder = await realpath(base === '' || /^[a-z]:$/i.test(base) ? folder : base);
    if (realFolder === undefined) return refuse(l10n.t('the folder {0} does not exist', show(folder)));
    for (let n = segments.length; n >= 0; n--) {
      const p = [base, ...segments.slice(0, n)].join('/');
      const real = n === 0 ? realFolder : await realpath(p);
      if (real === undefined) continue;
      if (!within(real, realFolder, options.caseInsensitive ?? false)) {
        return refuse(l10n.t('{0} leads outside the folder, to {1}', show(p), show(real)));
      }
      return { ok: true, realPath: [real.replace(/[/\\]+$/, ''), ...segments.slice(n)].join('/') };
    }
    return refuse(l10n.t('it could not be resolved'));
  } catch (err) {
    return refuse(l10n.t('it could not be resolved ({0})', err instanceof Error ? err.message : String(err)));
  }
}

function within(real: string, folder: string, caseInsensitive: boolean): boolean {
  const norm = (p: string): string => {
    const s = p.replace(/\\/g, '/').replace(/\/+$/, '');
    return caseInsensitive ? s.toLowerCase() : s;
  };
  const r = norm(real);
  const f = norm(folder);
  return r === f || r.startsWith(`${f}/`);
}

/** `RealPath` on the local disk. */
export const nodeRealPath: RealPath = async (path) => {
  try {
    return await fs.realpath(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
  }
  try {
    await fs.lstat(path);
  } catch {
    return undefined;
  }
  throw new Error(l10n.t('{0} is a link that leads nowhere', show(path)));
};
