/**
 * Inline Markdown (a CommonMark subset plus GFM strikethrough and bare URLs) into virtual nodes:
 * code spans, emphasis, links, images (as "[image: alt]" links), autolinks, hard breaks. Raw HTML is
 * kept as text. Emphasis follows CommonMark's delimiter-run algorithm, so cost stays near linear.
 */
import { firstAtOrAfter, matchAutolink, matchBareUrl, parseLinkTail } from './markdown-links';
import { BIDI_CONTROLS, decodeEntities, safeHref } from '../shared/safe-url';
import { el, isText, text, textOf, type VNode } from '../shared/vnode';

interface Tok {
  prev: Tok | null;
  next: Tok | null;
  /** Literal text (text, delimiter and bracket tokens). */
  s: string;
  node?: VNode;
  delim?: Delim;
}

interface Delim {
  tok: Tok;
  ch: string;
  /** Characters left in the run. */
  n: number;
  orig: number;
  canOpen: boolean;
  canClose: boolean;
  /** Neighbours on the delimiter stack (document order). */
  prev: Delim | null;
  next: Delim | null;
}

interface Bracket {
  tok: Tok;
  image: boolean;
  active: boolean;
  /** The delimiter on top of the stack when the bracket opened: later ones lie inside it. */
  delimBottom: Delim | null;
}

