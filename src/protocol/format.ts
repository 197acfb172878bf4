import type { FileStatusView } from './view';

/** Human-readable "5 min ago" for a Unix-ms time. */
export function relativeTime(ms: number, now: number = Date.now()): string {
  const s = Math.round((now - ms) / 1000);
  if (!Number.isFinite(s)) return '';
  if (s < 45) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 24) return `${h} h ago`;
  const d = Math.round(h / 24);
  if (d < 30) return `${d} d ago`;
  return new Date(ms).toISOString().slice(0, 10);
}

/** "1.2 MB" style sizes. */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '';
  if (n < 1024) return `${n} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[u]}`;
}

/** The first line of a text, shortened for a label. */
export function firstLine(text: string, max = 80): string {
  const line = (text || '').trim().split(/\r?\n/, 1)[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Checks a session title typed by a person; returns the problem or undefined. */
export function validateTitle(title: string): string | undefined {
  const t = title.trim();
  if (!t) return 'A title cannot be empty.';
  if (t.length > 200) return `Keep titles to 200 characters (this one has ${t.length}).`;
  if (/[\u0000-\u001f]/.test(t)) return 'A title cannot contain control characters.';
  return undefined;
}

/** A file's state with its counts, short: `modified · +3 −1`, `new · +12`, `conflicts · 2 hunks`. */
export function fileStatusText(s: Omit<FileStatusView, 'path'>): string {
  if (s.state === 'conflicts' && s.conflicts) {
    return `conflicts · ${s.conflicts} ${s.conflicts === 1 ? 'hunk' : 'hunks'}`;
  }
  const counts = [s.added > 0 ? `+${s.added}` : '', s.removed > 0 ? `\u2212${s.removed}` : ''];
  return [s.state, counts.filter(Boolean).join(' ')].filter(Boolean).join(' · ');
}

/** The same in words, for screen readers: `modified, 3 lines added, 1 line removed`. */
export function fileStatusWords(s: Omit<FileStatusView, 'path'>): string {
  const lines = (n: number, what: string): string =>
    n > 0 ? `${n} ${n === 1 ? 'line' : 'lines'} ${what}` : '';
  const hunks = s.conflicts ? `${s.conflicts} ${s.conflicts === 1 ? 'conflict' : 'conflicts'}` : '';
  const state = s.state === 'conflicts' ? 'has conflicts' : s.state;
  return [state, hunks, lines(s.added, 'added'), lines(s.removed, 'removed')].filter(Boolean).join(', ');
}
