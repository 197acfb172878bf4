/**
 * Files dropped on the panel, in real (headless) Chromium: the webview reads what VS Code's drag
 * carries and posts `dropUris`; the panel shows it is a drop target while a drag is over it.
 */
import assert from 'node:assert/strict';
import { closeBrowser, openHarness, started, type Harness } from './browser-harness';

// A root hook: the browser is shared by every webview browser test of the run, closed at its end.
after(closeBrowser);

/** Dispatches a drag event carrying `data` on the composer's input (the drop bubbles to the panel). */
function drag(h: Harness, type: string, data: Record<string, string>): Promise<boolean> {
  return h.page.evaluate(
    ({ type, data }) => {
      const dt = new DataTransfer();
      for (const [k, v] of Object.entries(data)) dt.setData(k, v);
      const ev = new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true });
      document.getElementById('composer-input')?.dispatchEvent(ev);
      return ev.defaultPrevented;
    },
    { type, data },
  );
}

describe('webview: files dropped on the panel (Chromium)', function () {
  this.timeout(60_000);
  let h: Harness;

  afterEach(async () => {
    await h?.close();
  });

  it('posts every URI of an Explorer drag, and shows the drop target meanwhile', async () => {
    h = await openHarness();
    await started(h);
    const data = {
      'text/uri-list': 'file:///w/a.ts',
      resourceurls: JSON.stringify(['file:///w/a.ts', 'file:///w/src']),
    };
    await drag(h, 'dragenter', data);
    assert.equal(await h.page.locator('#app.drop-target').count(), 1);
    assert.equal(await drag(h, 'dragover', data), true, 'dragover was not accepted');
    assert.equal(await drag(h, 'drop', data), true, 'the drop was left to the browser');
    assert.equal(await h.page.locator('#app.drop-target').count(), 0);
    const posted = await h.posted();
    assert.deepEqual(
      posted.filter((m) => m.type === 'dropUris'),
      [{ type: 'dropUris', uris: ['file:///w/a.ts', 'file:///w/src'] }],
    );
    assert.equal(await h.page.locator('#composer-input').inputValue(), '', 'the URIs went into the draft');
  });

  it('leaves drags of plain text to the browser', async () => {
    h = await openHarness();
    await started(h);
    assert.equal(await drag(h, 'dragover', { 'text/plain': 'hello' }), false);
    assert.equal(await drag(h, 'drop', { 'text/plain': 'hello' }), false);
    assert.deepEqual(
      (await h.posted()).filter((m) => m.type === 'dropUris'),
      [],
    );
  });
});
