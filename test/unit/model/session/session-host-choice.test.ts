import assert from 'node:assert/strict';
import { isTerminalStatus } from '../../../../src/core/transcript/model';
import { waitFor } from '../../../support/wait';
import { useHostRigs, lastTurn, type HostRig } from './host-rig';

/** The mode and fast/think of every composer post the mirror saw. */
function composerPosts(r: HostRig): string[] {
  const out: string[] = [];
  for (const m of r.mirror.messages) {
    if (m.type === 'init') out.push(`${m.composer.mode}/${m.composer.effort}`);
    if (m.type === 'batch')
      for (const d of m.deltas)
        if (d.type === 'composer') out.push(`${d.composer.mode}/${d.composer.effort}`);
  }
  return out;
}

describe('SessionHost composer choice (against the emulator)', function () {
  this.timeout(15_000);
  const rigs = useHostRigs();
  let r: HostRig | undefined;

  async function ended(rig: HostRig): Promise<void> {
    const turn = lastTurn(rig);
    await waitFor(
      'the turn to end',
      () => isTerminalStatus(turn.status) && rig.host.runningTurns().length === 0,
    );
  }

  it('starts from the defaults, keeps what the webview chose without echoing it, and starts turns with it', async () => {
    r = rigs.rig({ extra: { composerDefaults: { mode: 'slides', effort: 'think' } } });
    await r.host.handle({ type: 'ready', lastSeq: null });
    await waitFor('the init', () => r?.mirror.composer);
    assert.deepEqual(composerPosts(r), ['slides/think']);

    await r.host.handle({ type: 'composerChoice', mode: 'plan', effort: 'fast' });
    assert.deepEqual(r.host.choice.current, { mode: 'plan', effort: 'fast' });
    assert.equal(r.host.view.composer().mode, 'plan');

    // A turn from a command that does not say takes the composer's choice.
    assert.equal(await r.host.startTurn({ task: 'outline the plan' }), true);
    const turn = lastTurn(r);
    assert.equal(turn.userMessage.mode, 'plan');
    assert.equal(turn.userMessage.effort, 'fast');
    await ended(r);
    // The choice was never posted back as a change of its own: every composer post after the init has it.
    assert.deepEqual([...new Set(composerPosts(r).slice(1))], ['plan/fast']);
  });

  it('a send carries the choice shown: it becomes the composer choice', async () => {
    r = rigs.rig();
    assert.deepEqual(r.host.choice.current, { mode: 'code', effort: 'fast' });
    await r.host.handle({ type: 'send', text: 'look this up', mode: 'deepsearch', effort: 'think' });
    const turn = lastTurn(r);
    assert.equal(turn.userMessage.mode, 'deepsearch');
    assert.equal(turn.userMessage.effort, 'think');
    assert.deepEqual(r.host.choice.current, { mode: 'deepsearch', effort: 'think' });
    assert.equal(r.host.view.composer().effort, 'think');
    await ended(r);
  });

  it('a turn that says its own mode keeps the composer choice as it is', async () => {
    r = rigs.rig();
    assert.equal(await r.host.startTurn({ task: 'add a helper', mode: 'auto', effort: 'think' }), true);
    const turn = lastTurn(r);
    assert.equal(turn.userMessage.mode, 'auto');
    assert.equal(turn.userMessage.effort, 'think');
    assert.deepEqual(r.host.choice.current, { mode: 'code', effort: 'fast' });
    await ended(r);
  });
});
