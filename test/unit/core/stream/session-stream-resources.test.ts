import assert from 'node:assert/strict';
import { createHook } from 'node:async_hooks';
import { createServer } from 'node:net';
import type { SessionStream } from '../../../../src/core/stream/session-stream';
import { startEmulator } from '../../../emulator';
import { waitFor } from '../../../support/wait';
import { closeRecordedStreams, recordedStream, startTurn, turnOptions } from './stream-helpers';

/**
 * Records timers and TCP handles created by the stream code (or by `ws` on its behalf) that are
 * still alive: the process-wide list also holds mocha's and node's own.
 */
function trackOurHandles(): { alive(): string[]; created(): number; stop(): void } {
  const live = new Map<number, string>();
  let created = 0;
  const ours = /src[\\/]core[\\/]stream[\\/]|[\\/]ws[\\/]lib[\\/]/;
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 60;
  const hook = createHook({
    init(id, type) {
      if (type !== 'Timeout' && !type.startsWith('TCP')) return;
      const stack = new Error().stack ?? '';
      if (!ours.test(stack)) return;
      created++;
      live.set(id, `${type}\n${stack}`);
    },
    destroy(id) {
      live.delete(id);
    },
  }).enable();
  return {
    alive: () => [...live.values()],
    created: () => created,
    stop: () => {
      hook.disable();
      Error.stackTraceLimit = limit;
    },
  };
}

/** A port nothing listens on, so connections are refused and the stream sits in its retry delay. */
async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('SessionStream resources', () => {
  afterEach(closeRecordedStreams);

  it('leaves no timer or socket behind after close(), whatever state each stream was in', async () => {
    const handles = trackOurHandles();
    const emu = await startEmulator({ seed: false, eventDelayMs: 5, maxConcurrent: 100 });
    const streams: SessionStream[] = [];
    const callbacksAfterClose: string[] = [];
    try {
      const turns = await Promise.all(
        Array.from({ length: 10 }, () => startTurn(emu, 'write a long answer')),
      );
      const live = turns.map((t) => recordedStream(turnOptions(emu, t)));
      const port = await deadPort();
      const refused = Array.from({ length: 10 }, (_, i) =>
        recordedStream(
          turnOptions({ ...emu, url: `http://127.0.0.1:${port}` }, turns[i], {
            backoff: { initialMs: 60_000, maxMs: 60_000, jitter: 0 },
          }),
        ),
      );
      const connecting = turns.map((t) => recordedStream(turnOptions(emu, t)));
      const idle = turns.map((t) => recordedStream(turnOptions(emu, t), false));
      await waitFor('live streams', () => live.every((s) => s.rec.events.length > 0), 5000);
      await waitFor(
        'retries',
        () => refused.every((s) => s.rec.states.some((x) => x.state === 'reconnecting')),
        5000,
      );
      for (const group of [live, refused, connecting, idle]) {
        for (const { stream, rec } of group) {
          streams.push(stream);
          stream.close();
          const seen = rec.events.length + rec.states.length;
          rec.events.push = rec.states.push = () => {
            callbacksAfterClose.push(`${rec.events.length + rec.states.length} after ${seen}`);
            return 0;
          };
        }
      }
    } finally {
      await emu.close();
    }
    assert.ok((await Promise.all(streams.map((s) => s.done))).every((d) => d.kind === 'closed'));
    // Handles are destroyed on the next turns of the event loop: wait for that (a leaked 60 s
    // backoff or 45 s idle timer, or a socket, stays and fails below).
    await waitFor('the handles to go', () => handles.alive().length === 0, 5000).catch(() => undefined);
    const alive = handles.alive();
    handles.stop();
    assert.ok(handles.created() >= 30, `only ${handles.created()} handles seen: the tracking is blind`);
    assert.ok(alive.length === 0, `still alive:\n${alive.join('\n\n')}`);
    assert.deepEqual(callbacksAfterClose, []);
  });
});
