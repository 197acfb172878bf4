import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';

/** Suffix of the temporary files `writeFileAtomic` leaves behind only when a process dies mid-write. */
export const ATOMIC_TMP_SUFFIX = '.tmp';

/**
 * Writes `data` to `file` so that a reader sees the old content or the new, never a part: a
 * temporary file in the same folder (created when missing), then a rename. The temporary file is
 * removed when the write fails.
 */
export async function writeFileAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const dir = path.dirname(file);
  const tmp = path.join(
    dir,
    `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}${ATOMIC_TMP_SUFFIX}`,
  );
  try {
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(tmp, data);
    await fs.rename(tmp, file);
  } catch (err) {
    await fs.rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
}
