/** Small pure formatters for the panel's texts (sizes, durations, turn status lines). */
import { l10n } from '../../core/shared/l10n';
import type { Effort, Mode, TurnHeader } from '../../protocol/session-panel/messages';

/** The modes' names, in the current language (a function: the bundle arrives with `init`). */
export const modeLabels = (): Record<Mode, string> => ({
  auto: l10n.t('Auto'),
  code: l10n.t('Code'),
  deepsearch: l10n.t('Deep search'),
  slides: l10n.t('Slides'),
  plan: l10n.t('Plan'),
});

export const effortLabels = (): Record<Effort, string> => ({ fast: l10n.t('Fast'), think: l10n.t('Think') });

/** Shared with the Sessions tree (pure, no vscode). */
export { formatBytes } from '../../core/shared/format';

/** "45 s", "3 min", "1 h 5 min". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return l10n.t('{0} s', s);
  const m = Math.round(s / 60);
  if (m < 60) return l10n.t('{0} min', m);
  return m % 60 ? l10n.t('{0} h {1} min', Math.floor(m / 60), m % 60) : l10n.t('{0} h', Math.floor(m / 60));
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
  if (!r) return l10n.t('Stopped');
  if (BY_USER.test(r)) return l10n.t('Stopped by you');
  // A machine code (one word with _ or -) reads as words; a sentence is kept as the service wrote it.
  const words = /^[A-Za-z0-9]+(?:[_-][A-Za-z0-9]+)+$/.test(r) ? r.replace(/[_-]+/g, ' ').toLowerCase() : r;
  return l10n.t('Stopped: {0}', words);
}

/** The status line of a turn. */
export function turnStatusText(t: TurnHeader): string {
  switch (t.status) {
    case 'queued':
      return t.queuePosition !== undefined
        ? l10n.t('Queued (position {0})', t.queuePosition)
        : l10n.t('Queued');
    case 'running': {
      let s = l10n.t('Running');
      if (t.phase && t.phase !== 'running' && t.phase !== 'queued') s += ` · ${t.phase}`;
      if (t.etaSeconds !== undefined && t.etaSeconds > 0)
        s += l10n.t(' · about {0} left', formatDuration(t.etaSeconds));
      return s;
    }
    case 'completed':
      return l10n.t('Completed');
    case 'aborted':
      return stoppedText(t.abortReason);
    case 'error': {
      const msg = t.error?.message || l10n.t('The turn failed.');
      return t.error?.code ? l10n.t('Failed: {0} ({1})', msg, t.error.code) : l10n.t('Failed: {0}', msg);
    }
    default:
      return String(t.status);
  }
}

/** The line under a turn that waits for the person (empty when it does not). */
export function needsInputText(t: TurnHeader): string {
  return t.needsInput ? l10n.t('The agent needs your input: {0}', t.needsInput) : '';
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
