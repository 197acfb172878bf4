import assert from 'node:assert/strict';
import { renderMarkdown } from '../../../../src/webview/session-panel/markdown';
import { safeHref } from '../../../../src/webview/shared/safe-url';
import {
  ALLOWED,
  findDisallowed,
  isText,
  textOf,
  type VElement,
  type VNode,
} from '../../../../src/webview/shared/vnode';
import { XSS_CORPUS } from './xss-corpus';

function elements(nodes: readonly VNode[]): VElement[] {
  const out: VElement[] = [];
  for (const n of nodes) {
    if (isText(n)) continue;
    out.push(n, ...elements(n.children));
  }
  return out;
}

describe('webview markdown renderer on an XSS corpus', () => {
  it('has a corpus of at least 30 payloads', () => assert.ok(XSS_CORPUS.length >= 30));

  for (const c of XSS_CORPUS) {
    it(`keeps ${c.name} inert`, () => {
      const tree = renderMarkdown(c.md);
      assert.deepEqual(findDisallowed(tree), []);
      const els = elements(tree);
      for (const e of els) {
        assert.ok(Object.prototype.hasOwnProperty.call(ALLOWED, e.tag), e.tag);
        for (const name of Object.keys(e.attrs)) {
          assert.ok(!/^on/i.test(name) && name !== 'style' && name !== 'src', `${e.tag}[${name}]`);
        }
      }
      const links = els.filter((e) => e.tag === 'a');
      assert.equal(links.length, c.links, 'links kept');
      for (const a of links) {
        assert.match(a.attrs.href, /^(?:https?:\/\/|mailto:)/);
        assert.equal(safeHref(a.attrs.href), a.attrs.href);
        assert.equal(a.attrs.title, a.attrs.href, 'the tooltip shows the real target');
        assert.doesNotMatch(textOf(a.children), /[\u202a-\u202e\u2066-\u2069]/);
      }
      // Raw HTML is shown, not dropped: the tag's text is still there for the person to read.
      const tag = /<(script|img|svg|iframe|a|math|template|object|embed|form|style|div|meta|base)\b/i.exec(
        c.md,
      );
      if (tag && !c.md.startsWith('```') && !c.inHref)
        assert.ok(textOf(tree).toLowerCase().includes(`<${tag[1].toLowerCase()}`));
    });
  }

  it('shows a disallowed element of a hand-made tree as broken (the DOM layer keeps only its text)', () => {
    const bad: VNode[] = [
      { tag: 'script', attrs: {}, children: [{ text: 'alert(1)' }] },
      { tag: 'a', attrs: { href: 'javascript:alert(1)' }, children: [] },
      { tag: 'p', attrs: { onclick: 'x' }, children: [] },
      { tag: 'code', attrs: { class: 'language-x" onclick="y' }, children: [] },
    ];
    assert.equal(findDisallowed(bad).length, 4);
  });
});
