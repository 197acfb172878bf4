import { fork } from 'node:child_process';
import { Readable } from 'node:stream';
import { ApiClient } from '../src/core/client/client';

/**
 * Uploads a 200 MB generated body to an emulator running in a child process (so the server's
 * memory does not count) and samples this process's memory while it streams. `retained` is
 * measured after a forced GC (run with `node --expose-gc`), i.e. what the upload holds on to;
 * `rss` is the raw peak growth, including garbage not yet collected.
 */
export async function benchUpload(
  totalMb = 200,
): Promise<{ seconds: number; retainedMb: number; rssMb: number }> {
  const child = fork(require.resolve('../test/emulator/cli'), ['--no-seed'], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      const m = /URL: (\S+)/.exec(d.toString());
      if (m) resolve(m[1]);
    });
    child.once('exit', () => reject(new Error('emulator exited')));
  });
  const key = 'sk_live_denEmuPrimary7f3a9c2e51b04d68';
  const client = new ApiClient({ baseUrl: url, apiKey: () => key });
  const gc = (globalThis as { gc?: () => void }).gc;
  const mem = (): number => {
    const m = process.memoryUsage();
    return m.heapUsed + m.external + m.arrayBuffers;
  };
  gc?.();
  const base = mem();
  const baseRss = process.memoryUsage().rss;
  let retained = 0;
  let rss = 0;
  const size = totalMb * 1024 * 1024;
  const chunk = Buffer.alloc(64 * 1024, 7);
  const body = Readable.from(
    (function* () {
      for (let sent = 0; sent < size; sent += chunk.length) yield chunk;
    })(),
  );
  const timer = setInterval(() => {
    gc?.();
    retained = Math.max(retained, mem() - base);
    rss = Math.max(rss, process.memoryUsage().rss - baseRss);
  }, 50);
  const t0 = performance.now();
  try {
    const r = await client.upload({
      key: 'bench/big.bin',
      filename: 'big.bin',
      contentType: 'application/octet-stream',
      size,
      body,
    });
    if (r.size !== size) throw new Error(`server got ${r.size} of ${size} bytes`);
  } finally {
    clearInterval(timer);
    await client.close();
    child.kill('SIGTERM');
  }
  return { seconds: (performance.now() - t0) / 1000, retainedMb: retained / 2 ** 20, rssMb: rss / 2 ** 20 };
}
