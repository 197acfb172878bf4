import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import * as vscode from 'vscode';
import { waitFor } from '../support/wait';
import { useDenWith } from './fixtures';
import { signIn } from './sign-in-helpers';

/** The emulator in a process of its own, so its buffers do not count as the extension host's. */
interface EmulatorProcess {
  url: string;
  key: string;
  close(): Promise<void>;
}

async function spawnEmulator(): Promise<EmulatorProcess> {
  // dist/test/ext → dist/test/emulator/cli.js (built by `node esbuild.js --tests`)
  const cli = path.join(__dirname, '..', 'emulator', 'cli.js');
  const proc: ChildProcess = spawn(process.execPath, [cli, '--no-seed'], {
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout?.on('data', (c: Buffer) => (out += c.toString('utf8')));
  proc.stderr?.on('data', (c: Buffer) => (out += c.toString('utf8')));
  let gone = false;
  const exited = new Promise<void>((resolve) => {
    proc.once('exit', () => resolve());
    proc.once('error', () => resolve()); // could not start: there is nothing to wait for
  });
  void exited.then(() => (gone = true));
  /** Asks the process to stop, insists if it has not within 10 s, and returns once it has exited. */
  const close = async (): Promise<void> => {
    if (gone) return;
    proc.kill('SIGTERM');
    try {
      await waitFor('the emulator process to exit', () => gone, 10_000);
    } catch {
      proc.kill('SIGKILL');
    }
    await exited;
  };
  try {
    const printed = /URL: (\S+)\nAPI key: (\S+)\n/;
    const output = await waitFor('the emulator process to print its URL', () => out, {
      until: (text) => printed.test(text),
      timeoutMs: 10_000,
    });
    const [, url, key] = printed.exec(output) as RegExpExecArray;
    return { url, key, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** Heap plus memory outside it (Buffers): what streaming must keep flat. */
function memoryInUse(): number {
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

/** V8's young-generation collection: cheap, and it frees the Buffers of chunks already sent. */
function minorGc(): () => void {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as (opts?: { type: 'minor' | 'major' }) => void;
  return () => gc({ type: 'minor' });
}

/**
 * Runs `work` while sampling the extension host's memory every 10 ms; returns how far it rose above
 * the start, in MB. With `gc`, each sample follows a collection of short-lived objects, so it counts
 * what is held (a file read whole would be); without, uncollected garbage counts as well.
 */
async function memoryGrowth<T>(work: () => Thenable<T>, gc?: () => void): Promise<{ mb: number; result: T }> {
  gc?.();
  const base = memoryInUse();
  let peak = base;
  const sample = (): void => {
    gc?.();
    peak = Math.max(peak, memoryInUse());
  };
  const sampler = setInterval(sample, 10);
  try {
    const result = await work();
    sample();
    return { mb: (peak - base) / 1024 / 1024, result };
  } finally {
    clearInterval(sampler);
  }
}

/** A TCP relay to `target` that takes in at most one chunk per `delayMs`: a slow link. */
interface SlowLink {
  url: string;
  close(): Promise<void>;
}

async function startSlowLink(target: string, delayMs: number): Promise<SlowLink> {
  const up = new URL(target);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((down) => {
    const upstream = net.connect(Number(up.port), up.hostname);
    for (const s of [down, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        down.destroy();
        upstream.destroy();
      });
    }
    down.on('data', (chunk) => {
      upstream.write(chunk);
      down.pause();
      setTimeout(() => down.resume(), delayMs);
    });
    down.on('end', () => upstream.end());
    upstream.pipe(down);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Writes `size` bytes of a repeating text pattern in 1 MB steps. */
function writeBigFile(file: string, size: number): void {
  const block = Buffer.alloc(1024 * 1024, 'den streams this file. ');
  const fd = fs.openSync(file, 'w');
  try {
    for (let left = size; left > 0; left -= block.length) {
      fs.writeSync(fd, block, 0, Math.min(left, block.length));
    }
  } finally {
    fs.closeSync(fd);
  }
}

describe('Turn commands: big files', () => {
  const den = useDenWith(spawnEmulator, { spyOnPanels: true });
  let dir: string;
  let link: SlowLink | undefined;

  beforeEach(() => {
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(root, 'the test window has no workspace folder');
    dir = fs.mkdtempSync(path.join(root, 'den-big-'));
  });

  afterEach(async () => {
    await link?.close();
    link = undefined;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('Ask Agent About File streams a 20 MB file: the extension host never holds it in memory', async () => {
    const size = 20 * 1024 * 1024;
    const file = path.join(dir, 'big.log');
    writeBigFile(file, size);
    const send = (): Thenable<string | undefined> =>
      vscode.commands.executeCommand<string>('den.sendFileToAgent', {
        uri: vscode.Uri.file(file),
        task: 'Find the errors in this log',
        session: 'new',
      });

    // At full speed, with uncollected garbage: measured, loosely bounded.
    const started = performance.now();
    const peak = await memoryGrowth(send);
    const ms = performance.now() - started;
    // Over a slow link (~1 s) sampled after collections: a file read whole would be held meanwhile.
    link = await startSlowLink(den.service.url, 3);
    await signIn(den.api, link.url, den.service.key);
    const held = await memoryGrowth(send, minorGc());
    const line =
      `upload of a 20 MB file: ${Math.round(ms)} ms; extension-host heap+external rose ≤ ${peak.mb.toFixed(1)} MB ` +
      `(uncollected garbage included); held ≤ ${held.mb.toFixed(1)} MB over a slow link`;
    console.log(line);
    if (process.env.DEN_METRICS_FILE) fs.appendFileSync(process.env.DEN_METRICS_FILE, `${line}\n`);

    for (const sessionId of [peak.result, held.result]) {
      assert.ok(sessionId, den.messages.texts().join(' | '));
      const files = den.panels.calls.find((c) => c.sessionId === sessionId)?.options.turn?.files;
      assert.deepEqual(files, [{ key: `${sessionId}/big.log`, name: 'big.log', type: 'text/plain', size }]);
      const res = await fetch(`${den.service.url}/sessions/${sessionId}`, {
        headers: { authorization: `Bearer ${den.service.key}` },
      });
      const body = (await res.json()) as { messages: { files: { size: number }[] }[] };
      assert.equal(body.messages[0]?.files[0]?.size, size, 'the service did not receive every byte');
    }
    // A file read whole is held for the whole upload (20 MB, more with the request body).
    assert.ok(held.mb < 8, `${held.mb.toFixed(1)} MB stayed in use while sending a 20 MB file`);
    // Garbage of the streamed chunks is collected in V8's own time: a generous bound.
    assert.ok(peak.mb < 64, `memory rose by ${peak.mb.toFixed(1)} MB while sending a 20 MB file`);
  });
});
