import { deserializeTranscript, fromSnapshot, serializeTranscript } from '../src/core/transcript/serialize';
import { foldedTranscript } from './panel';

/** The check alone is short: it is timed over this many calls a round. */
const CHECKS = 50;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export interface CacheResult {
  events: number;
  bytes: number;
  /** Medians over the rounds, ms. */
  serializeMs: number;
  deserializeMs: number;
  /** The shape check alone (`fromSnapshot` on an already parsed snapshot). */
  checkMs: number;
}

/**
 * The transcript cache's Node-side cost without the disk or the webview: a 10,000-event transcript
 * (the one `panel reopen` caches) serialized, deserialized (JSON.parse + shape check) and checked
 * alone. Median of `rounds` after a warm-up.
 */
export function benchCache(events = 10_000, rounds = 30): CacheResult {
  const t = foldedTranscript(20, events / 20);
  const text = serializeTranscript(t);
  const parsed: unknown = JSON.parse(text);
  const ser: number[] = [];
  const de: number[] = [];
  const check: number[] = [];
  for (let r = 0; r <= rounds; r++) {
    const t0 = performance.now();
    serializeTranscript(t);
    const t1 = performance.now();
    const back = deserializeTranscript(text);
    const t2 = performance.now();
    let checked = 0;
    for (let i = 0; i < CHECKS; i++) if (fromSnapshot(parsed)) checked++;
    const t3 = performance.now();
    if (!back || checked !== CHECKS) throw new Error('the snapshot did not read back');
    if (r === 0) continue; // warm-up
    ser.push(t1 - t0);
    de.push(t2 - t1);
    check.push((t3 - t2) / CHECKS);
  }
  return {
    events,
    bytes: Buffer.byteLength(text),
    serializeMs: median(ser),
    deserializeMs: median(de),
    checkMs: median(check),
  };
}
