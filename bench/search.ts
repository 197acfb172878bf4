/**
 * Issue 25's search, measured in plain Node: Find in a 50,000-event session (the fields, a find,
 * the cost of keeping the fields current per event), and Search session contents over 1,000
 * generated sessions (≈ 200 MB of serialized transcripts): the index's build throughput, its size
 * against the raw transcript bytes, the heap while indexing, and queries. Baselines run in the same
 * process: a plain `indexOf` scan over the same texts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { flattenTranscript, TranscriptFields } from '../src/core/search/fields';
import { findInFields } from '../src/core/search/find';
import { compileQuery, type CompiledQuery, type MatchOptions } from '../src/core/search/matcher';
import type { Block, Transcript, Turn } from '../src/core/transcript/model';
import { applyEvent, beginTurn, createTranscript } from '../src/core/transcript/reducer';
import { serializeTranscript } from '../src/core/transcript/serialize';
import { folderStore } from '../src/model/search/search-store';
import { decodeText } from '../src/model/search/session-blobs';
import { SessionSearchIndex } from '../src/model/search/session-index';
import { eventFactory } from '../test/support/events';
import { seededRandom as rng } from '../test/unit/core/transcript/helpers';
import { foldedTranscript } from './panel';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function compiled(query: string, options?: MatchOptions): CompiledQuery {
  const q = compileQuery(query, options);
  if (!q.ok) throw new Error(`bench query does not compile: ${query}`);
  return q;
}

/** Median ms of `run` over `rounds` after a warm-up. */
async function timed<T>(rounds: number, run: () => T | Promise<T>): Promise<{ ms: number; last: T }> {
  let last = await run();
  const xs: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const t0 = performance.now();
    last = await run();
    xs.push(performance.now() - t0);
  }
  return { ms: median(xs), last };
}

/** The baseline: every occurrence of `needle` in the texts by `indexOf` (case as given, no cap). */
function indexOfCount(texts: Iterable<string>, needle: string): number {
  let n = 0;
  for (const t of texts)
    for (let i = t.indexOf(needle); i >= 0; i = t.indexOf(needle, i + needle.length)) n++;
  return n;
}

export interface FindRow {
  query: string;
  ms: number;
  count: number;
  capped: boolean;
}

export interface FindResultBench {
  events: number;
  fields: number;
  textChars: number;
  flattenMs: number;
  baselineMs: number;
  rows: FindRow[];
  /** Per event: the reducer alone, and the reducer + `TranscriptFields.apply`. */
  reducerUsPerEvent: number;
  withFieldsUsPerEvent: number;
}

export async function benchFind(): Promise<FindResultBench> {
  const t = foldedTranscript(50, 1_000);
  const flat = await timed(5, () => flattenTranscript(t));
  const fields = flat.last;
  const texts = fields.map((f) => f.text);
  const baseline = await timed(9, () => indexOfCount(texts, 'case12'));
  const rows: FindRow[] = [];
  const queries: [string, MatchOptions][] = [
    ['case12', {}],
    ['case12', { matchCase: true }],
    ['normalizer', { wholeWord: true }],
    ['compiled src/m\\d+\\.ts', { regex: true }],
    ['zzqxv', {}],
  ];
  for (const [query, options] of queries) {
    const q = compiled(query, options);
    const r = await timed(9, () => findInFields(fields, q));
    const label = `${query}${options.matchCase ? ' (case)' : ''}${options.wholeWord ? ' (word)' : ''}${options.regex ? ' (regex)' : ''}`;
    rows.push({ query: label, ms: r.ms, count: r.last.count, capped: r.last.capped });
  }
  // Streaming: the same events folded with and without keeping the fields current.
  const events = 20_000;
  const fold = (withFields: boolean): number => {
    const live = createTranscript('s');
    const kept = withFields ? new TranscriptFields(live) : undefined;
    const e = eventFactory();
    const cs0 = beginTurn(live, { agentMessageId: 'a', text: 'go' });
    kept?.apply(cs0);
    const evs = [];
    for (let i = 0; i < events; i++) {
      if (i % 500 === 0) evs.push(e('tool.start', { tool_name: 'run_command' }, `tool:run_command:${i}`));
      else if (i % 500 < 200)
        evs.push(
          e(
            'tool.log',
            { stream: 'stdout', data: `line ${i} compiled\n` },
            `tool:run_command:${i - (i % 500)}`,
          ),
        );
      else if (i % 500 < 300) evs.push(e('thought', { thought: `thinking ${i} ` }));
      else evs.push(e('markdown.chunk', { delta: ` word ${i},` }));
    }
    const t0 = performance.now();
    for (const ev of evs) {
      const cs = applyEvent(live, 'a', ev);
      kept?.apply(cs);
    }
    return ((performance.now() - t0) * 1_000) / events;
  };
  const reducer: number[] = [];
  const withFields: number[] = [];
  for (let r = 0; r < 6; r++) {
    reducer.push(fold(false));
    withFields.push(fold(true));
  }
  return {
    events: 50_000,
    fields: fields.length,
    textChars: texts.reduce((n, s) => n + s.length, 0),
    flattenMs: flat.ms,
    baselineMs: baseline.ms,
    rows,
    reducerUsPerEvent: median(reducer.slice(1)),
    withFieldsUsPerEvent: median(withFields.slice(1)),
  };
}

