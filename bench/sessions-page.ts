import { ApiClient } from '../src/core/client/client';
import { SessionList } from '../src/model/sessions-list/session-list';
import { startEmulator } from '../test/emulator';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * First page of a 10,000-session history: the time a bare `fetch` + `JSON.parse` of the same
 * page takes (the server answering, the baseline) against Den's `ApiClient` + normalizers +
 * `SessionList` (what the tree waits for before drawing). The difference is Den's own cost.
 */
export async function benchSessionsPage(
  sessions = 10_000,
  pageSize = 100,
  rounds = 30,
): Promise<{ bareMs: number; denMs: number; overheadMs: number; listed: number }> {
  const emu = await startEmulator({ seed: false, extraSessions: sessions });
  const client = new ApiClient({ baseUrl: emu.url, apiKey: () => emu.keys.primary });
  const url = `${emu.url}/sessions?page=1&limit=${pageSize}&sort=updatedAt&order=desc`;
  const bare: number[] = [];
  const den: number[] = [];
  let listed = 0;
  try {
    for (let i = 0; i < rounds + 3; i++) {
      let t = performance.now();
      const res = await fetch(url, { headers: { authorization: `Bearer ${emu.keys.primary}` } });
      await res.json();
      const b = performance.now() - t;
      t = performance.now();
      const list = new SessionList((q, signal) => client.listSessions(q, signal), pageSize);
      await list.reload();
      const d = performance.now() - t;
      listed = list.sessions.length;
      if (i >= 3) {
        bare.push(b);
        den.push(d);
      }
    }
  } finally {
    await client.close();
    await emu.close();
  }
  const bareMs = median(bare);
  const denMs = median(den);
  return { bareMs, denMs, overheadMs: denMs - bareMs, listed };
}
