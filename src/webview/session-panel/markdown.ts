/**
 * A safe Markdown renderer for untrusted agent text: CommonMark's common blocks (paragraphs, ATX and
 * setext headings, fenced and indented code, lists, blockquotes, rules) plus GFM tables, into a
 * virtual node tree of allow-listed tags only. Nothing is ever interpreted as HTML: raw HTML stays
 * text. Headings are demoted by two levels (h1 → h3) because turns own h2.
 */
import { l10n } from '../../core/shared/l10n';
import { parseInline } from './markdown-inline';
import { decodeEntities } from '../shared/safe-url';
import { el, text, type VElement, type VNode } from '../shared/vnode';

/** Containers nested deeper than this are rendered as plain paragraphs (no unbounded recursion). */
const MAX_DEPTH = 12;

const FENCE = /^(`{3,}|~{3,})(.*)$/;
const ATX = /^(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
const HR = /^(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const BULLET = /^([*+-])([ \t]+|$)/;
const ORDERED = /^(\d{1,9})([.)])([ \t]+|$)/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const TABLE_DELIM = /^\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;

interface ListMarker {
  ordered: boolean;
  /** The bullet character, or the ordered delimiter (`.` / `)`). */
  ch: string;
  start: number;
  /** Column where the item's content starts, relative to the marker line's start. */
  contentIndent: number;
  rest: string;
}

/** Renders Markdown into safe virtual nodes. */
export function renderMarkdown(src: string): VNode[] {
  return parseBlocks(
    src
      .replace(/\r\n?/g, '\n')
      .replace(/\u0000/g, '\ufffd')
      .split('\n'),
    0,
  );
}

function expandTabs(line: string): string {
  if (!line.includes('\t')) return line;
  let out = '';
  for (const c of line) out += c === '\t' ? ' '.repeat(4 - (out.length % 4)) : c;
  return out;
}

function indentOf(line: string): number {
  let i = 0;
  while (line[i] === ' ') i++;
  return i;
}

function isBlank(line: string): boolean {
  return line.trim() === '';
}

function listMarker(line: string): ListMarker | undefined {
  const indent = indentOf(line);
  if (indent > 3) return undefined;
  const t = line.slice(indent);
  if (HR.test(t)) return undefined;
  const b = BULLET.exec(t);
  const o = b ? undefined : ORDERED.exec(t);
  const m = b ?? o;
  if (!m) return undefined;
  const markerWidth = b ? 1 : o![1].length + 1;
  const spaces = m[b ? 2 : 3].length;
  const rest = t.slice(markerWidth + spaces);
  // Content starting with 5+ spaces is indented code: the content column is one past the marker.
  const pad = rest === '' || spaces > 4 ? 1 : spaces;
  return {
    ordered: !b,
    ch: b ? b[1] : o![2],
    start: b ? 1 : parseInt(o![1], 10),
    contentIndent: indent + markerWidth + pad,
    rest: spaces > 4 ? t.slice(markerWidth + 1) : rest,
  };
}

/** Whether a line starts a block that ends a paragraph. */
function interrupts(line: string): boolean {
  const indent = indentOf(line);
  if (indent > 3) return false;
  const t = line.slice(indent);
  if (FENCE.test(t) || HR.test(t) || t.startsWith('>') || /^#{1,6}(?:[ \t]|$)/.test(t)) return true;
  const m = listMarker(line);
  return !!m && m.rest.trim() !== '' && (!m.ordered || m.start === 1);
}

function isTableStart(lines: string[], i: number): boolean {
  const head = lines[i];
  const delim = lines[i + 1];
  if (delim === undefined || !head.includes('|') || !TABLE_DELIM.test(delim.trim())) return false;
  if (!delim.includes('|') && !/^\s*:?-+:?\s*$/.test(delim)) return false;
  return splitRow(head).length === splitRow(delim).length;
}

function parseBlocks(lines: string[], depth: number): VNode[] {
  const out: VNode[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = expandTabs(lines[i]);
    if (isBlank(line)) {
      i++;
      continue;
    }
    const indent = indentOf(line);
    const t = line.slice(indent);
    if (indent >= 4) {
      i = indentedCode(lines, i, out);
      continue;
    }
    const fence = FENCE.exec(t);
    if (fence && !(fence[1][0] === '`' && fence[2].includes('`'))) {
      i = fencedCode(lines, i, indent, fence, out);
      continue;
    }
    const atx = ATX.exec(t);
    if (atx) {
      const content = (atx[2] ?? '').replace(/(?:^|[ \t]+)#+$/, '').trim();
      out.push(el(`h${Math.min(6, atx[1].length + 2)}`, parseInline(content)));
      i++;
      continue;
    }
    if (HR.test(t)) {
      out.push(el('hr'));
      i++;
      continue;
    }
    if (t.startsWith('>') && depth < MAX_DEPTH) {
      i = blockquote(lines, i, depth, out);
      continue;
    }
    if (listMarker(line) && depth < MAX_DEPTH) {
      i = list(lines, i, depth, out);
      continue;
    }
    if (isTableStart(lines, i)) {
      i = table(lines, i, out);
      continue;
    }
    i = paragraph(lines, i, out);
  }
  return out;
}

function codeBlock(code: string, lang: string): VElement {
  const attrs: Record<string, string> = {};
  if (/^[A-Za-z0-9_+-]{1,40}$/.test(lang)) attrs.class = `language-${lang}`;
  return el(
    'div',
    [
      el('button', [text(l10n.t('Copy'))], {
        class: 'copy-code',
        type: 'button',
        'aria-label': l10n.t('Copy code'),
      }),
      el('pre', [el('code', [text(code)], attrs)]),
    ],
    { class: 'code-block' },
  );
}

function fencedCode(
  lines: string[],
  i: number,
  indent: number,
  fence: RegExpExecArray,
  out: VNode[],
): number {
  const marker = fence[1];
  const lang = decodeEntities(fence[2].trim().split(/\s+/)[0] ?? '').replace(/\\(.)/g, '$1');
  const close = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`);
  const body: string[] = [];
  let j = i + 1;
  for (; j < lines.length; j++) {
    const l = expandTabs(lines[j]);
    if (close.test(l)) {
      j++;
      break;
    }
    body.push(l.slice(Math.min(indent, indentOf(l))));
  }
  out.push(codeBlock(body.join('\n'), lang));
  return j;
}

