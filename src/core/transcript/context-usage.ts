/**
 * How much of the model's context window a turn uses, from a `context.usage` event or a legacy
 * `context_usage` block. The service documents the kind by title only, so its payload shape is
 * **assumed**: the reader takes the likely spellings (docs/decisions/2026-11-27-context-usage.md)
 * and anything it cannot read with certainty reads as absent, so the caller keeps the event as a
 * generic block.
 */
import type { ContextUsage } from './model';
import { isFiniteNumber, isRecord, object, optional } from '../shared/schema';
import type { Rec } from './read';

/** Fields that say how many tokens are in use, in the order they are tried. */
const USED_KEYS = ['used_tokens', 'usedTokens', 'used', 'input_tokens', 'inputTokens', 'tokens'];
/** Fields that say how large the window is. */
const MAX_KEYS = [
  'max_tokens',
  'maxTokens',
  'max',
  'total',
  'total_tokens',
  'totalTokens',
  'context_window',
  'contextWindow',
  'limit',
];
/** Fields that give the share in use as a percentage (0–100). */
const PERCENT_KEYS = ['percent', 'percentage', 'used_percent', 'usedPercent'];
/** Fields that give the share in use as a ratio (0–1). */
const RATIO_KEYS = ['ratio', 'fraction', 'used_fraction', 'usedFraction'];

const isCount = (v: unknown): v is number => isFiniteNumber(v) && v >= 0;

/** The first of `keys` present in `p`, and its value; undefined when none is. */
function first(p: Rec, keys: readonly string[]): { key: string; value: unknown } | undefined {
  for (const key of keys) if (p[key] !== undefined) return { key, value: p[key] };
  return undefined;
}

/** What a payload says of the context window, and which of its fields that reading used. */
export interface ContextUsageReading {
  usage: ContextUsage;
  /** The payload's fields the reading used (a legacy block's other fields are kept apart). */
  keys: string[];
}

/**
 * Reads a usage payload: `used` and `max` tokens (`used_tokens`/`max_tokens`, `used`/`total`,
 * `input_tokens`/`context_window`, …), or a share (`percent` 0–100, `ratio` 0–1) with either or
 * neither, possibly nested under `usage`. Undefined when it is not certainly one: a field present
 * but not a finite number (a string, NaN), a negative count, a window of 0, a share out of range,
 * or neither counts nor a share.
 */
export function readContextUsage(payload: Rec): ContextUsageReading | undefined {
  const nested = isRecord(payload.usage);
  const p: Rec = nested ? (payload.usage as Rec) : payload;
  const used = first(p, USED_KEYS);
  const max = first(p, MAX_KEYS);
  const percent = first(p, PERCENT_KEYS);
  const ratio = percent ? undefined : first(p, RATIO_KEYS);
  const share = percent ?? ratio;
  if (used && !isCount(used.value)) return undefined;
  if (max && !(isCount(max.value) && max.value > 0)) return undefined;
  if (share && !(isCount(share.value) && share.value <= (percent ? 100 : 1))) return undefined;
  const u = used?.value as number | undefined;
  const m = max?.value as number | undefined;
  const f = share === undefined ? undefined : (share.value as number) / (percent ? 100 : 1);
  let usage: ContextUsage;
  if (u !== undefined && m !== undefined) usage = { used: u, max: m, fraction: Math.min(1, u / m) };
  else if (f !== undefined && m !== undefined) usage = { used: Math.round(f * m), max: m, fraction: f };
  else if (f !== undefined && u !== undefined && f > 0 && u > 0)
    usage = { used: u, max: Math.round(u / f), fraction: f };
  else if (f !== undefined) usage = { fraction: f };
  else return undefined;
  const keys = nested ? ['usage'] : [used, max, share].flatMap((x) => (x ? [x.key] : []));
  return { usage, keys };
}

/**
 * Whether a value is a reading as `readContextUsage` makes them (counts ≥ 0, a share in 0–1): what
 * the local cache and the webview accept, so a reading a meter cannot draw never gets that far.
 */
export const isContextUsage = object({
  used: optional(isCount),
  max: optional(isCount),
  fraction: (v: unknown): v is number => isCount(v) && v <= 1,
});

/** Whether two readings say the same. */
export function sameUsage(a: ContextUsage | undefined, b: ContextUsage | undefined): boolean {
  return a?.used === b?.used && a?.max === b?.max && a?.fraction === b?.fraction;
}
