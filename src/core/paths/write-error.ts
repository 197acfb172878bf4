/**
 * What a failed write says to a person: which file, why in plain words with the system's code
 * (ENOSPC, EDQUOT, EROFS, EACCES, EPERM), and what to do. Node's errors carry the code in `code`;
 * VS Code's `FileSystemError` carries Node's message ("ENOSPC: no space left on device, write"),
 * so the code is also read from the message. No `vscode` import.
 */
import { l10n } from '../shared/l10n';

const CODES = ['ENOSPC', 'EDQUOT', 'EROFS', 'EACCES', 'EPERM'] as const;
export type WriteErrorCode = (typeof CODES)[number];

/** The write error's code when it is one of those Den words specially. */
export function writeErrorCode(err: unknown): WriteErrorCode | undefined {
  const code = (err as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && (CODES as readonly string[]).includes(code)) return code as WriteErrorCode;
  const message = err instanceof Error ? err.message : typeof err === 'string' ? err : '';
  if (/no space left on device/i.test(message)) return 'ENOSPC';
  return CODES.find((c) => new RegExp(`\\b${c}\\b`).test(message));
}

/** "Could not write src/x.ts: the disk is full (ENOSPC)." and what to do, as one message. */
export function cannotWriteText(relPath: string, err: unknown, code = writeErrorCode(err)): string {
  switch (code) {
    case 'ENOSPC':
      return l10n.t(
        'Could not write {0}: the disk is full (ENOSPC). Free some space on that disk, then try again.',
        relPath,
      );
    case 'EDQUOT':
      return l10n.t(
        'Could not write {0}: your disk quota is used up (EDQUOT). Free some space, then try again.',
        relPath,
      );
    case 'EROFS':
      return l10n.t('Could not write {0}: the file system is read-only (EROFS).', relPath);
    case 'EACCES':
    case 'EPERM':
      return l10n.t(
        'Could not write {0}: permission denied ({1}). Check who may write to that folder, then try again.',
        relPath,
        code,
      );
    default: {
      const why = err instanceof Error ? err.message : String(err);
      return l10n.t('Could not write {0}: {1}', relPath, why);
    }
  }
}
