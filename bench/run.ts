import fs from 'node:fs';
import path from 'node:path';
import { benchBatcher } from './batcher';
import { benchCache } from './cache';
import { benchHunks } from './hunks';
import { benchPanel } from './panel';
import { benchResume } from './resume';
import { benchFind, benchIndex } from './search';
import { benchSessionsPage } from './sessions-page';
import { benchUpload } from './upload';
import { benchWebTask } from './webtask';
import { benchWorkbench, type OpenSteps, type Spread } from './workbench';
import { benchWorkbenchFind, type KeyTimes } from './workbench-find';

/** Where an open's time went before its first paint. */
function steps(o: OpenSteps): string {
  return `(iframe added ${o.frameMs.toFixed(0)} ms, page written ${o.pageMs.toFixed(0)} ms, init reached it ${o.initMs.toFixed(0)} ms, ${(o.initBytes / 1e3).toFixed(0)} KB)`;
}

/** Median and max of key → painted, Den against the floor, with the ratio of the medians. */
function keys(k: KeyTimes): string {
  const med = (a: number[]): number => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)] ?? NaN;
  const max = (a: number[]): number => Math.max(...a);
  return (
    `median ${med(k.den).toFixed(0)} ms, max ${max(k.den).toFixed(0)} ms; floor (bare input) median ${med(k.floor).toFixed(0)} ms, ` +
    `max ${max(k.floor).toFixed(0)} ms; ${(med(k.den) / med(k.floor)).toFixed(2)}×`
  );
}

/**
 * `npm run bench`: prints each benchmark's numbers, with ratios against a baseline measured in the
 * same run. Copy the output into docs/benchmarks.md with the date and the machine.
 */
