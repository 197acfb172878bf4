import assert from 'node:assert/strict';
import { runningWords } from '../../../../src/model/session/running-words';

/** Issue 22 (7): one running and one queued turn read "Den: 2 running". Queued turns are apart. */
describe('status bar: running and queued turns', () => {
  const table: [number, number, string | undefined, string | undefined][] = [
    [0, 0, undefined, undefined],
    [1, 0, '$(sync) Den: 1 running', 'Den: 1 turn running. Click to list them.'],
    [2, 0, '$(sync) Den: 2 running', 'Den: 2 turns running. Click to list them.'],
    [1, 1, '$(sync) Den: 1 running, 1 queued', 'Den: 1 turn running, 1 turn queued. Click to list them.'],
    [2, 3, '$(sync) Den: 2 running, 3 queued', 'Den: 2 turns running, 3 turns queued. Click to list them.'],
    [0, 1, '$(clock) Den: 1 queued', 'Den: 1 turn queued. Click to list them.'],
  ];
  for (const [running, queued, text, tooltip] of table) {
    it(`${running} running, ${queued} queued → ${text ?? 'nothing'}`, () => {
      const w = runningWords(running, queued);
      assert.equal(w?.text, text);
      assert.equal(w?.tooltip, tooltip);
    });
  }
});
