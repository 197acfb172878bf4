/** Words and numbers as people read them, for the host and the webviews alike (browser-safe). */
import { l10n } from './l10n';

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