const PUNCT = /[!-/:-@[-`{-~\p{P}\p{S}]/u;
const ESCAPABLE = /[!-/:-@[-`{-~]/;
const SPECIAL = /[\\`*_~[\]!<\n&h]/g;

function isSpace(c: string): boolean {
  return c === '' || /\s/.test(c);
}

function isPunct(c: string): boolean {
  return c !== '' && PUNCT.test(c);
}

class InlineParser {
  private head: Tok = { prev: null, next: null, s: '' };
  private tail: Tok = this.head;
  private lastDelim: Delim | null = null;
  private brackets: Bracket[] = [];
  private pos = 0;
  private backticks = new Map<number, number[]>();

  constructor(private readonly src: string) {
    const re = /`+/g;
    for (let m = re.exec(src); m; m = re.exec(src)) {
      const list = this.backticks.get(m[0].length) ?? [];
      list.push(m.index);
      this.backticks.set(m[0].length, list);
    }
  }

  parse(): VNode[] {
    const src = this.src;
    while (this.pos < src.length) {
      SPECIAL.lastIndex = this.pos;
      const m = SPECIAL.exec(src);
      const at = m ? m.index : src.length;
      if (at > this.pos) this.pushText(src.slice(this.pos, at));
      this.pos = at;
      if (!m) break;
      this.special(m[0]);
    }
    this.processEmphasis(null);
    return this.collect(this.head.next, null);
  }

  private special(c: string): void {
    const src = this.src;
    const p = this.pos;
    switch (c) {
      case '\\': {
        const nx = src[p + 1] ?? '';
        if (nx === '\n') {
          this.pushNode(el('br'));
          this.pos = p + 2;
        } else if (ESCAPABLE.test(nx)) {
          this.pushText(nx);
          this.pos = p + 2;
        } else {
          this.pushText('\\');
          this.pos = p + 1;
        }
        return;
      }
      case '`':
        return this.codeSpan();
      case '*':
      case '_':
      case '~':
        return this.delimRun(c);
      case '!':
        if (src[p + 1] === '[') {
          this.pushBracket('![', true);
          this.pos = p + 2;
        } else {
          this.pushText('!');
          this.pos = p + 1;
        }
        return;
      case '[':
        this.pushBracket('[', false);
        this.pos = p + 1;
        return;
      case ']':
        this.pos = p + 1;
        return this.closeBracket();
      case '<':
        return this.autolink();
      case '\n':
        return this.lineBreak();
      case '&': {
        const m = /^&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});/.exec(src.slice(p, p + 12));
        this.pushText(m ? decodeEntities(m[0]) : '&');
        this.pos = p + (m ? m[0].length : 1);
        return;
      }
      default:
        return this.bareUrl();
    }
  }

  private codeSpan(): void {
    const src = this.src;
    let n = 0;
    while (src[this.pos + n] === '`') n++;
    const start = this.pos + n;
    const close = firstAtOrAfter(this.backticks.get(n) ?? [], start);
    if (close === undefined) {
      this.pushText('`'.repeat(n));
      this.pos = start;
      return;
    }
    let code = src.slice(start, close).replace(/\n/g, ' ');
    if (code.length > 2 && code.startsWith(' ') && code.endsWith(' ') && code.trim() !== '') {
      code = code.slice(1, -1);
    }
    this.pushNode(el('code', [text(code)]));
    this.pos = close + n;
  }

  private delimRun(ch: string): void {
    const src = this.src;
    const start = this.pos;
    let n = 0;
    while (src[start + n] === ch) n++;
    this.pos = start + n;
    const run = ch.repeat(n);
    if (ch === '~' && n !== 2) return this.pushText(run);
    const before = start > 0 ? src[start - 1] : '';
    const after = src[start + n] ?? '';
    const left = !isSpace(after) && (!isPunct(after) || isSpace(before) || isPunct(before));
    const right = !isSpace(before) && (!isPunct(before) || isSpace(after) || isPunct(after));
    const canOpen = ch === '_' ? left && (!right || isPunct(before)) : left;
    const canClose = ch === '_' ? right && (!left || isPunct(after)) : right;
    const tok = this.append({ prev: null, next: null, s: run });
    if (canOpen || canClose) {
      const d: Delim = { tok, ch, n, orig: n, canOpen, canClose, prev: this.lastDelim, next: null };
      if (this.lastDelim) this.lastDelim.next = d;
      this.lastDelim = d;
      tok.delim = d;
    }
  }

  private pushBracket(s: string, image: boolean): void {
    const tok = this.append({ prev: null, next: null, s });
    this.brackets.push({ tok, image, active: true, delimBottom: this.lastDelim });
  }

  private closeBracket(): void {
    const opener = this.brackets.pop();
    if (!opener) return this.pushText(']');
    if (!opener.active) return this.pushText(']');
    const tail = parseLinkTail(this.src, this.pos);
    if (!tail) return this.pushText(']');
    this.pos = tail.end;
    const dest = tail.dest;
    this.processEmphasis(opener.delimBottom);
    const children = this.collect(opener.tok.next, null);
    this.cut(opener.tok);
    const href = safeHref(decodeEntities(dest.replace(/\\([!-/:-@[-`{-~])/g, '$1')).replace(/ /g, '%20'));
    if (opener.image) {
      const label = `[image: ${textOf(children).replace(BIDI_CONTROLS, '')}]`;
      this.pushNode(href ? el('a', [text(label)], { href, title: href, class: 'md-image' }) : text(label));
      return;
    }
    for (const b of this.brackets) if (!b.image) b.active = false;
    stripBidi(children);
    this.pushNode(
      href ? el('a', children, { href, title: href }) : el('span', children, { class: 'md-unsafe-link' }),
    );
  }

  private autolink(): void {
    const m = matchAutolink(this.src, this.pos);
    if (!m) {
      this.pushText('<');
      this.pos++;
      return;
    }
    this.pos += m.length;
    const href = safeHref(decodeEntities(m.href));
    this.pushNode(href ? el('a', [text(m.label)], { href, title: href }) : text(`<${m.label}>`));
  }

  private bareUrl(): void {
    const before = this.pos > 0 ? this.src[this.pos - 1] : '';
    const ok = this.brackets.length === 0 && (isSpace(before) || /[(*_~"']/.test(before));
    const url = ok ? matchBareUrl(this.src, this.pos) : undefined;
    const href = url !== undefined ? safeHref(url) : undefined;
    if (url === undefined || !href) {
      this.pushText('h');
      this.pos++;
      return;
    }
    this.pushNode(el('a', [text(url)], { href, title: href }));
    this.pos += url.length;
  }

  private lineBreak(): void {
    const last = this.tail;
    let hard = false;
    if (!last.node && !last.delim && last !== this.head) {
      const trimmed = last.s.replace(/ +$/, '');
      hard = last.s.length - trimmed.length >= 2;
      last.s = trimmed;
    }
    this.pushNode(hard ? el('br') : text('\n'));
    this.pos++;
    while (this.src[this.pos] === ' ' || this.src[this.pos] === '\t') this.pos++;
  }

  /** CommonMark's "process emphasis" over the delimiters above `bottom` (exclusive). */
  private processEmphasis(bottom: Delim | null): void {
    const floors = new Map<string, Delim | null>();
    let closer = this.lastDelim;
    while (closer && closer.prev !== bottom) closer = closer.prev;
    if (closer === bottom) return;
    while (closer) {
      if (!closer.canClose) {
        closer = closer.next;
        continue;
      }
      const key = `${closer.ch}${closer.canOpen ? 1 : 0}${closer.orig % 3}`;
      const floor = floors.has(key) ? floors.get(key)! : bottom;
      let opener = closer.prev;
      for (; opener && opener !== floor && opener !== bottom; opener = opener.prev) {
        if (opener.ch !== closer.ch || !opener.canOpen) continue;
        const odd = (opener.canClose || closer.canOpen) && (opener.orig + closer.orig) % 3 === 0;
        if (!odd || (opener.orig % 3 === 0 && closer.orig % 3 === 0)) break;
      }
      if (!opener || opener === floor || opener === bottom) {
        floors.set(key, closer.prev);
        const next: Delim | null = closer.next;
        if (!closer.canOpen) this.removeDelim(closer);
        closer = next;
        continue;
      }
      const use = closer.ch === '~' ? 2 : opener.n >= 2 && closer.n >= 2 ? 2 : 1;
      const tag = closer.ch === '~' ? 'del' : use === 2 ? 'strong' : 'em';
      const inner = this.collect(opener.tok.next, closer.tok);
      const node: Tok = { prev: opener.tok, next: closer.tok, s: '', node: el(tag, inner) };
      opener.tok.next = node;
      closer.tok.prev = node;
      opener.n -= use;
      closer.n -= use;
      opener.tok.s = opener.tok.s.slice(use);
      closer.tok.s = closer.tok.s.slice(use);
      // Delimiters between the pair can no longer match anything.
      while (closer.prev && closer.prev !== opener) this.removeDelim(closer.prev);
      if (opener.n === 0) {
        this.unlink(opener.tok);
        this.removeDelim(opener);
      }
      if (closer.n === 0) {
        const next: Delim | null = closer.next;
        this.unlink(closer.tok);
        this.removeDelim(closer);
        closer = next;
      }
    }
    // Whatever is left above the bottom stays literal text.
    while (this.lastDelim && this.lastDelim !== bottom) this.removeDelim(this.lastDelim);
  }

  private removeDelim(d: Delim): void {
    if (d.prev) d.prev.next = d.next;
    if (d.next) d.next.prev = d.prev;
    if (this.lastDelim === d) this.lastDelim = d.prev;
    d.prev = d.next = null;
  }

  private append(tok: Tok): Tok {
    tok.prev = this.tail;
    this.tail.next = tok;
    this.tail = tok;
    return tok;
  }

  private pushText(s: string): void {
    const t = this.tail;
    if (t !== this.head && !t.node && !t.delim && !this.isBracketTok(t)) t.s += s;
    else this.append({ prev: null, next: null, s });
  }

  private isBracketTok(t: Tok): boolean {
    return this.brackets.length > 0 && this.brackets[this.brackets.length - 1].tok === t;
  }

  private pushNode(node: VNode): void {
    this.append({ prev: null, next: null, s: '', node });
  }

  private unlink(t: Tok): void {
    if (t.prev) t.prev.next = t.next;
    if (t.next) t.next.prev = t.prev;
    if (this.tail === t) this.tail = t.prev ?? this.head;
  }

  /** Removes `from` and everything after it from the list. */
  private cut(from: Tok): void {
    const prev = from.prev ?? this.head;
    prev.next = null;
    this.tail = prev;
  }

  /** The nodes of tokens [from, until), adjacent texts merged. */
  private collect(from: Tok | null, until: Tok | null): VNode[] {
    const out: VNode[] = [];
    for (let t = from; t && t !== until; t = t.next) {
      const n = t.node ?? (t.s ? text(t.s) : undefined);
      if (!n) continue;
      const last = out[out.length - 1];
      if (isText(n) && last && isText(last)) out[out.length - 1] = text(last.text + n.text);
      else out.push(n);
    }
    return out;
  }
}

function stripBidi(nodes: VNode[]): void {
  for (const n of nodes) {
    if (isText(n)) n.text = n.text.replace(BIDI_CONTROLS, '');
    else stripBidi(n.children);
  }
}

/** Inline Markdown of one paragraph, heading or cell into safe virtual nodes. */
export function parseInline(src: string): VNode[] {
  return new InlineParser(src).parse();
}
