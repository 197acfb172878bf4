/**
 * `patchDom` in real (headless) Chromium: a section of a streamed answer patched frame by frame shows
 * exactly what building it afresh shows, keeps the nodes that did not change, and applies the
 * allow-list on the patch path as on the first build.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import type { VNode } from '../../../../src/webview/shared/vnode';
import { closeBrowser, openWebviewPage, type WebviewPage } from './browser-harness';

const ROOT = join(__dirname, '../../../../..');

/** What the test page exposes: the webview's own modules, bundled for the browser. */
interface DomApi {
  patchDom(parent: Element, shown: readonly VNode[] | undefined, next: readonly VNode[]): readonly VNode[];
  renderMarkdown(src: string): VNode[];
}

const DOC = [
  '# Title\n\nSome *emphasis*, **strong** and `code` with a [link](https://example.com/a).\n\n',
  '- one item\n- two **items**\n  continued\n- three\n\n1. first\n2. second\n\n',
  '```ts\nconst a = 1;\nconst b = `x`;\n```\n\n> quoted\n> text\n\n',
  '| a | b |\n|---|:-:|\n| 1 | 2 |\n| 3 | 4 |\n\n---\n\nA closing ~~line~~ with [a bad link](javascript:alert(1)).\n',
].join('');

/** Cuts `s` into chunks of 1–9 characters, the same way every run. */
function chunks(s: string): string[] {
  const out: string[] = [];
  let seed = 7;
  for (let i = 0; i < s.length;) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const n = 1 + (seed % 9);
    out.push(s.slice(i, i + n));
    i += n;
  }
  return out;
}

// A root hook: the browser is shared by every webview browser test of the run, closed at its end.
after(closeBrowser);

describe('webview: patchDom in Chromium', function () {
  this.timeout(60_000);
  let dir: string;
  let bundle: string;
  let p: WebviewPage | undefined;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'den-patch-'));
    bundle = join(dir, 'dom.js');
    const r = await esbuild.build({
      stdin: {
        contents:
          "export { patchDom } from './src/webview/shared/dom';\nexport { renderMarkdown } from './src/webview/session-panel/markdown';\n",
        resolveDir: ROOT,
        loader: 'ts',
      },
      bundle: true,
      platform: 'browser',
      format: 'iife',
      globalName: '__denDom',
      target: 'es2022',
      write: false,
      logLevel: 'silent',
    });
    writeFileSync(bundle, r.outputFiles[0].contents);
  });

  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  afterEach(async () => {
    await p?.close();
    p = undefined;
  });

  it('shows after every chunk of a streamed answer exactly what a fresh build of its text shows', async () => {
    p = await openWebviewPage(bundle, '');
    const parts = chunks(DOC);
    const mismatches = await p.page.evaluate((cs) => {
      const api = (window as unknown as { __denDom: DomApi }).__denDom;
      const live = document.createElement('div');
      let shown: readonly VNode[] | undefined;
      let text = '';
      const bad: string[] = [];
      for (const c of cs) {
        text += c;
        shown = api.patchDom(live, shown, api.renderMarkdown(text));
        const fresh = document.createElement('div');
        api.patchDom(fresh, undefined, api.renderMarkdown(text));
        if (fresh.innerHTML !== live.innerHTML) bad.push(text.length + ': ' + live.innerHTML);
      }
      return { bad, html: live.innerHTML };
    }, parts);
    assert.ok(parts.length > 50, `many chunks (${parts.length})`);
    assert.deepEqual(mismatches.bad, []);
    assert.match(mismatches.html, /<pre>/);
    assert.match(mismatches.html, /<table>/);
    assert.doesNotMatch(mismatches.html, /javascript:/);
  });

  it('keeps the nodes that did not change and gives a growing text node its new text', async () => {
    p = await openWebviewPage(bundle, '');
    const r = await p.page.evaluate(() => {
      const api = (window as unknown as { __denDom: DomApi }).__denDom;
      const el = document.createElement('div');
      const text = 'First paragraph.\n\nSecond, growing';
      let shown = api.patchDom(el, undefined, api.renderMarkdown(text));
      const first = el.children[0];
      const growing = el.children[1].firstChild;
      shown = api.patchDom(el, shown, api.renderMarkdown(text + ' further'));
      const keptWhileGrowing = el.children[0] === first && el.children[1].firstChild === growing;
      api.patchDom(el, shown, api.renderMarkdown(text + ' further.\n\nThird.'));
      return {
        keptWhileGrowing,
        firstKept: el.children[0] === first,
        grownText: growing?.textContent,
        count: el.children.length,
        last: el.children[2]?.textContent,
      };
    });
    assert.equal(r.keptWhileGrowing, true);
    assert.equal(r.firstKept, true);
    assert.equal(r.grownText, 'Second, growing further.');
    assert.equal(r.count, 3);
    assert.equal(r.last, 'Third.');
  });

  it('takes out disallowed tags and attributes on the patch path as on the first build', async () => {
    p = await openWebviewPage(bundle, '');
    const r = await p.page.evaluate(() => {
      const api = (window as unknown as { __denDom: DomApi }).__denDom;
      const el = document.createElement('div');
      const clean: VNode[] = [{ tag: 'p', attrs: {}, children: [{ text: 'hello' }] }];
      const hostile: VNode[] = [
        { tag: 'p', attrs: { onclick: 'alert(1)' }, children: [{ text: 'hello' }] },
        { tag: 'script', attrs: {}, children: [{ text: 'alert(2)' }] },
        { tag: 'a', attrs: { href: 'javascript:alert(3)', title: 't' }, children: [{ text: 'x' }] },
        { tag: 'img', attrs: { src: 'https://example.com/x.png' }, children: [] },
      ];
      const shown = api.patchDom(el, undefined, clean);
      const patched = api.patchDom(el, shown, hostile);
      const fresh = document.createElement('div');
      api.patchDom(fresh, undefined, hostile);
      return { patched: el.innerHTML, fresh: fresh.innerHTML, shownCount: patched.length };
    });
    assert.equal(r.patched, '<p>hello</p>alert(2)<a title="t">x</a>');
    assert.equal(r.fresh, r.patched);
    assert.equal(r.shownCount, 3, 'the returned tree maps one node to one DOM node');
  });

  it('rebuilds when the element no longer holds what it was patched from', async () => {
    p = await openWebviewPage(bundle, '');
    const html = await p.page.evaluate(() => {
      const api = (window as unknown as { __denDom: DomApi }).__denDom;
      const el = document.createElement('div');
      const shown = api.patchDom(el, undefined, api.renderMarkdown('a\n\nb'));
      el.appendChild(document.createElement('hr'));
      api.patchDom(el, shown, api.renderMarkdown('a\n\nb c'));
      return el.innerHTML;
    });
    assert.equal(html, '<p>a</p><p>b c</p>');
  });
});
