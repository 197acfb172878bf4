import { benchPipeline } from './pipeline';
import { benchResume } from './resume';
import { benchSessionsPage } from './sessions-page';
import { benchUpload } from './upload';

/**
 * `npm run bench`: prints each benchmark's numbers, with ratios against a baseline measured in the
 * same run. Copy the output into docs/benchmarks.md with the date and the machine.
 */
async function main(): Promise<void> {
  const only = process.argv[2];
  if (!only || only === 'pipeline') {
    const r = await benchPipeline();
    console.log(
      `pipeline: bare ws+JSON.parse ${Math.round(r.bare)} events/s; Den stream+reducer ${Math.round(r.den)} events/s; ` +
        `ratio ${(r.ratio * 100).toFixed(1)} % (targets: ≥ 50,000 events/s and ≥ 25 %)`,
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
  if (!only || only === 'upload') {
    const r = await benchUpload();
    console.log(
      `upload: 200 MB in ${r.seconds.toFixed(1)} s; memory held after GC peaked at +${r.retainedMb.toFixed(1)} MB; ` +
        `raw RSS peak +${r.rssMb.toFixed(1)} MB (target: streamed, ≤ 20 MB growth)${
          (globalThis as { gc?: unknown }).gc ? '' : ' — run with node --expose-gc for the held figure'
        }`,
    );
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
