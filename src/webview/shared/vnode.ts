/**
 * The virtual node tree the Markdown renderer produces: plain data, checked against an allow-list of
 * tags and attributes before anything reaches the DOM. Agent text only ever ends up in text nodes or
 * in allow-listed attribute values.
 */
import { safeHref } from './safe-url';

/** A text node: its text is always set with `textContent`, never parsed. */
export interface VText {
  text: string;
}

/** An element: `tag` and `attrs` must pass {@link isAllowedElement}. */
export interface VElement {
  tag: string;
  attrs: Record<string, string>;
  children: VNode[];
}

export type VNode = VText | VElement;

/** Tags and the attributes each may carry; nothing else is ever created from agent text. */
export const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  p: [],
  h3: [],
  h4: [],
  h5: [],
  h6: [],
  em: [],
  strong: [],
  del: [],
  code: ['class'],
  pre: [],
  div: ['class'],
  button: ['class', 'type', 'aria-label'],
  ul: [],
  ol: ['start'],
  li: [],
  blockquote: [],
  table: [],
  thead: [],
  tbody: [],
  tr: [],
  th: ['class'],
  td: ['class'],
  hr: [],
  br: [],
  a: ['href', 'title', 'class'],
  span: ['class'],
};

// Class names the renderer uses; a class attribute must be made of these (or `language-<word>`).
const CLASS_WORD =
  /^(?:language-[A-Za-z0-9_+-]{1,40}|code-block|copy-code|md-image|md-unsafe-link|align-(?:left|center|right))$/;

export function isText(n: VNode): n is VText {
  return (n as VText).text !== undefined;
}

export function text(t: string): VText {
  return { text: t };
}

export function el(tag: string, children: VNode[] = [], attrs: Record<string, string> = {}): VElement {
  return { tag, attrs, children };
}

/** Whether one attribute of an element is allowed with this value. */
export function isAllowedAttribute(tag: string, name: string, value: string): boolean {
  const names = Object.prototype.hasOwnProperty.call(ALLOWED, tag) ? ALLOWED[tag] : undefined;
  if (!names || !names.includes(name)) return false;
  switch (name) {
    case 'href':
      return safeHref(value) === value;
    case 'class':
      return value.split(' ').every((c) => CLASS_WORD.test(c));
    case 'start':
      return /^\d{1,9}$/.test(value);
    case 'type':
      return value === 'button';
    default:
      return true;
  }
}

/** Whether an element's tag and all its attributes are allowed (children not checked). */
export function isAllowedElement(n: VElement): boolean {
  if (!Object.prototype.hasOwnProperty.call(ALLOWED, n.tag)) return false;
  return Object.entries(n.attrs).every(([k, v]) => isAllowedAttribute(n.tag, k, v));
}

/** Every element of a tree that breaks the allow-list (empty: the tree is safe). */
export function findDisallowed(nodes: readonly VNode[]): VElement[] {
  const bad: VElement[] = [];
  const stack = [...nodes];
  while (stack.length > 0) {
    const n = stack.pop() as VNode;
    if (isText(n)) continue;
    if (!isAllowedElement(n)) bad.push(n);
    stack.push(...n.children);
  }
  return bad;
}

/** The concatenated text of a tree (what a person reads). */
export function textOf(nodes: readonly VNode[]): string {
  let out = '';
  for (const n of nodes) out += isText(n) ? n.text : textOf(n.children);
  return out;
}
