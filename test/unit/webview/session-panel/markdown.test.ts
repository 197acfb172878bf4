import assert from 'node:assert/strict';
import { renderMarkdown } from '../../../../src/webview/session-panel/markdown';
import { parseInline } from '../../../../src/webview/session-panel/markdown-inline';
import { findDisallowed, isText, type VNode } from '../../../../src/webview/shared/vnode';
import { html } from './helpers';

const md = (s: string): string => html(renderMarkdown(s));
const inline = (s: string): string => html(parseInline(s));
const COPY = '<button class="copy-code" type="button" aria-label="Copy code">Copy</button>';

describe('webview markdown renderer', () => {
  const blocks: [string, string, string][] = [
    ['paragraphs split on blank lines', 'one\ntwo\n\nthree', '<p>one\ntwo</p><p>three</p>'],
    ['ATX headings demoted by two levels', '# A\n## B\n###### F', '<h3>A</h3><h4>B</h4><h6>F</h6>'],
    ['closing hashes of a heading dropped', '## Title ##', '<h4>Title</h4>'],
    ['setext headings', 'Big\n===\nSmall\n---', '<h3>Big</h3><h4>Small</h4>'],
    ['a hash without a space is text', '#hashtag', '<p>#hashtag</p>'],
    ['thematic breaks', 'a\n\n***\n\n- - -', '<p>a</p><hr></hr><hr></hr>'],
    [
      'fenced code with a language class and a copy button',
      '```ts\nconst a = 1 < 2;\n```',
      `<div class="code-block">${COPY}<pre><code class="language-ts">const a = 1 &lt; 2;</code></pre></div>`,
    ],
    [
      'tilde fences and an unclosed fence running to the end',
      '~~~\nx\n~~~\n```\nopen',
      `<div class="code-block">${COPY}<pre><code>x</code></pre></div><div class="code-block">${COPY}<pre><code>open</code></pre></div>`,
    ],
    [
      'a language with odd characters gets no class',
      '```"onmouseover=alert(1)\nx\n```',
      `<div class="code-block">${COPY}<pre><code>x</code></pre></div>`,
    ],
    [
      'indented code',
      '    let x;\n    y',
      `<div class="code-block">${COPY}<pre><code>let x;\ny</code></pre></div>`,
    ],
    ['tight bullet list', '- a\n- b', '<ul><li>a</li><li>b</li></ul>'],
    ['nested lists', '- a\n  - b\n    1. c', '<ul><li>a<ul><li>b<ol><li>c</li></ol></li></ul></li></ul>'],
    ['ordered list keeps its start', '3. x\n4. y', '<ol start="3"><li>x</li><li>y</li></ol>'],
    ['loose list wraps items in paragraphs', '- a\n\n- b', '<ul><li><p>a</p></li><li><p>b</p></li></ul>'],
    ['list item with a lazy continuation', '- a\nb', '<ul><li>a\nb</li></ul>'],
    ['different bullets make different lists', '- a\n* b', '<ul><li>a</li></ul><ul><li>b</li></ul>'],
    [
      'blockquote with nested content',
      '> # T\n> - x\n>\n> p',
      '<blockquote><h3>T</h3><ul><li>x</li></ul><p>p</p></blockquote>',
    ],
    ['lazy blockquote continuation', '> a\nb', '<blockquote><p>a\nb</p></blockquote>'],
    [
      'GFM table with alignment',
      '| a | b | c |\n|:--|:-:|--:|\n| 1 | **2** | 3 |',
      '<table><thead><tr><th class="align-left">a</th><th class="align-center">b</th><th class="align-right">c</th></tr></thead>' +
        '<tbody><tr><td class="align-left">1</td><td class="align-center"><strong>2</strong></td><td class="align-right">3</td></tr></tbody></table>',
    ],
    [
      'table rows padded to the header and escaped pipes kept',
      'a | b\n--|--\nx \\| y',
      '<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>x | y</td><td></td></tr></tbody></table>',
    ],
    ['a pipe line without a delimiter row is a paragraph', 'a | b\nc | d', '<p>a | b\nc | d</p>'],
    ['hard breaks: two spaces or a backslash', 'a  \nb\\\nc', '<p>a<br></br>b<br></br>c</p>'],
    ['CRLF line endings', 'a\r\n\r\nb', '<p>a</p><p>b</p>'],
  ];
  for (const [title, src, expected] of blocks) {
    it(`renders ${title}`, () => assert.equal(md(src), expected));
  }

  const inlines: [string, string, string][] = [
    [
      'emphasis and strong',
      '*a* _b_ **c** __d__ ***e***',
      '<em>a</em> <em>b</em> <strong>c</strong> <strong>d</strong> <em><strong>e</strong></em>',
    ],
    ['nested emphasis', '*a **b** c*', '<em>a <strong>b</strong> c</em>'],
    ['intraword underscores stay text', 'snake_case_name', 'snake_case_name'],
    ['intraword stars emphasize', 'a*b*c', 'a<em>b</em>c'],
    ['strikethrough', '~~gone~~ ~one~', '<del>gone</del> ~one~'],
    ['unclosed markers stay literal', '**open and `tick', '**open and `tick'],
    [
      'code spans keep markup literal',
      '`*a* <b>` and ``x ` y``',
      '<code>*a* &lt;b&gt;</code> and <code>x ` y</code>',
    ],
    ['backslash escapes', '\\*not\\* \\[x\\]', '*not* [x]'],
    ['entities decoded as text', '&lt;b&gt; &amp; &#65; &#x42; &bogus;', '&lt;b&gt; &amp; A B &amp;bogus;'],
    [
      'links with a title shown as the real target',
      '[site](https://example.com/a?b=1 "T")',
      '<a href="https://example.com/a?b=1" title="https://example.com/a?b=1">site</a>',
    ],
    [
      'links with angle-bracket destinations and parentheses',
      '[a](<https://x.test/a b>) [b](https://x.test/f(1))',
      '<a href="https://x.test/a%20b" title="https://x.test/a%20b">a</a> <a href="https://x.test/f(1)" title="https://x.test/f(1)">b</a>',
    ],
    [
      'emphasis inside link text',
      '[*x*](https://x.test)',
      '<a href="https://x.test/" title="https://x.test/"><em>x</em></a>',
    ],
    [
      'mailto links',
      '[mail](mailto:a@b.test) <c@d.test>',
      '<a href="mailto:a@b.test" title="mailto:a@b.test">mail</a> <a href="mailto:c@d.test" title="mailto:c@d.test">c@d.test</a>',
    ],
    [
      'autolinks',
      '<https://x.test/p>',
      '<a href="https://x.test/p" title="https://x.test/p">https://x.test/p</a>',
    ],
    [
      'bare URLs without trailing punctuation',
      'see https://x.test/a_b. (https://y.test/c)',
      'see <a href="https://x.test/a_b" title="https://x.test/a_b">https://x.test/a_b</a>. (<a href="https://y.test/c" title="https://y.test/c">https://y.test/c</a>)',
    ],
    [
      'images as a link-like placeholder',
      '![a chart](https://x.test/c.png)',
      '<a href="https://x.test/c.png" title="https://x.test/c.png" class="md-image">[image: a chart]</a>',
    ],
    ['images with an unsafe source as text', '![pic](data:image/png;base64,AAAA)', '[image: pic]'],
    ['reference-style links left as text', '[a][ref]', '[a][ref]'],
    ['brackets without a destination stay text', '[not a link] and [x]', '[not a link] and [x]'],
  ];
  for (const [title, src, expected] of inlines) {
    it(`renders inline ${title}`, () => assert.equal(inline(src), expected));
  }

  it('produces only allow-listed tags and attributes for a long mixed document', () => {
    const doc = blocks.map((b) => b[1]).join('\n\n') + '\n\n' + inlines.map((b) => b[1]).join('\n\n');
    const tree = renderMarkdown(doc);
    assert.ok(tree.length > 20);
    assert.deepEqual(findDisallowed(tree), []);
  });

  it('stays bounded on deeply nested containers', () => {
    const tree = renderMarkdown(`${'> '.repeat(5000)}deep\n\n${'- '.repeat(2000)}x`);
    assert.deepEqual(findDisallowed(tree), []);
    let depth = 0;
    for (let n: VNode | undefined = tree[0]; n && !isText(n); n = n.children[0]) depth++;
    assert.ok(depth <= 16, `depth ${depth}`);
  });

  it('handles pathological inline input (delimiter floods, unclosed brackets and backticks)', () => {
    const inputs = [
      '*a'.repeat(20_000),
      '['.repeat(20_000),
      '`'.repeat(5000) + 'x',
      '_*'.repeat(20_000),
      '*a**'.repeat(10_000),
    ];
    for (const s of inputs) {
      const tree = parseInline(s);
      assert.deepEqual(findDisallowed(tree), []);
    }
  });
});
