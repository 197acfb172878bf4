/**
 * `@den` in the Chat view, as a person uses it: with the test-only stub model installed (VS Code
 * calls participants only when some model is available; Den ships none), `@den /code …` starts a
 * code turn, streams the answer, and offers Open Session and Review Changes; Open Session opens the
 * session's panel. Screenshot looked at: `shots/chat-den.png`.
 */
import assert from 'node:assert/strict';
import { runCommand } from '../harness/workbench';
import { waitFor } from '../support/wait';
import { UI_WAIT, shot } from './sessions-view';
import { useSignedInWorkbench } from './signed-in';

describe('@den in the Chat view', function () {
  this.timeout(180_000);
  const t = useSignedInWorkbench('chat', { emulator: {}, chat: true });

  it('starts a code turn from the chat, streams its answer, and opens the session from the answer', async () => {
    const { page } = t;
    await runCommand(page, 'Chat: Open Chat');
    const input = page.locator('.interactive-input-part .monaco-editor').first();
    await input.waitFor();
    // Requests fail ("Language model unavailable") until the stub model is in the picker.
    await page
      .locator('.interactive-input-part', { hasText: 'Den Stub' })
      .first()
      .waitFor({ timeout: 60_000 });
    await input.click();
    await page.keyboard.type('@den /code add a slugify helper');
    await page.keyboard.press('Enter');
    const response = page.locator('.interactive-item-container.interactive-response').last();
    await response.waitFor({ timeout: 30_000 });
    await waitFor('the answer to end with its files and buttons', () => response.innerText(), {
      timeoutMs: 60_000,
      intervalMs: 200,
      // the last parts: the files, then the buttons
      until: (text) => /Files:[\s\S]*Open Session[\s\S]*Review Changes/.test(text),
    });
    const buttons = response.locator('.monaco-button');
    assert.deepEqual(
      (await buttons.allInnerTexts())
        .map((b) => b.trim())
        .filter((b) => /Open Session|Review Changes/.test(b)),
      ['Open Session', 'Review Changes'],
    );
    await shot(t.wb, 'chat-den');
    await buttons.filter({ hasText: 'Open Session' }).first().click();
    await page
      .locator('.tab', { hasText: /slugify/i })
      .first()
      .waitFor({ timeout: UI_WAIT.timeoutMs });
  });
});