async function main(): Promise<void> {
  const only = process.argv[2];
  if (!only || only === 'pipeline') {
    // The bundled build (esbuild.js --tests): the shipping code is one bundle, not a file per module.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { benchPipeline } = require('./pipeline.bundle.js') as typeof import('./pipeline');
    const r = await benchPipeline();
    console.log(
      `pipeline: bare ws+JSON.parse ${Math.round(r.bare)} events/s; Den stream+reducer ${Math.round(r.den)} events/s; ` +
        `ratio ${(r.ratio * 100).toFixed(1)} % (targets: ≥ 50,000 events/s and ≥ 80 %); median run ` +
        `bare ${r.bareMs.toFixed(0)} ms (GC ${r.bareGcMs.toFixed(0)} ms), Den ${r.denMs.toFixed(0)} ms (GC ${r.denGcMs.toFixed(0)} ms)`,
    );
  }
  if (!only || only === 'resume') {
    const r = await benchResume();
    console.log(
      `resume: ${r.drops} forced drops; drop → next event p50 ${r.p50Ms.toFixed(0)} ms, p99 ${r.p99Ms.toFixed(0)} ms, ` +
        `max ${r.maxMs.toFixed(0)} ms; lost ${r.lost}, duplicated ${r.duplicated} (target: ≤ 2,000 ms, 0, 0)`,
    );
  }
  if (!only || only === 'sessions') {
    const r = await benchSessionsPage();
    console.log(
      `sessions: first page of 10,000 (${r.listed} listed): bare fetch+JSON.parse ${r.bareMs.toFixed(1)} ms; ` +
        `Den client+normalize+list ${r.denMs.toFixed(1)} ms; Den's own cost ${r.overheadMs.toFixed(1)} ms (target: page shown ≤ 200 ms after the server answers)`,
    );
  }
  if (!only || only === 'cache') {
    const r = benchCache();
    console.log(
      `cache: ${r.events}-event transcript (${(r.bytes / 1e6).toFixed(1)} MB): serialize ${r.serializeMs.toFixed(1)} ms; ` +
        `deserialize ${r.deserializeMs.toFixed(1)} ms, of which the shape check ${r.checkMs.toFixed(2)} ms (median of 30)`,
    );
  }
  if (!only || only === 'hunks') {
    const r = benchHunks();
    const x = (ms: number, base: number) => `${ms.toFixed(2)} ms (${(ms / base).toFixed(2)}× the merge)`;
    console.log(
      `hunks: a turn of ${r.files} files with ${r.hunks.toLocaleString('en-US')} hunks: every file's hunks and states ${x(r.reviewMs, r.mergeAllMs)}, ` +
        `baseline the three-way merge of every file ${r.mergeAllMs.toFixed(2)} ms; one hunk accepted + the file's hunks again, median ${x(r.actionMs, r.mergeOneMs)}, ` +
        `p99 ${r.actionP99Ms.toFixed(2)} ms over ${r.actions} actions, baseline one file's merge ${r.mergeOneMs.toFixed(2)} ms; ` +
        `in one file of ${r.bigHunks.toLocaleString('en-US')} hunks ${x(r.bigActionMs, r.bigMergeMs)}, its merge ${r.bigMergeMs.toFixed(2)} ms ` +
        `(targets: states of 200 files ≤ 200 ms; each action ≤ 100 ms to the edited text)`,
    );
  }
  if (!only || only === 'webtask') {
    const r = benchWebTask();
    const x = (ms: number) => `${ms.toFixed(1)} ms (${(ms / r.baselineMs).toFixed(1)}×)`;
    console.log(
      `webtask: ${r.rows.toLocaleString('en-US')} rows (CSV ${(r.csvBytes / 1e6).toFixed(1)} MB); baseline JSON.stringify ${r.baselineMs.toFixed(1)} ms; ` +
        `CSV ${x(r.csvMs)}, JSONL ${x(r.jsonlMs)}, JSON ${x(r.jsonMs)} (target: export ≤ 1,000 ms); ` +
        `check ${x(r.checkMs)}, table ${x(r.tableMs)}, sort ${r.sortMs.toFixed(1)} ms, filter ${r.filterMs.toFixed(1)} ms, compare with a rerun ${x(r.compareMs)}`,
    );
  }
  if (!only || only === 'find') {
    const r = await benchFind();
    const rows = r.rows
      .map(
        (x) =>
          `${x.query} ${x.ms.toFixed(1)} ms (${(x.ms / r.baselineMs).toFixed(1)}×, ${x.count}${x.capped ? '+' : ''} matches)`,
      )
      .join('; ');
    console.log(
      `find: ${r.events.toLocaleString('en-US')}-event session, ${r.fields.toLocaleString('en-US')} fields, ${(r.textChars / 1e6).toFixed(1)} M chars; ` +
        `flatten ${r.flattenMs.toFixed(1)} ms; baseline indexOf over the fields ${r.baselineMs.toFixed(1)} ms; ${rows}; ` +
        `per event: reducer ${r.reducerUsPerEvent.toFixed(2)} µs, with the fields kept current ${r.withFieldsUsPerEvent.toFixed(2)} µs ` +
        `(${(r.withFieldsUsPerEvent / r.reducerUsPerEvent).toFixed(2)}×) (target: first results ≤ 100 ms)`,
    );
  }
  if (!only || only === 'search') {
    const r = await benchIndex();
    const rows = r.rows
      .map(
        (x) =>
          `${x.query} ${x.ms.toFixed(1)} ms, first answer ${x.firstMs.toFixed(1)} ms (${(x.ms / x.baselineMs).toFixed(2)}× the scan's ${x.baselineMs.toFixed(0)} ms; ${x.hits}${x.capped ? '+' : ''} hits in ${x.sessions} sessions)`,
      )
      .join('; ');
    console.log(
      `search: ${r.sessions} sessions, ${(r.rawBytes / 1e6).toFixed(0)} MB of transcripts; build ${(r.buildMs / 1e3).toFixed(1)} s ` +
        `(${(r.rawBytes / 1e6 / (r.buildMs / 1e3)).toFixed(1)} MB/s); index ${(r.indexBytes / 1e6).toFixed(0)} MB on disk ` +
        `(${((r.indexBytes / r.rawBytes) * 100).toFixed(0)} % of the transcripts); heap while indexing ${r.heapBeforeMb.toFixed(0)} → peak ${r.heapPeakMb.toFixed(0)} MB; ` +
        `reopen (filters read) ${r.openMs.toFixed(0)} ms; ${rows} (target: ≤ 300 ms)`,
    );
  }
  if (!only || only === 'batcher') {
    for (const r of benchBatcher()) {
      console.log(
        `batcher (fake clock): ${r.stream}: ${r.postsPerSecond.toFixed(1)} posts/s, ${r.mostInASecond} in the busiest second; ` +
          `an event's wait for its post p50 ${r.waitP50.toFixed(0)} / p99 ${r.waitP99.toFixed(0)} / max ${r.waitMax.toFixed(0)} ms (target: ≤ 60 posts/s, a post a frame; ≤ 30 in any second of a burst)`,
      );
    }
  }
  if (!only || only === 'panel') {
    const { reopen, live, large } = await benchPanel();
    console.log(
      `panel reopen: ${reopen.events} events (${(reopen.cacheBytes / 1e6).toFixed(1)} MB cache file): cache read → painted median ${reopen.totalMs.toFixed(0)} ms ` +
        `(read+deserialize+init ${reopen.nodeMs.toFixed(0)} ms, post → 2 frames in page ${reopen.pageMs.toFixed(0)} ms; runs ${reopen.runs.map((x) => x.toFixed(0)).join(', ')}) (target: first paint ≤ 300 ms)`,
    );
    console.log(
      `panel live: ${live.events} events at 200/s through DeltaBatcher; event → in DOM p50 ${live.p50Ms.toFixed(0)} ms, p99 ${live.p99Ms.toFixed(0)} ms, ` +
        `max ${live.maxMs.toFixed(0)} ms (${live.measured} measured, ${live.missing} missing) (target: p99 ≤ 100 ms)`,
    );
    console.log(
      `panel posts: ${live.postsPerSecond.toFixed(1)} posts/s average, ${live.maxPostsInOneSecond} in the busiest second (target: ≤ 60 posts/s at 200 events/s, a post a frame)`,
    );
    console.log(
      `panel large: ${large.events}-event answer: JS heap after GC ${large.heapMb.toFixed(1)} MB, ${large.domNodes} DOM nodes (target: ≤ 150 MB)`,
    );
    console.log(
      `panel scroll: top → bottom in ${large.scrollSteps} steps of 80 % of the viewport, ${large.scrollMs.toFixed(0)} ms; frame p95 ${large.p95FrameMs.toFixed(1)} ms, ` +
        `max ${large.maxFrameMs.toFixed(1)} ms (target: scrolling responsive)`,
    );
  }
  if (!only || only === 'upload') {
    const r = await benchUpload();
    console.log(
      `upload: 200 MB in ${r.seconds.toFixed(1)} s; memory held after GC peaked at +${r.retainedMb.toFixed(1)} MB; ` +
        `raw RSS peak +${r.rssMb.toFixed(1)} MB (targets: streamed, ≤ 20 MB growth, ≤ 10 s)${
          (globalThis as { gc?: unknown }).gc ? '' : ' — run with node --expose-gc for the held figure'
        }`,
    );
  }
  // Not part of a plain `npm run bench`: it needs the packaged .vsix and code-server, and takes minutes.
  if (only === 'workbench') {
    const r = await benchWorkbench();
    const ms = (s: Spread) =>
      `p50 ${s.p50.toFixed(0)} / p95 ${s.p95.toFixed(0)} / p99 ${s.p99.toFixed(0)} / max ${s.max.toFixed(0)} ms (n ${s.n})`;
    for (const [name, runs] of [
      ['quiet', r.quiet],
      ['loaded', r.loaded],
    ] as const) {
      for (const run of runs) {
        console.log(
          `workbench live ${name} (200 events/s): painted ${ms(run.painted)}; reached the page ${ms(run.arrived)}; floor ${ms(run.floor)}; missing ${run.missing}; ` +
            `${run.postsPerSecond.toFixed(1)} posts/s, ${run.bytesPerPost.toFixed(0)} bytes/post; split: batch wait ${ms(run.split.batchWait)}, ` +
            `the way to the page ${ms(run.split.way)}, the page ${ms(run.split.page)} ` +
            `(its frames: the wait for the frame ${ms(run.split.frameWait)}, Den's work in it ${ms(run.split.frameRun)}) (targets: painted p50 ≤ 25 ms, p99 ≤ 60 ms quiet, ≤ 80 ms loaded)`,
        );
      }
    }
    if (r.burst)
      console.log(
        `workbench burst (10,000 events): painted ${ms(r.burst.painted)}; floor ${ms(r.burst.floor)}; all painted ${r.burst.allPaintedMs.toFixed(0)} ms after the first emit; ` +
          `missing ${r.burst.missing}; ${r.burst.postsPerSecond.toFixed(1)} posts/s, ${r.burst.bytesPerPost.toFixed(0)} bytes/post`,
      );
    for (const o of r.reopen ?? [])
      console.log(
        `workbench reopen (10,000 events, cached): click → first paint ${o.firstPaintMs.toFixed(0)} ms, → caught up ${o.caughtUpMs.toFixed(0)} ms; ` +
          `${steps(o)}; floor (bare fetch + parse of the history) ${o.floorMs.toFixed(0)} ms (target: first paint ≤ 150 ms)`,
      );
    for (const o of r.switch ?? [])
      console.log(
        `workbench switch (the preview panel → the cached 10,000-event session): click (the row's mousedown) → first paint ${o.firstPaintMs.toFixed(0)} ms ` +
          `(${o.harnessFirstPaintMs.toFixed(0)} ms from the harness's click call), → caught up ${o.caughtUpMs.toFixed(0)} ms; ` +
          `init reached the page ${o.initMs.toFixed(0)} ms (${(o.initBytes / 1000).toFixed(0)} KB)${o.newFrame ? '; VS Code made a new webview' : ', the same webview'}; ` +
          `floor (bare fetch + parse of the history) ${o.floorMs.toFixed(0)} ms (target: first paint ≤ 150 ms); ` +
          `back to the short session: its init reached the page ${o.shortInitMs.toFixed(0)} ms (${(o.shortInitBytes / 1000).toFixed(1)} KB)`,
      );
    for (const o of r.open ?? [])
      console.log(
        `workbench open (20,000 events, no cache): click → first paint ${o.firstPaintMs.toFixed(0)} ms, → last chunk ${o.lastChunkMs.toFixed(0)} ms; ` +
          `${steps(o)}; floor ${o.floorMs.toFixed(0)} ms (target: all shown ≤ 1,000 ms)`,
      );
    for (const o of r.tree ?? [])
      console.log(
        `workbench tree (10,000 sessions): the service answered the first page → the first row shown ${o.firstRowMs.toFixed(0)} ms after a window reload ` +
          `(floor extension, same reload${o.floorHeld ? ", its answer held until Den's went" : ''}${o.floorReadSecret ? ', reading SecretStorage first' : ''}: ${o.floorRowMs.toFixed(0)} ms; answered ${o.answeredMs.toFixed(0)} / ${o.floorAnsweredMs.toFixed(0)} ms, ` +
          `shown ${o.shownMs.toFixed(0)} / ${o.floorShownMs.toFixed(0)} ms after the reload began, Den / floor), ` +
          `a new session's row ${o.refreshRowMs.toFixed(0)} ms after a refresh (target: ≤ 200 ms); a bare fetch of the page ${o.floorMs.toFixed(0)} ms; load ${o.load.toFixed(1)}`,
      );
    for (const o of r.treeFloorAlone ?? [])
      console.log(
        `workbench tree floor alone (Explorer shown, Den ${o.denAsked ? 'asked for the page after all' : 'not activated'}): the floor extension's answer → its first row ${o.floorRowMs.toFixed(0)} ms after a window reload ` +
          `(answered ${o.floorAnsweredMs.toFixed(0)} ms, shown ${o.floorShownMs.toFixed(0)} ms after the reload began); load ${o.load.toFixed(1)}`,
      );
    if (r.heap)
      console.log(
        `workbench heap: extension host after GC ${r.heap.beforeMb.toFixed(1)} MB → ${r.heap.halfMb.toFixed(1)} MB after opening and closing 50 sessions → ${r.heap.afterMb.toFixed(1)} MB after 100`,
      );
    const out = path.join('dist', 'bench', 'workbench.json');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify(r, null, 2));
    console.log(`workbench: every figure in ${out}`);
  }
  // Not part of a plain `npm run bench` either: the packaged .vsix, code-server, Chromium.
  if (only === 'workbench-find') {
    const r = await benchWorkbenchFind();
    for (const f of r.find) {
      const last = { den: f.typing.den.slice(-1), floor: f.typing.floor.slice(-1) };
      console.log(
        `workbench find "${f.query}" (${f.count}) in 50,000 events: the last key typed → painted ${keys(last)} (target ≤ 100 ms); ` +
          `every key ${keys(f.typing)}; next ${keys(f.next)}; previous ${keys(f.previous)} (target ≤ 50 ms); ` +
          `${f.notShown} steps without the match in view`,
      );
    }
    for (const s of r.scroll) {
      const a = s.attribution;
      console.log(
        `workbench scroll ${s.label} 20,000 events / 2,000 tools top → bottom (${s.px} px, ${s.frames} frames): long tasks ≥ 50 ms ${s.longTasks}, ` +
          `the longest [${s.longest.join(', ')}] ms; in them GC ${a.gcMs} ms, style + layout ${a.styleLayoutMs} ms, paint ${a.paintMs} ms, ` +
          `script ${a.script.map((f) => `${f.fn} ${f.ms}`).join('; ')}; frame p95 ${s.frameP95.toFixed(1)} ms, max ${s.frameMax.toFixed(1)} ms; ` +
          `webview longtask entries [${s.observed.join(', ')}] (target: none over 50 ms)`,
      );
    }
    const out = path.join('dist', 'bench', 'workbench-find.json');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify(r, null, 2));
    console.log(`workbench-find: every figure in ${out}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
