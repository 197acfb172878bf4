/**
 * The panel's file list with each file's state against the workspace, in real (headless) Chromium:
 * the state and counts shown, words for screen readers, updates from `fileStatus` deltas, and the
 * Compare / Review Changes / Apply buttons posting Den's commands.
 */
import assert from 'node:assert/strict';
import { waitFor } from '../../support/wait';
import { closeBrowser, openHarness, type Harness } from './browser-harness';
import { AGENT, loadFixture, scenario } from './helpers';

after(closeBrowser);

describe('webview in Chromium: file states', function () {
  this.timeout(60_000);
  let h: Harness;

  afterEach(async () => {
    await h?.close();
  });

  it('shows each file’s state and counts, follows fileStatus deltas, and posts the file and turn commands', async () => {
    h = await openHarness();
    const s = scenario(loadFixture('coding-turn.jsonl'), 50);
    const [src, test] = s.transcript.turns[0].files.map((f) => f.path);
    const sessionId = s.init.session.sessionId;
    const last = s.batches[s.batches.length - 1].seq;
    await h.send(s.init, ...s.batches, {
      type: 'batch',
      seq: last + 1,
      deltas: [
        {
          type: 'fileStatus',
          files: [
            { path: src, state: 'modified', added: 3, removed: 1 },
            { path: test, state: 'conflicts', added: 4, removed: 0, conflicts: 2, reason: 'Both changed' },
          ],
        },
      ],
    });
    const page = h.page;
    const state = (path: string) => page.locator(`.file-item:has([data-path="${path}"]) .file-state`);
    await waitFor('the states shown', async () => (await state(src).count()) > 0);
    assert.equal(await state(src).getAttribute('data-state'), 'modified');
    assert.match(await state(src).innerText(), /^modified · \+3 −1/);
    assert.equal(
      await state(src).locator('.visually-hidden').textContent(),
      ', against the workspace: modified, 3 lines added, 1 line removed',
    );
    assert.match(await state(test).innerText(), /^conflicts · 2 hunks/);
    assert.equal(await state(test).getAttribute('title'), 'Both changed');

    await h.send({
      type: 'batch',
      seq: last + 2,
      deltas: [{ type: 'fileStatus', files: [{ path: src, state: 'identical', added: 0, removed: 0 }] }],
    });
    await waitFor('the new state', async () => (await state(src).getAttribute('data-state')) === 'identical');
    assert.equal(await state(test).count(), 0, 'a file not listed has no state');

    await page.getByRole('button', { name: `Compare ${src} with the workspace file` }).click();
    await page.getByRole('button', { name: 'Review this turn’s changes against the workspace' }).click();
    await page.getByRole('button', { name: 'Apply this turn’s files to the workspace' }).press('Enter');
    const commands = await waitFor('the commands posted', async () => {
      const posted = (await h.posted()).filter((m) => m.type === 'runCommand');
      return posted.length === 3 && posted;
    });
    assert.deepEqual(
      commands.map((m) => [m.command, m.args]),
      [
        ['den.compareWithWorkspace', [sessionId, src]],
        ['den.reviewTurn', [sessionId, AGENT]],
        ['den.applyTurn', [sessionId, AGENT]],
      ],
    );
  });
});