function indentedCode(lines: string[], i: number, out: VNode[]): number {
  const body: string[] = [];
  let j = i;
  for (; j < lines.length; j++) {
    const l = expandTabs(lines[j]);
    if (!isBlank(l) && indentOf(l) < 4) break;
    body.push(l.slice(Math.min(4, indentOf(l))));
  }
  while (body.length > 0 && isBlank(body[body.length - 1])) body.pop();
  out.push(codeBlock(body.join('\n'), ''));
  return j;
}

function blockquote(lines: string[], i: number, depth: number, out: VNode[]): number {
  const inner: string[] = [];
  let j = i;
  let lazyOk = false;
  for (; j < lines.length; j++) {
    const l = expandTabs(lines[j]);
    const ind = indentOf(l);
    if (ind <= 3 && l.slice(ind).startsWith('>')) {
      const rest = l.slice(ind + 1);
      const stripped = rest.startsWith(' ') ? rest.slice(1) : rest;
      inner.push(stripped);
      lazyOk = !isBlank(stripped) && !FENCE.test(stripped.trim());
    } else if (lazyOk && !isBlank(l) && !interrupts(l)) {
      inner.push(l);
    } else break;
  }
  out.push(el('blockquote', parseBlocks(inner, depth + 1)));
  return j;
}

