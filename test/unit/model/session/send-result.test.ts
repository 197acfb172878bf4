/**
 * A send the service refuses always tells the webview so, whatever the timing (issue 22, point 4):
 * the batcher keeps only the latest composer state per post, so "sending" then "not sending" fold
 * into one; the send's result is a delta of its own that is never folded, hidden or not.
 */
import assert from 'node:assert/strict';
import {
  isDelta,
  isWebviewMessage,
  type ComposerState,
  type HostMessage,
} from '../../../../src/protocol/session-panel/messages';
import { DeltaBatcher, type OnceDelta } from '../../../../src/model/session/delta-batcher';
import { startEmulator, type Emulator } from '../../../emulator/index';
import { liveTranscript } from '../../core/transcript/helpers';
import { FakeClock } from '../shared/fake-clock';
import { hostRig, type HostRig } from './host-rig';

const composer = (sending: boolean): ComposerState => ({
  mode: 'code',
  effort: 'fast',
  attachments: [],
  running: false,
  queued: 0,
  sending,
});

function batcherRig(visible = true): { batcher: DeltaBatcher; clock: FakeClock; posts: HostMessage[] } {
  const clock = new FakeClock();
  const posts: HostMessage[] = [];
  const t = liveTranscript();
  const batcher = new DeltaBatcher({
    transcript: () => t,
    init: () => ({
      session: { sessionId: t.sessionId, title: 'T', service: 'example.test' },
      turns: [],
      composer: composer(false),
      connection: { state: 'live' },
      notice: null,
      l10n: null,
    }),
    post: (m) => posts.push(m),
    clock,
  });
  if (visible) batcher.setVisible(true, 'init');
  return { batcher, clock, posts };
}

const refused = (sendId: string): OnceDelta => ({ type: 'sendResult', sendId, outcome: 'refused' });
const deltasOf = (posts: HostMessage[]) => posts.flatMap((m) => (m.type === 'batch' ? m.deltas : []));

describe('a send’s result is never folded', () => {
  it('the batcher folds "sending" and "not sending" into one post, and still sends the result', () => {
    const { batcher, clock, posts } = batcherRig();
    const before = posts.length;
    batcher.pushView({ type: 'composer', composer: composer(true) });
    batcher.pushOnce(refused('s-1'));
    batcher.pushView({ type: 'composer', composer: composer(false) });
    clock.advance(100);
    assert.equal(posts.length, before + 1, 'one post');
    assert.deepEqual(deltasOf(posts), [
      { type: 'composer', composer: composer(false) },
      // After the state it ends in.
      refused('s-1'),
    ]);
  });

  it('sends every result, in order, where panel deltas keep only the latest', () => {
    const { batcher, clock, posts } = batcherRig();
    batcher.pushOnce(refused('s-1'));
    batcher.pushOnce({ type: 'sendResult', sendId: 's-2', outcome: 'started' });
    clock.advance(100);
    assert.deepEqual(
      deltasOf(posts).map((d) => d.type === 'sendResult' && d.sendId),
      ['s-1', 's-2'],
    );
  });

  it('keeps a result while hidden and through an init, which does not cover it', () => {
    const { batcher, clock, posts } = batcherRig(false);
    batcher.pushOnce(refused('s-1'));
    clock.advance(100);
    assert.equal(posts.length, 0);
    batcher.setVisible(true, 'init');
    assert.deepEqual(
      posts.map((m) => m.type),
      ['init', 'batch'],
    );
    assert.deepEqual(deltasOf(posts), [refused('s-1')]);
    batcher.pushOnce(refused('s-2'));
    batcher.sendInit();
    assert.deepEqual(deltasOf(posts), [refused('s-1'), refused('s-2')]);
    assert.equal(batcher.hasPending, false);
  });
});

describe('a send the service refuses (403, a read-only key) against the emulator', function () {
  this.timeout(15_000);
  let emu: Emulator;
  let r: HostRig | undefined;

  beforeEach(async () => {
    emu = await startEmulator();
  });

  afterEach(async () => {
    await r?.close();
    r = undefined;
    await emu.close();
  });

  const readOnly = (): void =>
    emu.failNext({
      method: 'POST',
      path: '/sessions/new',
      status: 403,
      body: { error: 'forbidden', message: 'This API key is read-only' },
    });

  it('tells the webview, though "sending" never reached it (the fold forced by a stopped clock)', async () => {
    // The batcher's timer runs on a fake clock: nothing is posted between "sending" and its end.
    const clock = new FakeClock();
    r = hostRig(emu, { extra: { clock } });
    await r.host.handle({ type: 'ready', lastSeq: null });
    readOnly();
    await r.host.handle({ type: 'send', text: 'keep my words', mode: 'code', effort: 'fast', sendId: 's-1' });
    clock.advance(100);
    assert.ok(
      !r.posts.some(
        (m) => m.type === 'batch' && m.deltas.some((d) => d.type === 'composer' && d.composer.sending),
      ),
      'the webview saw "sending": the fold did not happen',
    );
    assert.deepEqual(r.mirror.sendResults, [{ sendId: 's-1', outcome: 'refused' }]);
    assert.match(r.mirror.notice?.message ?? '', /refused \(403\): This API key is read-only\./);
    assert.equal(r.mirror.composer?.sending, false);
  });

  it('tells a webview that was reloaded meanwhile, after its init', async () => {
    const clock = new FakeClock();
    r = hostRig(emu, { extra: { clock } });
    await r.host.handle({ type: 'ready', lastSeq: null });
    r.host.link.setVisible(false);
    readOnly();
    await r.host.handle({ type: 'send', text: 'keep my words', mode: 'code', effort: 'fast', sendId: 's-1' });
    clock.advance(100);
    r.reloadView();
    r.host.link.setVisible(true);
    await r.host.handle({ type: 'ready', lastSeq: null });
    clock.advance(100);
    assert.equal(r.mirror.messages[0]?.type, 'init');
    assert.deepEqual(r.mirror.sendResults, [{ sendId: 's-1', outcome: 'refused' }]);
  });

  it('says "started" for a send that started a turn', async () => {
    const clock = new FakeClock();
    r = hostRig(emu, { extra: { clock } });
    await r.host.handle({ type: 'ready', lastSeq: null });
    await r.host.handle({ type: 'send', text: 'say hi', mode: 'code', effort: 'fast', sendId: 's-2' });
    clock.advance(100);
    assert.deepEqual(r.mirror.sendResults, [{ sendId: 's-2', outcome: 'started' }]);
    assert.equal(r.host.transcript.turns.length, 1);
  });
});

describe('the send result in the protocol', () => {
  it('a send may carry its id; a result says one of three outcomes', () => {
    assert.ok(isWebviewMessage({ type: 'send', text: 'x', mode: 'code', effort: 'fast', sendId: 'a-1' }));
    assert.ok(isWebviewMessage({ type: 'send', text: 'x', mode: 'code', effort: 'fast' }));
    for (const outcome of ['started', 'held', 'refused'])
      assert.ok(isDelta({ type: 'sendResult', sendId: 'a', outcome }));
    assert.ok(!isDelta({ type: 'sendResult', sendId: 'a', outcome: 'lost' }));
    assert.ok(!isDelta({ type: 'sendResult', outcome: 'refused' }));
  });
});
