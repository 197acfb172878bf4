import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { turnFileFromUpload } from '../../../../src/core/client/normalize-results';
import { transcriptFromDetail } from '../../../../src/core/transcript/from-history';
import { isTerminalStatus } from '../../../../src/core/transcript/model';
import type { AttachmentSpec, UploadFn } from '../../../../src/model/attachments/attachment-list';
import { Emitter } from '../../../../src/core/shared/emitter';
import type { FileStatus, FileStatusSource } from '../../../../src/model/session-files/file-status';
import { ReviewMarks } from '../../../../src/model/review/review-marks';
import { TranscriptCache } from '../../../../src/model/session/transcript-cache';
import { startEmulator, type Emulator } from '../../../emulator/index';
import { waitFor } from '../../../support/wait';
import { FakeClock } from '../shared/fake-clock';
import { foldStored, hostRig, lastTurn, mirrorShows, type HostRig } from './host-rig';

const ready = (rig: HostRig): Promise<void> => rig.host.handle({ type: 'ready', lastSeq: null });
const chip = (name: string, size: number, upload: UploadFn): AttachmentSpec => ({ name, size, upload });

async function sendAndFinish(rig: HostRig, text: string): Promise<void> {
  assert.equal(await rig.host.send(text, 'code', 'fast'), true, 'the turn did not start');
  const turn = lastTurn(rig);
  await waitFor(
    `"${text}" to end`,
    () => isTerminalStatus(turn.status) && rig.host.runningTurns().length === 0,
    8_000,
  );
  await rig.host.whenReconciled();
  await waitFor('the view to catch up', () => mirrorShows(rig));
}

