import assert from 'node:assert/strict';
import { startEmulator, type Emulator } from '../index';
import { scriptFor, variantOf } from '../scripts';
import { startTurn } from './helpers';

/** The source file a turn's snapshot step writes. */
function sourceOf(steps: ReturnType<typeof scriptFor>): string {
  const w = steps.flatMap((s) => s.writes ?? []).find((x) => x.path.startsWith('src/'));
  assert.ok(w, 'the turn writes a source file');
  return w.content;
}

const ctx = (task: string, sameTaskIndex?: number) => ({
  sessionId: 'a1b2c3',
  task,
  mode: 'code' as const,
  snapshotKey: (p: string) => p,
  now: 0,
  ...(sameTaskIndex === undefined ? {} : { sameTaskIndex }),
});

describe('emulator: varied coding turns (attempts)', () => {
  it('writes one of three bodies by the session’s place among the sessions of the task', () => {
    const bodies = [0, 1, 2, 3].map((i) => sourceOf(scriptFor(ctx('Add a varied helper', i))));
    assert.equal(new Set(bodies.slice(0, 3)).size, 3);
    assert.equal(bodies[3], bodies[0]);
  });

  it('leaves a task without `varied` as it was, whatever its place', () => {
    assert.equal(variantOf(ctx('Add a helper', 2)), undefined);
    assert.equal(sourceOf(scriptFor(ctx('Add a helper', 2))), sourceOf(scriptFor(ctx('Add a helper', 0))));
  });

  it('picks by a hash of the session id without a place', () => {
    const v = variantOf(ctx('Varied'));
    assert.ok(v !== undefined && v >= 0 && v < 3);
  });

  describe('three sessions of one task', () => {
    let emu: Emulator;
    before(async () => {
      emu = await startEmulator({ seed: false, eventDelayMs: 0 });
    });
    after(() => emu.close());

    it('answer with three different variants', async () => {
      const turns = [];
      for (let i = 0; i < 3; i++) turns.push(await startTurn(emu, 'Write a varied parser'));
      const answers = await Promise.all(
        turns.map(async (t) => {
          await emu.turnEnded(t.sessionId, t.agentId);
          return emu
            .storedEvents(t.sessionId, t.agentId)
            .filter((e) => e.kind === 'markdown.chunk')
            .map((e) => String((e.payload as { delta?: unknown }).delta ?? ''))
            .join('');
        }),
      );
      const names = answers.map((a) => /^Variant [ABC]/.exec(a)?.[0]);
      assert.deepEqual(names, ['Variant A', 'Variant B', 'Variant C']);
    });
  });
});