const SYLLABLES = [
  'ka',
  'lo',
  'mi',
  're',
  'su',
  'ta',
  'ven',
  'dor',
  'pix',
  'qua',
  'zel',
  'bri',
  'fon',
  'gru',
  'hep',
];
/** 4,000 pseudo-words; drawn with a skew so some are common, most rare. */
const VOCAB = (() => {
  const r = rng(7);
  const out = new Set<string>();
  while (out.size < 4_000) {
    const n = 2 + Math.floor(r() * 3);
    let w = '';
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(r() * SYLLABLES.length)];
    out.add(w);
  }
  return [...out];
})();

function words(r: () => number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(VOCAB[Math.floor(r() ** 3 * VOCAB.length)]);
  return out.join(' ');
}

/** Session `i`: 8 turns of a request, a thought, tool runs with parameters and logs, an answer. */
export function syntheticSession(i: number): Transcript {
  const r = rng(1_000 + i);
  const t = createTranscript(`session-${String(i).padStart(4, '0')}`, `Session ${i}: ${words(r, 4)}`);
  for (let k = 0; k < 8; k++) {
    const turnId = `agent-${i}-${k}`;
    const blocks: Block[] = [{ type: 'thought', id: 'thought:main', text: words(r, 180), final: true }];
    for (let j = 0; j < 5; j++) {
      const log = Array.from({ length: 30 }, (_, n) => `step ${n}: ${words(r, 6)} ok\n`).join('');
      blocks.push({
        type: 'tool',
        id: `tool:run_command:${j}`,
        name: j % 2 ? 'run_command' : 'write_file',
        parameters:
          j % 2
            ? { command: `npm test -- --grep ${words(r, 2)}` }
            : { path: `src/${words(r, 1)}.ts`, content: words(r, 150) },
        log: { segments: [{ stream: 'stdout', data: log }], chars: log.length, truncatedChars: 0 },
        status: j === 4 && k % 3 === 0 ? 'error' : 'success',
        output: j === 4 && k % 3 === 0 ? `ticket-${i} failed: ${words(r, 8)}` : 'ok',
      });
    }
    blocks.push({ type: 'markdown', id: 'answer:main', text: words(r, 750), final: true });
    const turn: Turn = {
      userMessage: {
        id: `u-${i}-${k}`,
        text: `Request ${k}: ${words(r, 20)}`,
        files: [],
        createdAt: 1_700_000_000_000 + k,
      },
      agentMessageId: turnId,
      status: 'completed',
      blocks,
      files: [],
      lastEventId: 100,
    };
    t.turns.push(turn);
  }
  return t;
}

export interface QueryRow {
  query: string;
  ms: number;
  /** Until the view's first answer: a partial (hits so far, sessions read) or the whole result. */
  firstMs: number;
  baselineMs: number;
  hits: number;
  sessions: number;
  capped: boolean;
}