describe('SessionHost (against the emulator)', function () {
  // Real turns on the emulator take a second or two (slow turns, reconnects, grace periods).
  this.timeout(15_000);
  let emu: Emulator;
  const rigs: HostRig[] = [];
  const rig = (...a: Parameters<typeof hostRig>): HostRig => {
    const r = hostRig(...a);
    rigs.push(r);
    return r;
  };

  beforeEach(async () => {
    emu = await startEmulator();
  });

  afterEach(async () => {
    for (const r of rigs.splice(0)) await r.close();
    await emu.close();
  });

  it('opens a stored session: the view shows transcriptFromDetail of its history', async () => {
    const probe = rig(emu);
    const page = await probe.client.listSessions({ search: 'Refactor auth middleware' });
    const id = page.sessions[0].sessionId;
    const r = rig(emu, { sessionId: id });
    await ready(r);
    await r.host.open();
    const expected = transcriptFromDetail(await r.client.getSession(id));
    assert.deepEqual(r.host.transcript, expected);
    await waitFor('the view to show the history', () => mirrorShows(r));
    assert.equal(r.mirror.turns.length, 2);
    assert.equal(r.mirror.title, 'Refactor auth middleware');
    assert.equal(r.host.runningTurns().length, 0);
  });

  it('shows the files’ states its source gives, again when they go stale, and in a later init', async () => {
    const changed = new Emitter<string>();
    let statuses = new Map<string, FileStatus>([['src/a.ts', { state: 'new', added: 2, removed: 0 }]]);
    const asked: string[] = [];
    const source: FileStatusSource = {
      statuses: async (id) => {
        asked.push(id);
        return statuses;
      },
      onDidChange: changed.event,
    };
    const r = rig(emu, { sessionId: 's-status', extra: { fileStatus: source } });
    await ready(r);
    void r.host.open().catch(() => undefined);
    await waitFor('the states shown', () => r.mirror.fileStatus.length === 1);
    assert.deepEqual(r.mirror.fileStatus, [{ path: 'src/a.ts', state: 'new', added: 2, removed: 0 }]);
    statuses = new Map([['src/a.ts', { state: 'identical', added: 0, removed: 0 }]]);
    changed.fire('another session');
    changed.fire('s-status');
    await waitFor('the new state', () => r.mirror.fileStatus[0]?.state === 'identical');
    assert.deepEqual(asked, ['s-status', 's-status']);
    r.reloadView();
    await ready(r);
    await waitFor('the init', () => r.mirror.lastSeq !== null);
    assert.equal(r.mirror.fileStatus[0]?.state, 'identical');
  });

  it('shows how many comments Send Feedback would send, once per change, and in a later init', async () => {
    const r = rig(emu, { sessionId: 's-comments' });
    await ready(r);
    void r.host.open().catch(() => undefined);
    await waitFor('the init', () => r.mirror.lastSeq !== null);
    const posts = r.host.stats.posts;
    r.host.view.setReviewComments(0);
    assert.equal(r.host.stats.posts, posts, 'no change, no post');
    r.host.view.setReviewComments(3);
    await waitFor('the count shown', () => r.mirror.reviewComments === 3);
    r.reloadView();
    await ready(r);
    await waitFor('the init', () => r.mirror.lastSeq !== null && r.mirror.count('init') === 1);
    assert.equal(r.mirror.reviewComments, 3);
  });

  it('shows the session’s reviewed marks, again when they change, and in a later init', async () => {
    const marks = new ReviewMarks({ get: () => undefined, update: async () => undefined });
    await marks.set('s-marks', [{ path: '/src/a.ts', key: 'k', updatedAt: 1 }], true);
    const r = rig(emu, { sessionId: 's-marks', extra: { reviewed: marks } });
    await ready(r);
    void r.host.open().catch(() => undefined);
    await waitFor('the marks shown', () => r.mirror.reviewed.length === 1);
    assert.deepEqual(r.mirror.reviewed, [{ path: 'src/a.ts', versions: ['k@1'] }]);
    await marks.set('another session', [{ path: 'b.ts', key: 'b' }], true);
    await marks.set('s-marks', [{ path: 'src/a.ts', key: 'k', updatedAt: 2 }], true);
    await waitFor('the new mark', () => r.mirror.reviewed[0]?.versions.length === 2);
    assert.deepEqual(r.mirror.reviewed, [{ path: 'src/a.ts', versions: ['k@1', 'k@2'] }]);
    r.reloadView();
    await ready(r);
    await waitFor('the init', () => r.mirror.lastSeq !== null);
    assert.deepEqual(r.mirror.reviewed, [{ path: 'src/a.ts', versions: ['k@1', 'k@2'] }]);
  });

  it('streams a coding turn started from the composer to its end; the view equals the fold of the stored events', async () => {
    const r = rig(emu, { basePrompt: 'Be brief.' });
    await ready(r);
    await sendAndFinish(r, 'Add a whitespace normalizer with tests');
    const turn = lastTurn(r);
    assert.equal(turn.status, 'completed');
    assert.deepEqual(turn, foldStored(emu, r.host.sessionId, turn));
    assert.deepEqual(
      r.ended.map((t) => t.status),
      ['completed'],
    );
    assert.equal(r.mirror.composer?.running, false);
    assert.ok(turn.blocks.some((b) => b.type === 'tool'));
    // Deltas, not repaints: one init only, and far fewer posts than events.
    assert.equal(r.mirror.count('init'), 1);
    assert.ok(r.host.stats.posts < emu.storedEvents(r.host.sessionId, turn.agentMessageId).length);
  });

  it('stops a slow turn: it ends aborted and keeps what it produced', async () => {
    const r = rig(emu);
    await ready(r);
    assert.ok(await r.host.send('slow: refactor the parser', 'code', 'fast'));
    const turn = lastTurn(r);
    await waitFor('some output', () => turn.blocks.length >= 3, 6_000);
    await r.host.handle({ type: 'stop' });
    await waitFor('the abort', () => turn.status === 'aborted', 5_000);
    assert.ok(turn.blocks.length >= 3);
    await waitFor('the view', () => mirrorShows(r));
    assert.deepEqual(turn, foldStored(emu, r.host.sessionId, turn));
    assert.equal(r.ended[0]?.status, 'aborted');
  });

  it('stops over the socket when the HTTP abort fails', async () => {
    const r = rig(emu);
    await ready(r);
    assert.ok(await r.host.send('slow: write docs', 'code', 'fast'));
    const turn = lastTurn(r);
    await waitFor('the turn to run', () => turn.blocks.length >= 2, 6_000);
    emu.failNext({ method: 'DELETE', path: '/abort$', status: 500, body: { error: 'boom' } });
    await r.host.stop();
    await waitFor('the abort', () => turn.status === 'aborted', 5_000);
    assert.equal(r.mirror.notice, null);
  });

  it('queues a follow-up sent while a turn runs and runs it after', async () => {
    await emu.close();
    emu = await startEmulator({ eventDelayMs: 15 });
    const r = rig(emu);
    await ready(r);
    // Queued lasts only while the first turn runs: latched at each post rather than polled.
    const shownQueued = r.everShown((m) => m.turns.at(-1)?.status === 'queued' && m.composer?.queued === 1);
    assert.ok(await r.host.send('first: 60 events', 'code', 'fast'));
    const first = lastTurn(r);
    assert.ok(await r.host.send('second: a follow-up', 'code', 'fast'));
    const second = lastTurn(r);
    assert.notEqual(second, first);
    assert.equal(second.status, 'queued');
    await waitFor('the view to show it queued', shownQueued);
    await waitFor('both turns to end', () => second.status === 'completed', 8_000);
    assert.equal(first.status, 'completed');
    await waitFor('the view', () => mirrorShows(r));
    assert.deepEqual(second, foldStored(emu, r.host.sessionId, second));
  });

  for (const variant of [{ live: true }, { live: false }]) {
    it(`resumes across repeated socket drops without losing or repeating an event (live stream_entry_id: ${variant.live})`, async () => {
      await emu.close();
      emu = await startEmulator({ liveStreamEntryIds: variant.live, replayStreamEntryIds: variant.live });
      emu.faults = { dropAfterFrames: 4 };
      const r = rig(emu);
      await ready(r);
      await sendAndFinish(r, 'Implement the retry helper');
      const turn = lastTurn(r);
      // Even without stream_entry_id on live frames, the turn ends with the stored cursor.
      assert.deepEqual(turn, foldStored(emu, r.host.sessionId, turn));
      const ids = turn.blocks.map((b) => b.id);
      assert.equal(new Set(ids).size, ids.length);
    });
  }

  it('posts nothing while hidden, then catches up in one post when shown (or with an init after a reload)', async () => {
    const r = rig(emu);
    await ready(r);
    r.host.link.setVisible(false);
    const before = r.posts.length;
    await sendAndFinishHidden(r, 'Add input validation');
    assert.equal(r.posts.length, before, 'posted while hidden');
    // The page reloads when shown again (no retainContextWhenHidden) and says ready.
    r.host.link.setVisible(true);
    r.reloadView();
    await ready(r);
    assert.equal(r.posts.length, before + 1);
    assert.equal(r.posts.at(-1)?.type, 'init');
    assert.ok(mirrorShows(r));
  });

  it('catches a kept page up without a ready, after a grace period', async () => {
    // The panel's timers (the grace period, batching) run on a fake clock: time passes on `advance`.
    const clock = new FakeClock();
    const r = rig(emu, { extra: { clock } });
    await ready(r);
    r.host.link.setVisible(false);
    const before = r.posts.length;
    await sendAndFinishHidden(r, 'Add input validation');
    r.host.link.setVisible(true);
    clock.advance(100);
    assert.equal(r.posts.length, before, 'caught up without a grace period');
    clock.advance(2_900);
    assert.equal(r.posts.length, before + 1);
    assert.ok(mirrorShows(r));
  });

  /** A host whose start gets a 429: the emulator allows one running turn, and another holds it. */
  async function rateLimited(): Promise<{ r: HostRig; busy: HostRig; clock: FakeClock }> {
    await emu.close();
    // The emulator's Retry-After grows with its event delay: 1.5 s gives 60 s, so the time to
    // retry cannot run out while the test looks, however busy the machine.
    emu = await startEmulator({ maxConcurrent: 1, eventDelayMs: 1_500 });
    const busy = rig(emu);
    assert.ok(await busy.host.send('slow: keep the service busy', 'code', 'fast'));
    const clock = new FakeClock();
    const r = rig(emu, { extra: { clock } });
    await ready(r);
    assert.equal(await r.host.send('another turn', 'code', 'fast'), false);
    return { r, busy, clock };
  }

  /** Moves the host's clock past any wait the service can ask for, and flushes the posts. */
  const pastTheWait = (clock: FakeClock): void => clock.advance(10 * 60_000);

  it('shows a 429 in the composer and a notice that says when, holding the message back', async () => {
    const { r, clock } = await rateLimited();
    assert.equal(r.host.transcript.turns.length, 0);
    const notice = r.host.view.notice;
    assert.match(
      notice?.message ?? '',
      /^The service is busy: too many turns are running at once \(429\)\. Den can send “another turn” at \d/,
    );
    // No countdown in the notice: it would go stale (the composer counts down by itself).
    assert.doesNotMatch(notice?.message ?? '', /in \d+ s/);
    assert.deepEqual(
      notice?.actions.map((a) => a.title),
      ['Send When Ready', 'Edit'],
    );
    const composer = r.host.view.composer();
    assert.ok((composer.rateLimitedUntil ?? 0) > Date.now());
    assert.equal(composer.held, 'another turn');
    // Sending again during the wait is refused at once, without a request, and keeps the offer.
    assert.equal(await r.host.send('again', 'code', 'fast'), false);
    assert.deepEqual(r.host.view.notice, notice);
    clock.advance(100);
    assert.deepEqual(r.mirror.notice, notice);
  });

  it('after the 429 wait, offers to send the held message; the notice keeps no stale countdown', async () => {
    const { r, clock } = await rateLimited();
    pastTheWait(clock);
    const offer = r.host.view.notice;
    assert.equal(offer?.message, 'The service can take a turn again: send “another turn” now?');
    assert.deepEqual(
      offer?.actions.map((a) => a.title),
      ['Send Now', 'Edit'],
    );
    assert.equal(r.host.view.composer().rateLimitedUntil, undefined);
    assert.deepEqual(r.mirror.notice, offer, 'the webview still shows the notice of the wait');
    assert.equal(r.host.transcript.turns.length, 0, 'sent without being asked');
    // Edit: Den lets go of it (the webview puts it back in the composer).
    await r.host.handle({ type: 'heldTurn', action: 'edit' });
    assert.equal(r.host.view.notice, null);
    assert.equal(r.host.view.composer().held, undefined);
  });

  it('sends the held message by itself when the 429 wait is over, if asked to', async () => {
    const { r, busy, clock } = await rateLimited();
    await r.host.handle({ type: 'heldTurn', action: 'sendWhenReady' });
    assert.match(r.host.view.notice?.message ?? '', /^Den will send “another turn” at \d.*\.$/);
    assert.equal(r.host.transcript.turns.length, 0);
    await busy.host.stop();
    await waitFor('the busy turn to end', () => busy.host.runningTurns().length === 0, 8_000);
    pastTheWait(clock);
    await waitFor('the held turn to start', () => r.host.transcript.turns.length === 1);
    assert.equal(r.host.transcript.turns[0].userMessage.text, 'another turn');
    assert.equal(r.host.view.notice, null);
    assert.equal(r.host.view.composer().held, undefined);
  });

  it('shows a failing start as a notice and keeps the composer usable', async () => {
    const r = rig(emu);
    await ready(r);
    emu.failNext({
      method: 'POST',
      path: '/sessions/new',
      status: 500,
      body: { error: 'server_error', message: 'kaboom' },
    });
    assert.equal(await r.host.send('do a thing', 'code', 'fast'), false);
    await waitFor('the notice', () => r.mirror.notice);
    assert.match(r.mirror.notice?.message ?? '', /could not start the turn.*kaboom/);
    assert.equal(r.mirror.composer?.sending, false);
  });

  it('shows the progress of an upload on its chip', async () => {
    const r = rig(emu);
    await ready(r);
    const seen: string[] = [];
    const stop = r.host.link.tap((m) => {
      const composers =
        m.type === 'init'
          ? [m.composer]
          : m.type === 'batch'
            ? m.deltas.flatMap((d) => (d.type === 'composer' ? [d.composer] : []))
            : [];
      for (const c of composers) {
        const a = c.attachments[0];
        if (a) seen.push(`${a.status}:${a.progress ?? '-'}`);
      }
    });
    // Each step of the upload waits until the chip's last state was posted.
    const posted = (state: string): Promise<unknown> =>
      waitFor(`"${state}" posted`, () => seen.includes(state));
    await r.host.attach(
      chip('big.csv', 300, async (onProgress) => {
        await posted('uploading:0');
        onProgress(150, 300);
        await posted('uploading:0.5');
        onProgress(300, 300);
        await posted('uploading:1');
        return { key: `${r.host.sessionId}/big.csv`, name: 'big.csv', type: 'text/csv', size: 300 };
      }),
    );
    await waitFor('the ready chip', () => r.mirror.composer?.attachments[0]?.status === 'ready');
    stop();
    assert.deepEqual(seen, ['uploading:0', 'uploading:0.5', 'uploading:1', 'ready:-']);
  });

  it('uploads attachments, sends them with the next turn and clears their chips', async () => {
    const r = rig(emu);
    await ready(r);
    const body = Buffer.alloc(300_000, 'a');
    await r.host.attach(
      chip('notes.txt', body.length, async (onProgress, signal) =>
        turnFileFromUpload(
          await r.client.upload(
            {
              key: `${r.host.sessionId}/notes.txt`,
              filename: 'notes.txt',
              contentType: 'text/plain',
              size: body.length,
              body: () => Readable.from([body]),
              onProgress,
            },
            signal,
          ),
        ),
      ),
    );
    await waitFor('the ready chip', () => r.mirror.composer?.attachments[0]?.status === 'ready');
    await sendAndFinish(r, 'Summarize the notes');
    assert.deepEqual(
      lastTurn(r).userMessage.files.map((f) => f.name),
      ['notes.txt'],
    );
    await waitFor('chips cleared', () => r.mirror.composer?.attachments.length === 0);
  });

  it('marks a failed upload on its chip', async () => {
    const r = rig(emu);
    await ready(r);
    await r.host.attach(
      chip('x.bin', 10, async () => {
        throw new Error('disk on fire');
      }),
    );
    await waitFor('the error chip', () => r.mirror.composer?.attachments[0]?.status === 'error');
    assert.match(r.mirror.composer?.attachments[0]?.error ?? '', /upload x\.bin/);
  });

  it('sends the whole log of a tool block, saying when earlier output was dropped', async () => {
    const r = rig(emu, { extra: {} });
    await ready(r);
    await sendAndFinish(r, 'Run the tests');
    const turn = lastTurn(r);
    const tool = turn.blocks.find((b) => b.type === 'tool' && b.log.segments.length > 0);
    assert.ok(tool && tool.type === 'tool');
    await r.host.handle({ type: 'showFullLog', turnId: turn.agentMessageId, blockId: tool.id });
    const msg = r.posts.at(-1);
    assert.ok(msg?.type === 'fullLog');
    const whole = tool.log.segments.map((s) => s.data).join('');
    assert.equal(msg.text, whole);
    assert.equal(msg.droppedChars, undefined);
    tool.log.truncatedChars = 1234;
    await r.host.handle({ type: 'showFullLog', turnId: turn.agentMessageId, blockId: tool.id });
    const again = r.posts.at(-1);
    assert.ok(again?.type === 'fullLog');
    // How much was dropped travels beside the log, for the view to keep saying; the log is as kept.
    assert.equal(again.droppedChars, 1234);
    assert.equal(again.text, whole);
  });

  it('paints from the cache at once on reopen, then brings the view up to date from the service', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'den-host-cache-'));
    const cache = new TranscriptCache({ dir, debounceMs: 10 });
    try {
      const first = rig(emu, { cache });
      await ready(first);
      await sendAndFinish(first, 'Write the changelog');
      await cache.flush();
      const id = first.host.sessionId;
      // Meanwhile another turn ran elsewhere.
      const other = rig(emu, { sessionId: id });
      await ready(other);
      await other.host.open();
      await sendAndFinish(other, 'Add the release date');
      // A slow service: the history is held until the cached paint shows.
      let answer!: () => void;
      const historyGate = new Promise<void>((resolve) => (answer = resolve));
      const again = rig(emu, { sessionId: id, cache, historyGate });
      await ready(again);
      const opening = again.host.open();
      await waitFor('the cached paint', () => again.mirror.turns.length === 1);
      answer();
      await opening;
      await waitFor('the catch-up', () => again.mirror.turns.length === 2 && mirrorShows(again));
      // The service's history, and what it does not store of a request sent from here (the
      // fast/think choice) as the cache kept it: the turn's badges read as they did before the reopen.
      const stored = transcriptFromDetail(await again.client.getSession(id));
      assert.equal(stored.turns[0].userMessage.effort, undefined);
      stored.turns[0].userMessage.effort = 'fast';
      assert.deepEqual(again.host.transcript, stored);
    } finally {
      // The catch-up's own write may still be under way (debounced): it ends before the folder goes.
      await cache.flush();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports loading, then live while a turn streams, then idle, in the connection view', async () => {
    const page = await rig(emu).client.listSessions({ search: 'Write release notes' });
    // A slow service: the history is held until the view shows it loading.
    let answer!: () => void;
    const historyGate = new Promise<void>((resolve) => (answer = resolve));
    const r = rig(emu, { sessionId: page.sessions[0].sessionId, historyGate });
    const states: string[] = [];
    r.host.link.tap((m) => {
      const views =
        m.type === 'init'
          ? [m.connection]
          : m.type === 'batch'
            ? m.deltas.flatMap((d) => (d.type === 'connection' ? [d.connection] : []))
            : [];
      for (const v of views) if (states.at(-1) !== v.state) states.push(v.state);
    });
    await ready(r);
    const opening = r.host.open();
    await waitFor('loading', () => r.mirror.connection?.state === 'loading');
    answer();
    await opening;
    await sendAndFinish(r, 'Tidy the imports');
    await waitFor(`idle after ${states.join(' → ')}`, () => r.mirror.connection?.state === 'idle');
    assert.deepEqual(states.slice(0, 2), ['idle', 'loading']);
    assert.ok(states.includes('live'), states.join(' → '));
    assert.equal(states.at(-1), 'idle');
  });

  it('forgets a load failure once a turn started in the session', async () => {
    const r = rig(emu);
    await ready(r);
    await r.host.open();
    await waitFor('failed', () => r.mirror.connection?.state === 'failed');
    await sendAndFinish(r, 'Create the session');
    await waitFor('idle', () => r.mirror.connection?.state === 'idle');
  });

  it('shows a load failure in the connection view and recovers on retry', async () => {
    const r = rig(emu);
    await ready(r);
    emu.failNext({ method: 'GET', path: `/sessions/${r.host.sessionId}`, status: 500, body: { error: 'x' } });
    await r.host.open();
    await waitFor('failed', () => r.mirror.connection?.state === 'failed');
    await r.host.handle({ type: 'retry' });
    // The session does not exist on the service: a plain 404 now, shown the same way.
    await waitFor('the 404 shown', () => /no longer exists/.test(r.mirror.connection?.message ?? ''));
    assert.equal(r.mirror.connection?.state, 'failed');
  });
});

/** Runs a turn while the view is hidden (no view posts expected). */
async function sendAndFinishHidden(r: HostRig, text: string): Promise<void> {
  assert.ok(await r.host.send(text, 'code', 'fast'));
  const turn = lastTurn(r);
  await waitFor(
    `"${text}" to end`,
    () => isTerminalStatus(turn.status) && r.host.runningTurns().length === 0,
    8_000,
  );
  // The host's last reactions to the end (composer, connection, onTurnEnded) come together.
  await waitFor('the host to take the end in', () => r.ended.includes(turn));
}
