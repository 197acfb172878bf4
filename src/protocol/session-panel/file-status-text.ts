/** A session file's state in words, as the Sessions tree, the panel and screen readers show it. */
import { l10n } from '../../core/shared/l10n';
import type { FileState, FileStatusView } from './view';

/** A file's state in words (looked up at use time: the bundle is set at activation). */
const STATE_WORDS: Record<FileState, () => string> = {
  new: () => l10n.t('new'),
  modified: () => l10n.t('modified'),
  partly: () => l10n.t('partly applied'),
  deleted: () => l10n.t('deleted'),
  identical: () => l10n.t('identical'),
  conflicts: () => l10n.t('conflicts'),
  refused: () => l10n.t('refused'),
  failed: () => l10n.t('failed'),
};

/**
 * A file's state as one letter, as source control shows it: A new, M modified, D deleted, C
 * conflicts; P partly applied (some of the agent's hunks accepted, hunk by hunk).
 */
const STATE_LETTERS: Record<FileState, string> = {
  new: 'A',
  modified: 'M',
  partly: 'P',
  deleted: 'D',
  identical: '=',
  conflicts: 'C',
  refused: '!',
  failed: '?',
};

export function fileStateLetter(state: FileState): string {
  return STATE_LETTERS[state];
}

/** A file's state in one word (`modified`, `conflicts`…). */
export function fileStateWord(state: FileState): string {
  return STATE_WORDS[state]();
}

/**
 * A file's state with its counts, short: `modified · +3 −1`, `new · +12`, `conflicts · 2 hunks`,
 * `partly applied · 2 of 5 hunks`.
 */
export function fileStatusText(s: Omit<FileStatusView, 'path'>): string {
  const code = s.runsCode === undefined ? '' : `${l10n.t('runs code')} · `;
  if (s.state === 'partly' && s.hunks) {
    return code + l10n.t('partly applied · {0} of {1} hunks', s.hunks.applied, s.hunks.total);
  }
  if (s.state === 'conflicts' && s.conflicts) {
    return (
      code + (s.conflicts === 1 ? l10n.t('conflicts · 1 hunk') : l10n.t('conflicts · {0} hunks', s.conflicts))
    );
  }
  const counts = [s.added > 0 ? `+${s.added}` : '', s.removed > 0 ? `\u2212${s.removed}` : ''];
  return code + [STATE_WORDS[s.state](), counts.filter(Boolean).join(' ')].filter(Boolean).join(' · ');
}

/** The same in words, for screen readers: `modified, 3 lines added, 1 line removed`. */
export function fileStatusWords(s: Omit<FileStatusView, 'path'>): string {
  const n = s.conflicts ?? 0;
  const hunks = n === 0 ? '' : n === 1 ? l10n.t('1 conflict') : l10n.t('{0} conflicts', n);
  const state =
    s.state === 'conflicts'
      ? l10n.t('has conflicts')
      : s.state === 'partly' && s.hunks
        ? l10n.t('partly applied, {0} of {1} hunks', s.hunks.applied, s.hunks.total)
        : STATE_WORDS[s.state]();
  const added =
    s.added <= 0 ? '' : s.added === 1 ? l10n.t('1 line added') : l10n.t('{0} lines added', s.added);
  const removed =
    s.removed <= 0 ? '' : s.removed === 1 ? l10n.t('1 line removed') : l10n.t('{0} lines removed', s.removed);
  const code = s.runsCode === undefined ? '' : l10n.t('can run code');
  return [code, state, hunks, added, removed].filter(Boolean).join(', ');
}

/** Why a file that can run code is held back, for a tooltip (empty for any other file). */
export function runsCodeNote(s: Omit<FileStatusView, 'path'>): string {
  return s.runsCode === undefined
    ? ''
    : l10n.t('Can run code: {0}. Apply writes it only after a separate confirmation.', s.runsCode);
}
