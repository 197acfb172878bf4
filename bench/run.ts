import { benchPipeline } from './pipeline';
import { benchResume } from './resume';

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
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