function list(lines: string[], i: number, depth: number, out: VNode[]): number {
  const first = listMarker(expandTabs(lines[i]))!;
  const items: VNode[][] = [];
  let loose = false;
  let j = i;
  while (j < lines.length) {
    const m = listMarker(expandTabs(lines[j]));
    if (!m || m.ordered !== first.ordered || m.ch !== first.ch) break;
    const body: string[] = [m.rest];
    j++;
    let inFence = FENCE.test(m.rest.trim());
    let innerBlank = false;
    while (j < lines.length) {
      const l = expandTabs(lines[j]);
      if (isBlank(l)) {
        body.push('');
        j++;
        continue;
      }
      if (indentOf(l) >= m.contentIndent) {
        const content = l.slice(m.contentIndent);
        if (FENCE.test(content.trim())) inFence = !inFence;
        if (body[body.length - 1] === '' && !inFence) innerBlank = true;
        body.push(content);
        j++;
        continue;
      }
      if (body[body.length - 1] === '' || interrupts(l) || listMarker(l)) break;
      body.push(l.trim());
      j++;
    }
    let trailing = 0;
    while (body.length > 1 && body[body.length - 1] === '') {
      body.pop();
      trailing++;
    }
    if (innerBlank && body.length > 1) loose = true;
    const next = j < lines.length ? listMarker(expandTabs(lines[j])) : undefined;
    if (trailing > 0 && next && next.ordered === first.ordered && next.ch === first.ch) loose = true;
    items.push(parseBlocks(body, depth + 1));
  }
  const lis = items.map((children) => el('li', loose ? children : children.flatMap(unwrapParagraph)));
  const attrs: Record<string, string> = {};
  if (first.ordered && first.start !== 1) attrs.start = String(first.start);
  out.push(el(first.ordered ? 'ol' : 'ul', lis, attrs));
  return j;
}

function unwrapParagraph(n: VNode): VNode[] {
  return 'tag' in n && n.tag === 'p' ? n.children : [n];
}

function paragraph(lines: string[], i: number, out: VNode[]): number {
  const body: string[] = [lines[i].replace(/^[ \t]+/, '')];
  let j = i + 1;
  for (; j < lines.length; j++) {
    const l = expandTabs(lines[j]);
    const setext = SETEXT.exec(l);
    if (setext) {
      const level = setext[1][0] === '=' ? 3 : 4;
      out.push(el(`h${level}`, parseInline(body.join('\n'))));
      return j + 1;
    }
    if (isBlank(l) || interrupts(l) || isTableStart(lines, j)) break;
    body.push(l.replace(/^[ \t]+/, ''));
  }
  out.push(el('p', parseInline(body.join('\n').replace(/[ \t]+$/, ''))));
  return j;
}

/** The cells of a table row (pipes escaped with a backslash stay in the cell). */
function splitRow(line: string): string[] {
  let s = line.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  const cells: string[] = [];
  let cur = '';
  for (let k = 0; k < s.length; k++) {
    if (s[k] === '\\' && s[k + 1] === '|') {
      cur += '|';
      k++;
    } else if (s[k] === '|') {
      cells.push(cur.trim());
      cur = '';
    } else cur += s[k];
  }
  cells.push(cur.trim());
  return cells;
}

function table(lines: string[], i: number, out: VNode[]): number {
  const head = splitRow(lines[i]);
  const aligns = splitRow(lines[i + 1]).map((c) => {
    const l = c.startsWith(':');
    const r = c.endsWith(':');
    return l && r ? 'align-center' : r ? 'align-right' : l ? 'align-left' : '';
  });
  const cell = (tag: string, content: string, k: number): VNode =>
    el(tag, parseInline(content), aligns[k] ? { class: aligns[k] } : {});
  const rows: VNode[] = [];
  let j = i + 2;
  for (; j < lines.length; j++) {
    const l = lines[j];
    if (isBlank(l) || !l.includes('|') || interrupts(expandTabs(l))) break;
    const cells = splitRow(l);
    rows.push(
      el(
        'tr',
        head.map((_, k) => cell('td', cells[k] ?? '', k)),
      ),
    );
  }
  const children: VNode[] = [
    el('thead', [
      el(
        'tr',
        head.map((h, k) => cell('th', h, k)),
      ),
    ]),
  ];
  if (rows.length > 0) children.push(el('tbody', rows));
  out.push(el('table', children));
  return j;
}
