import assert from 'node:assert/strict';
import * as https from 'node:https';
import * as net from 'node:net';
import { startEmulator, type Emulator } from '../index';
import { waitFor } from '../../support/wait';
import { TEST_TLS_CERT, TEST_TLS_KEY } from '../../unit/core/client/tls-fixture';
import { call, startTurn } from './helpers';

/** Whether a TCP connection to the emulator's port is refused now. */
function refused(emu: Emulator): Promise<boolean> {
  const port = Number(new URL(emu.url).port);
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(false);
    });
    s.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });
}

describe('emulator: outage and TLS', () => {
  let emu: Emulator | undefined;
  afterEach(async () => {
    await emu?.close();
    emu = undefined;
  });

  it('refuses connections during an outage while the turn goes on, then comes back on the same port with it finished', async () => {
    emu = await startEmulator({ eventDelayMs: 20 });
    const url = emu.url;
    const t = await startTurn(emu, 'write a helper');
    assert.equal(t.status, 200);
    const back = emu.outage(30);
    assert.equal(emu.refusing, true);
    assert.equal(await refused(emu), true);
    await back;
    assert.equal(emu.refusing, false);
    assert.equal(emu.url, url);
    assert.equal(await refused(emu), false);
    const events = emu.storedEvents(t.sessionId, t.agentId);
    assert.equal(events.at(-1)?.kind, 'task.completed');
    assert.equal((await call(emu, 'GET', `/sessions/${t.sessionId}`)).status, 200);
  });

  it('ends an outage when it is closed meanwhile', async () => {
    emu = await startEmulator();
    const back = emu.outage(60_000);
    await waitFor('the outage to start', () => emu?.refusing === true);
    await emu.close();
    await back;
  });

  it('serves HTTPS with the given certificate', async () => {
    emu = await startEmulator({ tls: { key: TEST_TLS_KEY, cert: TEST_TLS_CERT } });
    assert.match(emu.url, /^https:\/\/127\.0\.0\.1:\d+$/);
    const status = await new Promise<number>((resolve, reject) => {
      https
        .get(
          `${emu?.url}/sessions`,
          { ca: TEST_TLS_CERT, headers: { authorization: `Bearer ${emu?.keys.primary}` } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        )
        .on('error', reject);
    });
    assert.equal(status, 200);
  });
});
