/**
 * The composer's attempts picker (issue 24, "Attempts") in real (headless) Chromium: offered in a
 * new session only, reached from the keyboard, and what the send carries.
 */
import assert from 'node:assert/strict';
import { createTranscript } from '../../../../src/core/transcript/reducer';
import { closeBrowser, openHarness, started, type Harness } from './browser-harness';
import { composer, initMessage } from './helpers';

after(closeBrowser);

describe('webview: the composer runs a new session’s task as attempts', function () {
  this.timeout(60_000);
  let h: Harness;

  afterEach(async () => {
    await h?.close();
  });

  it('offers 1–4 attempts in a new session, labelled, keyboard reachable, and sends the count', async () => {
    h = await openHarness();
    await h.send(
      initMessage(createTranscript('new-session'), 1, {
        composer: composer({ running: false, attempts: true }),
      }),
    );
    const picker = h.page.locator('#attempts');
    await picker.waitFor({ state: 'visible' });
    assert.equal(await picker.getAttribute('aria-label'), 'Attempts');
    assert.deepEqual(await picker.locator('option').allInnerTexts(), [
      '1 attempt',
      '2 attempts',
      '3 attempts',
      '4 attempts',
    ]);
    // From the keyboard: Tab from the fast/think buttons reaches the picker.
    await h.page.locator('#effort-think').focus();
    await h.page.keyboard.press('Tab');
    assert.equal(await h.page.evaluate(() => document.activeElement?.id), 'attempts');
    await picker.selectOption('3');
    const input = h.page.locator('#composer-input');
    await input.fill('Write a varied parser');
    assert.equal(await h.page.locator('#send').innerText(), 'Start 3 Attempts');
    await input.press('Enter');
    const sent = (await h.posted()).filter((m) => m.type === 'send').pop();
    assert.equal(sent?.attempts, 3);
    assert.equal(sent?.text, 'Write a varied parser');
  });

  it('a plain send carries no count, and a session that is not new offers no attempts', async () => {
    h = await openHarness();
    // An existing session whose history is not shown yet: the host does not offer attempts.
    await h.send(initMessage(createTranscript('old-session'), 1, { composer: composer({ running: false }) }));
    await h.frames(2);
    assert.equal(await h.page.locator('#attempts').isVisible(), false);
    await h.close();
    h = await openHarness();
    // The host still says new, but the page shows a turn already.
    await started(h, { composer: composer({ running: false, attempts: true }) });
    await h.frames(2);
    assert.equal(await h.page.locator('#attempts').isVisible(), false);
    const input = h.page.locator('#composer-input');
    await input.fill('and a follow-up');
    assert.equal(await h.page.locator('#send').innerText(), 'Send');
    await input.press('Enter');
    const sent = (await h.posted()).filter((m) => m.type === 'send').pop();
    assert.equal(sent?.text, 'and a follow-up');
    assert.equal('attempts' in (sent ?? {}), false);
  });
});
