/**
 * The header's meter of the context window: how much of it the latest turn that reported it uses
 * ("18k of 200k tokens" and a bar), coloured as it fills. Hidden until the service reports any.
 */
import { formatCount, l10n } from '../../core/shared/l10n';
import type { ContextUsage } from '../../core/transcript/model';
import { h } from '../shared/dom';

/** From this share on the bar takes the warning colour, and from {@link FULL_AT} the error colour. */
export const WARN_AT = 0.8;
export const FULL_AT = 0.95;

export type UsageLevel = 'ok' | 'warning' | 'full';

/** A token count, short: `950`, `1.2k`, `18k`, `200k`, `1M`, `1.5M`. */
export function shortTokens(n: number): string {
  const one = (v: number): string => (v < 9.95 ? String(Math.round(v * 10) / 10) : String(Math.round(v)));
  if (n < 1000) return String(Math.round(n));
  if (n < 999_500) return l10n.t('{0}k', one(n / 1000));
  return l10n.t('{0}M', one(n / 1_000_000));
}

/** What the meter says of a reading: its short text, its words for screen readers, its level. */
export interface UsageTexts {
  /** Shown beside the bar: "18k of 200k tokens", or "42% of context" without counts. */
  short: string;
  /** The meter's accessible name and tooltip, in words with whole numbers. */
  label: string;
  /** "9%". */
  percent: string;
  level: UsageLevel;
}

export function usageTexts(u: ContextUsage): UsageTexts {
  const pct = Math.round(u.fraction * 100);
  const percent = l10n.t('{0}%', pct);
  const level: UsageLevel = u.fraction >= FULL_AT ? 'full' : u.fraction >= WARN_AT ? 'warning' : 'ok';
  if (u.used === undefined || u.max === undefined) {
    return {
      short: l10n.t('{0} of context', percent),
      label: l10n.t('Context window: {0} used', percent),
      percent,
      level,
    };
  }
  return {
    short: l10n.t('{0} of {1} tokens', shortTokens(u.used), shortTokens(u.max)),
    label: l10n.t(
      'Context window: {0} of {1} tokens used ({2})',
      formatCount(u.used),
      formatCount(u.max),
      percent,
    ),
    percent,
    level,
  };
}

export class ContextMeter {
  readonly el: HTMLElement;
  private readonly fill: HTMLElement;
  private readonly text: HTMLElement;

  constructor() {
    this.fill = h('span', { class: 'context-meter-fill' });
    this.text = h('span', { class: 'context-meter-text', attrs: { 'aria-hidden': 'true' } });
    this.el = h('div', { id: 'context-meter', class: 'context-meter', attrs: { role: 'meter' } }, [
      h('span', { class: 'context-meter-bar', attrs: { 'aria-hidden': 'true' } }, [this.fill]),
      this.text,
    ]);
    this.el.hidden = true;
  }

  /** Shows a reading, or hides the meter (none yet). */
  set(u: ContextUsage | undefined): void {
    this.el.hidden = !u;
    if (!u) return;
    const t = usageTexts(u);
    // In tokens when the service said them, else in percent.
    const [now, max] =
      u.used !== undefined && u.max !== undefined
        ? [Math.min(u.used, u.max), u.max]
        : [Math.round(u.fraction * 100), 100];
    this.el.setAttribute('aria-valuemin', '0');
    this.el.setAttribute('aria-valuemax', String(max));
    this.el.setAttribute('aria-valuenow', String(now));
    this.el.setAttribute('aria-valuetext', t.percent);
    this.el.setAttribute('aria-label', t.label);
    this.el.setAttribute('data-level', t.level);
    this.el.title = t.label;
    this.text.textContent = t.short;
    this.fill.style.width = `${Math.min(100, Math.max(0, u.fraction * 100))}%`;
  }
}
