import { l10n } from '../core/l10n';
import type { FileState, FileStatusView } from './view';

/** Human-readable "5 min ago" for a Unix-ms time. */
export function relativeTime(ms: number, now: number = Date.now()): string {
  const s = Math.round((now - ms) / 1000);
  if (!Number.isFinite(s)) return '';
  if (s < 45) return l10n.t('just now');
  const m = Math.round(s / 60);
  if (m < 60) return l10n.t('{0} min ago', m);
  const h = Math.round(m / 60);
  if (h < 24) return l10n.t('{0} h ago', h);
  const d = Math.round(h / 24);
  if (d < 30) return l10n.t('{0} d ago', d);
  return new Date(ms).toISOString().slice(0, 10);
}

/** "1.2 MB" style sizes. */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '';
  if (n < 1024) return l10n.t('{0} B', n);
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < 3) {
    v /= 1024;
    u++;
  }
  const x = v < 10 ? v.toFixed(1) : String(Math.round(v));
  return u === 0
    ? l10n.t('{0} KB', x)
    : u === 1
      ? l10n.t('{0} MB', x)
      : u === 2
        ? l10n.t('{0} GB', x)
        : l10n.t('{0} TB', x);
}

/** The first line of a text, shortened for a label. */
export function firstLine(text: string, max = 80): string {
  const line = (text || '').trim().split(/\r?\n/, 1)[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Checks a session title typed by a person; returns the problem or undefined. */
export function validateTitle(title: string): string | undefined {
  const t = title.trim();
  if (!t) return l10n.t('A title cannot be empty.');
  if (t.length > 200) return l10n.t('Keep titles to 200 characters (this one has {0}).', t.length);
  if (/[\u0000-\u001f]/.test(t)) return l10n.t('A title cannot contain control characters.');
  return undefined;
}

/** A file's state in words (looked up at use time: the bundle is set at activation). */
const STATE_WORDS: Record<FileState, () => string> = {
  new: () => l10n.t('new'),
  modified: () => l10n.t('modified'),
  deleted: () => l10n.t('deleted'),
  identical: () => l10n.t('identical'),
  conflicts: () => l10n.t('conflicts'),
  refused: () => l10n.t('refused'),
  failed: () => l10n.t('failed'),
};

/** A file's state with its counts, short: `modified · +3 −1`, `new · +12`, `conflicts · 2 hunks`. */
export function fileStatusText(s: Omit<FileStatusView, 'path'>): string {
  const code = s.runsCode === undefined ? '' : `${l10n.t('runs code')} · `;
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
  const state = s.state === 'conflicts' ? l10n.t('has conflicts') : STATE_WORDS[s.state]();
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
