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

/** An estimate older than this (seconds) is stale, whatever it said. */
export const ETA_STALE_SECONDS = 600;
/** Longer estimates are not plausible for one turn (seconds). */
export const ETA_MAX_SECONDS = 6 * 3600;
/** How far in the future an estimate's time may be (the service's clock ahead of this one), in ms. */
const ETA_CLOCK_SLACK_MS = 60_000;

/**
 * Seconds a turn's time estimate has left at `now`, or undefined when it is not to be shown. The
 * service said `etaSeconds` at `etaAt` (Unix ms); it counts down from then. Shown only while it is
 * fresh and plausible: a time when it was said (else its age is unknown: a replayed or legacy
 * estimate), between 1 s and {@link ETA_MAX_SECONDS}, said less than {@link ETA_STALE_SECONDS} ago,
 * not more than a minute in the future (a clock that far off is not to be trusted; less counts as
 * said now), and not run out (at least 1 s left). A new `task.phase` estimate starts it again.
 */
export function etaLeft(t: Pick<TurnHeader, 'etaSeconds' | 'etaAt'>, now: number): number | undefined {
  const eta = t.etaSeconds;
  const at = t.etaAt;
  if (eta === undefined || at === undefined || !Number.isFinite(eta) || !Number.isFinite(at))
    return undefined;
  if (eta < 1 || eta > ETA_MAX_SECONDS || at - now > ETA_CLOCK_SLACK_MS) return undefined;
  const age = Math.max(0, now - at) / 1000;
  if (age > ETA_STALE_SECONDS) return undefined;
  const left = Math.ceil(eta - age);
  return left >= 1 ? left : undefined;
}

/** The status line of a turn; `now` (Unix ms) counts its time estimate down. */
export function turnStatusText(t: TurnHeader, now = Date.now()): string {
  switch (t.status) {
    case 'queued':
      return t.queuePosition !== undefined
        ? l10n.t('Queued (position {0})', t.queuePosition)
        : l10n.t('Queued');
    case 'running': {
      let s = l10n.t('Running');
      if (t.phase && t.phase !== 'running' && t.phase !== 'queued') s += ` · ${t.phase}`;
      const left = etaLeft(t, now);
      if (left !== undefined) s += l10n.t(' · about {0} left', formatDuration(left));
      return s;
    }
    case 'completed':
      return l10n.t('Completed');
    case 'aborted':
      return stoppedText(t.abortReason);
    case 'error': {
      // The code (`sandbox_failed`) is a detail the status line shows apart (`errorCodeText`).
      return l10n.t('Failed: {0}', t.error?.message || l10n.t('The turn failed.'));
    }
    default:
      return String(t.status);
  }
}

/** A failed turn's error code as a detail ("Error code: sandbox_failed"), or '' without one. */
export function errorCodeText(t: TurnHeader): string {
  return t.status === 'error' && t.error?.code ? l10n.t('Error code: {0}', t.error.code) : '';
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
