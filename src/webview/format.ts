/** Small pure formatters for the panel's texts (sizes, durations, turn status lines). */
import type { Effort, Mode, TurnHeader } from '../protocol/messages';

export const MODE_LABELS: Record<Mode, string> = {
  auto: 'Auto',
  code: 'Code',
  deepsearch: 'Deep search',
  slides: 'Slides',
  plan: 'Plan',
};

export const EFFORT_LABELS: Record<Effort, string> = { fast: 'Fast', think: 'Think' };

/** Shared with the Sessions tree (pure, no vscode). */
export { formatBytes } from '../protocol/format';

/** "45 s", "3 min", "1 h 5 min". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min`;
  return `${Math.floor(m / 60)} h${m % 60 ? ` ${m % 60} min` : ''}`;
}

/** Seconds left until `until` (Unix ms), rounded up; 0 once passed. */
export function secondsLeft(until: number, now: number): number {
  return Math.max(0, Math.ceil((until - now) / 1000));
}

// A reason that says the person stopped it: `aborted_by_user`, `USER_ABORT`, "Stopped by the user"…
const BY_USER =
  /^(?:(?:abort|stop|cancel|interrupt)\w*[\s_-]+by[\s_-]+(?:the[\s_-]+)?user|user[\s_-]+(?:abort|stop|cancel|interrupt)\w*)\.?$/i;

/**
 * How a stopped turn reads: "Stopped by you" when the person stopped it (whatever code or words
 * the service used), else the service's reason in words (`session_deleted` → "session deleted").
 */
export function stoppedText(reason: string | undefined): string {
  const r = reason?.trim();
  if (!r) return 'Stopped';
  if (BY_USER.test(r)) return 'Stopped by you';
  // A machine code (one word with _ or -) reads as words; a sentence is kept as the service wrote it.
  const words = /^[A-Za-z0-9]+(?:[_-][A-Za-z0-9]+)+$/.test(r) ? r.replace(/[_-]+/g, ' ').toLowerCase() : r;
  return `Stopped: ${words}`;
}

/** The status line of a turn. */
export function turnStatusText(t: TurnHeader): string {
  switch (t.status) {
    case 'queued':
      return t.queuePosition !== undefined ? `Queued (position ${t.queuePosition})` : 'Queued';
    case 'running': {
      let s = 'Running';
      if (t.phase && t.phase !== 'running' && t.phase !== 'queued') s += ` · ${t.phase}`;
      if (t.etaSeconds !== undefined && t.etaSeconds > 0)
        s += ` · about ${formatDuration(t.etaSeconds)} left`;
      return s;
    }
    case 'completed':
      return 'Completed';
    case 'aborted':
      return stoppedText(t.abortReason);
    case 'error': {
      const msg = t.error?.message || 'The turn failed.';
      return t.error?.code ? `Failed: ${msg} (${t.error.code})` : `Failed: ${msg}`;
    }
    default:
      return String(t.status);
  }
}

/** The line under a turn that waits for the person (empty when it does not). */
export function needsInputText(t: TurnHeader): string {
  return t.needsInput ? `The agent needs your input: ${t.needsInput}` : '';
}

/** A parameter value as readable text (strings as they are, the rest as indented JSON). */
export function valueText(v: unknown): string {
  if (typeof v === 'string') return v;
  try {
    return JSON.stringify(v, null, 2) ?? String(v);
  } catch {
    return String(v);
  }
}