export interface IndexBench {
  sessions: number;
  rawBytes: number;
  buildMs: number;
  indexBytes: number;
  heapPeakMb: number;
  heapBeforeMb: number;
  openMs: number;
  rows: QueryRow[];
}

function heapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 1e6;
}

export async function benchIndex(count = 1_000): Promise<IndexBench> {
  const dir = await mkdtemp(join(tmpdir(), 'den-bench-search-'));
  try {
    const heapBefore = heapMb();
    let heapPeak = heapBefore;
    const index = new SessionSearchIndex({ store: folderStore(dir), maxBytes: 1024 * 1024 * 1024 });
    let rawBytes = 0;
    let buildMs = 0;
    for (let i = 0; i < count; i++) {
      const t = syntheticSession(i);
      rawBytes += Buffer.byteLength(serializeTranscript(t));
      const t0 = performance.now();
      await index.putTranscript(t);
      buildMs += performance.now() - t0;
      if (i % 100 === 99) heapPeak = Math.max(heapPeak, heapMb());
    }
    const { bytes } = await index.stats();
    // A fresh index, as after a restart: it reads the filters only.
    const t0 = performance.now();
    const reopened = new SessionSearchIndex({ store: folderStore(dir), maxBytes: 1024 * 1024 * 1024 });
    await reopened.open();
    const openMs = performance.now() - t0;
    // The baseline reads every session's text and scans it with indexOf (no filter, no cap).
    const store = folderStore(dir);
    const names = (await store.list()).filter((n) => n.endsWith('.txt'));
    const brute = async (needle: string): Promise<number> => {
      let n = 0;
      for (const name of names) {
        const bytes = await store.read(name);
        if (bytes) n += indexOfCount([decodeText(bytes)?.text ?? ''], needle);
      }
      return n;
    };
    const queries: [string, MatchOptions, string][] = [
      ['ticket-537 failed', {}, 'ticket-537 failed'],
      ['zzqxv', {}, 'zzqxv'],
      [VOCAB[0], { wholeWord: true }, VOCAB[0]],
      [VOCAB[1_500], {}, VOCAB[1_500]],
      ['ticket-9\\d\\d failed', { regex: true }, 'ticket-9'],
      // No literal of 3 characters, but its class spelled out gives trigram sets (`0zz` … `9zz`).
      ['[0-9]{3}zz', { regex: true }, 'zz'],
      // `\d{4}` alone is 10,000 trigrams; the run goes on after it (`0zz` … `9zz`) and folds (`##z`).
      ['\\d{4}zz', { regex: true }, 'zz'],
      // Only digits: the folded trigram `###` (any three digits in a row).
      ['\\d{6}', { regex: true }, '0'],
      // Nothing of 3 characters known at all: every session is read (the floor of a search).
      ['z.{2}q\\d', { regex: true }, 'q'],
    ];
    const rows: QueryRow[] = [];
    for (const [query, options, needle] of queries) {
      const r = await timed(5, () => reopened.search(query, options));
      // What the view shows first: the answer, or before it a partial (every 150 ms, as the view).
      const firsts: number[] = [];
      for (let k = 0; k < 5; k++) {
        const t0 = performance.now();
        let at: number | undefined;
        await reopened.search(query, options, { onPartial: () => (at ??= performance.now() - t0) });
        firsts.push(at ?? performance.now() - t0);
      }
      const b = await timed(2, () => brute(needle));
      if (!r.last.ok) throw new Error(r.last.detail);
      rows.push({
        query: `${query}${options.wholeWord ? ' (word)' : ''}${options.regex ? ' (regex)' : ''}`,
        ms: r.ms,
        firstMs: median(firsts),
        baselineMs: b.ms,
        hits: r.last.count,
        sessions: r.last.sessions.length,
        capped: r.last.capped,
      });
    }
    return {
      sessions: count,
      rawBytes,
      buildMs,
      indexBytes: bytes,
      heapBeforeMb: heapBefore,
      heapPeakMb: heapPeak,
      openMs,
      rows,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
