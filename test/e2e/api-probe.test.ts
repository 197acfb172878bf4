/**
 * Den's `exports` in Production mode (the packaged .vsix, installed as a person installs it):
 * another installed extension (test/api-probe) runs a turn through the public API from its own
 * command, sees exactly the API's members and nothing of the key, and finds nothing on the slot Den
 * uses for its own tests (it is filled only in Test mode). Screenshot looked at:
 * `shots/api-probe.png` (the probe's summary notification).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../harness/paths';
import { runCommand } from '../harness/workbench';
import { waitFor } from '../support/wait';
import { shot } from './sessions-view';
import { useSignedInWorkbench } from './signed-in';

const PUBLIC_MEMBERS = [
  'answerTurn',
  'apiVersion',
  'followTurn',
  'getSession',
  'onDidChangeSession',
  'openSession',
  'reviewChanges',
  'runWebTask',
  'startTurn',
  'stopTurn',
];

interface ProbeReport {
  probeMode: number;
  denFound: boolean;
  exportKeys: string[];
  testChannel: boolean;
  turn: { status?: string; error?: string };
  walk: { strings: string[]; objects: unknown[]; truncated: boolean };
}

describe("Another installed extension and the packaged Den's exports", function () {
  this.timeout(180_000);
  // Made when the suite runs, not when mocha loads the file (a filtered run would leave it behind).
  const dir = path.join(os.tmpdir(), `den-api-probe-${process.pid}-${Date.now()}`);
  const reportFile = path.join(dir, 'report.json');
  before(() => fs.mkdirSync(dir, { recursive: true }));
  const t = useSignedInWorkbench('api-probe', {
    emulator: {},
    extensions: [path.join(repoRoot(), 'test', 'api-probe')],
    env: { DEN_API_PROBE_REPORT: reportFile },
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('sees only the public API, follows a turn through it, reaches no key, and finds no test slot in Production', async () => {
    await runCommand(t.page, 'Den API Probe: Run');
    const report = await waitFor(
      'the probe to write its report',
      () =>
        fs.existsSync(reportFile)
          ? (JSON.parse(fs.readFileSync(reportFile, 'utf8')) as ProbeReport)
          : undefined,
      { timeoutMs: 90_000, intervalMs: 200 },
    );
    assert.equal(report.denFound, true);
    assert.equal(report.probeMode, 1, 'the probe runs as an installed extension (Production)');
    assert.deepEqual([...report.exportKeys].sort(), PUBLIC_MEMBERS);
    assert.equal(report.turn.status, 'completed', JSON.stringify(report.turn));
    assert.equal(report.testChannel, false, 'Den published its internals outside Test mode');
    const key = t.emu.keys.primary;
    assert.equal(report.walk.truncated, false);
    assert.equal(report.walk.strings.filter((s) => s.includes(key)).length, 0, 'the probe read the key');
    await t.page.locator('.notification-toast', { hasText: 'Den API probe' }).first().waitFor();
    await shot(t.wb, 'api-probe');
  });
});
