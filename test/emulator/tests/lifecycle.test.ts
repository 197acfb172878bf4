import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const EMULATOR = resolve(__dirname, '../../emulator/index.js');
const CLI = resolve(__dirname, '../../emulator/cli.js');
const WAIT = resolve(__dirname, '../../support/wait.js');

/** How long a child may run before it counts as hung (a guard, far above what it needs). */
const HUNG_MS = 20_000;

/** Runs node with `args` and resolves with its exit code and output, killing it after `ms`. */
function runNode(
  args: string[],
  ms: number,
  onStdout?: (text: string, kill: (signal: NodeJS.Signals) => void) => void,
): Promise<{
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
  timedOut: boolean;
}> {
  return new Promise((done) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, ms);
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      onStdout?.(out, (s) => child.kill(s));
    });
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, out, err, timedOut });
    });
  });
}

describe('emulator: lifecycle', () => {
  it('leaves no open handles after close(), even with turns, sockets and streams in flight', async () => {
    const script = `
      const { startEmulator } = require(${JSON.stringify(EMULATOR)});
      const WebSocket = require(${JSON.stringify(require.resolve('ws'))});
      const { waitFor } = require(${JSON.stringify(WAIT)});
      (async () => {
        const emu = await startEmulator({ eventDelayMs: 20 });
        const auth = { Authorization: 'Bearer ' + emu.keys.primary, 'Content-Type': 'application/json' };
        const sid = '11111111-1111-4111-8111-111111111111';
        const r = await fetch(emu.url + '/sessions/new', { method: 'POST', headers: auth,
          body: JSON.stringify({ session_id: sid, task: 'slow work', mode: 'code' }) });
        const t = await r.json();
        await fetch(emu.url + '/sessions/new', { method: 'POST', headers: auth,
          body: JSON.stringify({ session_id: sid, task: 'queued work' }) });
        const ws = new WebSocket(emu.url.replace('http', 'ws') + '/ws/sessions/' + sid + '?token=' + emu.keys.primary + '&message_id=' + t.agent_message_id);
        ws.on('error', () => {});
        await new Promise((res) => ws.once('message', res));
        const rejected = new WebSocket(emu.url.replace('http', 'ws') + '/ws/sessions/' + sid + '?token=bad');
        rejected.on('error', () => {});
        emu.faults = { reorderRate: 1, latencyMs: 60000 };
        fetch(emu.url + '/sessions', { headers: auth }).catch(() => {});
        fetch(emu.url + '/lam/run', { method: 'POST', headers: { 'service-secret-key': emu.keys.primary },
          body: JSON.stringify({ query: 'q', stream: true }) }).then((x) => x.text()).catch(() => {});
        // Both requests held by the latency (polled: the emulator gives no event for it).
        await waitFor('both requests to be held', () => emu.requestsInFlight >= 2);
        await emu.close();
        console.log('closed');
      })().catch((e) => { console.error(e); process.exit(2); });
    `;
    const r = await runNode(['-e', script], HUNG_MS);
    assert.equal(r.timedOut, false, `the process did not exit after close(); stderr: ${r.err}`);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /closed/);
  });

  it('runs the CLI: prints the URL and three keys, serves, and exits cleanly on SIGTERM', async () => {
    let url = '';
    const r = await runNode([CLI, '--extra-sessions', '3', '--no-seed'], HUNG_MS, (out, kill) => {
      if (url || !out.includes('Read-only key:')) return;
      url = /^URL: (\S+)$/m.exec(out)?.[1] ?? '';
      const key = /^API key: (\S+)$/m.exec(out)?.[1] ?? '';
      void fetch(`${url}/sessions`, { headers: { Authorization: `Bearer ${key}` } })
        .then((res) => res.json())
        .then((body: { meta: { total_count: number } }) => {
          url = `${url} total=${body.meta.total_count}`;
          kill('SIGTERM');
        });
    });
    assert.equal(r.code, 0, r.err);
    const lines = r.out.trim().split('\n');
    assert.equal(lines.length, 4);
    assert.match(lines[0], /^URL: http:\/\/127\.0\.0\.1:\d+$/);
    assert.match(lines[1], /^API key: sk_live_\w+$/);
    assert.match(lines[2], /^Second user's key: sk_live_\w+$/);
    assert.match(lines[3], /^Read-only key: sk_live_\w+$/);
    assert.match(url, / total=3$/);
  });
});
