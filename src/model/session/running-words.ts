/**
 * What the status bar says of a window's turns: those running and those queued behind them, apart
 * (a queued turn is not running). No `vscode` import.
 */
import { formatCount, l10n } from '../../core/shared/l10n';

export interface RunningWords {
  /** The item's text (with its icon). */
  text: string;
  tooltip: string;
}

/** The words for `running` running and `queued` queued turns; undefined when there are none. */
export function runningWords(running: number, queued: number): RunningWords | undefined {
  if (running <= 0 && queued <= 0) return undefined;
  const r = formatCount(running);
  const q = formatCount(queued);
  const text =
    running > 0 && queued > 0
      ? l10n.t('$(sync) Den: {0} running, {1} queued', r, q)
      : running > 0
        ? l10n.t('$(sync) Den: {0} running', r)
        : l10n.t('$(clock) Den: {0} queued', q);
  const runningPart =
    running === 1 ? l10n.t('1 turn running') : running > 1 ? l10n.t('{0} turns running', r) : '';
  const queuedPart = queued === 1 ? l10n.t('1 turn queued') : queued > 1 ? l10n.t('{0} turns queued', q) : '';
  const tooltip =
    runningPart && queuedPart
      ? l10n.t('Den: {0}, {1}. Click to list them.', runningPart, queuedPart)
      : l10n.t('Den: {0}. Click to list them.', runningPart || queuedPart);
  return { text, tooltip };
}
