import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { wsAgentFor } from '../../../../src/core/client/proxy';
import { silentLogger } from '../../../../src/core/shared/log';
import type { Turn } from '../../../../src/core/transcript/model';
import type { ConnectionView } from '../../../../src/protocol/session-panel/view';
import { TurnFollowers, type FollowTarget } from '../../../../src/model/session/turn-followers';
import { startEmulator } from '../../../emulator';
import { startConnectProxy } from '../../../support/connect-proxy';
import { waitFor } from '../../../support/wait';
import { TEST_TLS_CERT, TEST_TLS_KEY } from '../../core/client/tls-fixture';

/**
 * A running turn's panel when its live stream meets a proxy that wants credentials or a certificate
 * that is not trusted: the words say which setting to change (as the Sessions view does), not
 * "Connection lost" or "cannot reach the service".
 */
describe('A turn whose live stream meets a proxy or a certificate in the way', function () {
  this.timeout(20_000);
  const closers: (() => unknown)[] = [];

  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  /** What the panel's connection line says once the stream has failed and waits to retry. */
  async function saidAfterFailure(target: FollowTarget): Promise<ConnectionView> {
    let last: ConnectionView | undefined;
    const followers: TurnFollowers = new TurnFollowers(
      {
        sessionId: randomUUID(),
        target: () => target,
        logger: silentLogger,
        streamOptions: { backoff: { initialMs: 2_000, maxMs: 2_000, factor: 1, jitter: 0 } },
      },
      {
        resolveCursor: () => Promise.resolve(undefined),
        event: () => undefined,
        snapshot: () => undefined,
        gap: () => undefined,
        malformed: () => undefined,
        done: () => undefined,
        stateChanged: () => {
          last = followers.view();
        },
      },
    );
    closers.push(() => followers.closeAll());
    followers.follow({ agentMessageId: randomUUID(), lastEventId: 0 } as unknown as Turn);
    await waitFor(
      'the stream to fail and wait',
      () => last?.state === 'offline' || last?.state === 'reconnecting',
    );
    assert.ok(last);
    return last;
  }

  it('a proxy that wants credentials: says so and what to set, never the credentials', async () => {
    const guarded = await startConnectProxy({ auth: 'den:s3cret' });
    closers.push(() => guarded.close());
    const proxyUrl = guarded.url.replace('://', '://den:wr0ng@');
    const view = await saidAfterFailure({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: () => 'sk_live_proxytest',
      agent: wsAgentFor('ws://127.0.0.1:9/ws', { proxyUrl, env: {} }),
    });
    assert.equal(view.state, 'offline');
    assert.match(
      view.message ?? '',
      /^The proxy wants credentials \(407 Proxy Authentication Required\): put them in the http\.proxy setting, as http:\/\/user:password@host:port\. Retrying in 2 s\.$/,
    );
    assert.ok(!(view.message ?? '').includes('wr0ng'));
  });

  it('a service whose certificate is not trusted: says so and what to set', async () => {
    const emu = await startEmulator({ tls: { key: TEST_TLS_KEY, cert: TEST_TLS_CERT } });
    closers.push(() => emu.close());
    const view = await saidAfterFailure({ baseUrl: emu.url, apiKey: () => emu.keys.primary });
    assert.equal(view.state, 'offline');
    assert.match(
      view.message ?? '',
      /^The service's certificate is not trusted \([A-Z_]+\): .*set http\.proxyStrictSSL to false to skip the check\. Retrying in 2 s\.$/,
    );
  });
});
