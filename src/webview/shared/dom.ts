/**
 * The only way anything reaches the DOM: elements made with `createElement`, text with text nodes or
 * `textContent`, attributes with `setAttribute`, and for virtual trees only allow-listed tags and
 * attributes (checked again here, whatever the renderer produced). No HTML string is ever parsed.
 */
import { l10n } from '../../core/shared/l10n';
import type { WebviewMessage } from '../../protocol/session-panel/messages';
import { safeHref } from './safe-url';
import { ALLOWED, isAllowedAttribute, isText, type VNode } from './vnode';

/**
 * Makes an element show the virtual tree `next` and returns the tree it now shows, to pass as
 * `shown` next time. `shown` is what the element's children were built from by an earlier call
 * (undefined: anything else, rebuilt). Nodes that did not change are kept, a text node that did gets
 * its new text, an element with the same tag and attributes is patched in place, and the rest is
 * created anew: a growing answer changes one text node a frame, not every paragraph of its section
 * (less style and layout work, less garbage, and a selection in it survives).
 */
export function patchDom(
  parent: Element,
  shown: readonly VNode[] | undefined,
  next: readonly VNode[],
): readonly VNode[] {
  const tree = allowedTree(next);
  const doc = parent.ownerDocument;
  if (shown === undefined || parent.childNodes.length !== shown.length) {
    clear(parent);
    for (const n of tree) parent.appendChild(create(n, doc));
  } else patchChildren(parent, shown, tree, doc);
  return tree;
}

function patchChildren(parent: Node, shown: readonly VNode[], next: readonly VNode[], doc: Document): void {
  let child = parent.firstChild;
  for (let i = 0; i < next.length; i++) {
    const n = next[i];
    if (child === null) {
      parent.appendChild(create(n, doc));
      continue;
    }
    const after: ChildNode | null = child.nextSibling;
    const was = shown[i];
    if (was !== n) {
      if (isText(n)) {
        if (isText(was)) {
          if (was.text !== n.text) (child as Text).data = n.text;
        } else parent.replaceChild(create(n, doc), child);
      } else if (!isText(was) && was.tag === n.tag && sameAttrs(was.attrs, n.attrs)) {
        patchChildren(child, was.children, n.children, doc);
      } else parent.replaceChild(create(n, doc), child);
    }
    child = after;
  }
  while (child !== null) {
    const after: ChildNode | null = child.nextSibling;
    parent.removeChild(child);
    child = after;
  }
}

function sameAttrs(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const k of keys) if (a[k] !== b[k]) return false;
  return true;
}

/**
 * The tree with what breaks the allow-list taken out: an element whose tag is not allowed is replaced
 * by its children, an attribute not allowed (or with a value not allowed) is dropped. The same objects
 * where nothing was taken out (the renderer's trees, normally), so each node maps to one DOM node.
 */
function allowedTree(nodes: readonly VNode[]): readonly VNode[] {
  let out: VNode[] | undefined;
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    const kept = allowedNode(n);
    if (kept === n && out === undefined) continue;
    out ??= nodes.slice(0, i);
    if (Array.isArray(kept)) out.push(...kept);
    else out.push(kept as VNode);
  }
  return out ?? nodes;
}

function allowedNode(n: VNode): VNode | readonly VNode[] {
  if (isText(n)) return n;
  if (!Object.prototype.hasOwnProperty.call(ALLOWED, n.tag)) return allowedTree(n.children);
  const entries = Object.entries(n.attrs);
  const allowed = ([k, v]: [string, string]): boolean => isAllowedAttribute(n.tag, k, v);
  const attrs = entries.every(allowed) ? n.attrs : Object.fromEntries(entries.filter(allowed));
  const children = allowedTree(n.children);
  return attrs === n.attrs && children === n.children ? n : { tag: n.tag, attrs, children: [...children] };
}

/** Creates the DOM of a node of an {@link allowedTree}: one DOM node per node. */
function create(n: VNode, doc: Document): Node {
  if (isText(n)) return doc.createTextNode(n.text);
  const e = doc.createElement(n.tag);
  for (const k of Object.keys(n.attrs)) e.setAttribute(k, n.attrs[k]);
  for (const c of n.children) e.appendChild(create(c, doc));
  return e;
}

/** Options of {@link h}. */
export interface HOptions {
  id?: string;
  class?: string;
  text?: string;
  attrs?: Record<string, string>;
  on?: { [K in keyof HTMLElementEventMap]?: (ev: HTMLElementEventMap[K]) => void };
}

/** Creates one of the panel's own elements (never from agent markup: agent text goes in `text`). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  options: HOptions = {},
  children: (Node | string)[] = [],
): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (options.id) e.id = options.id;
  if (options.class) e.className = options.class;
  if (options.attrs) for (const [k, v] of Object.entries(options.attrs)) e.setAttribute(k, v);
  if (options.text !== undefined) e.textContent = options.text;
  if (options.on) {
    for (const [k, fn] of Object.entries(options.on)) e.addEventListener(k, fn as EventListener);
  }
  for (const c of children) e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  return e;
}

/**
 * Makes `parent`'s children look like `next` (freshly built, detached nodes), keeping in place each
 * element that has the same tag at the same place, or the same `data-key` among keyed siblings, and
 * bringing its attributes and text up to date: the button a person is pressing or has the focus on
 * stays the same element while the row around it changes (a rebuilt button would take the focus
 * away, and a click whose press and release land on two elements is no click). Listeners are not
 * carried over: elements kept this way act through a listener on an ancestor. Siblings are keyed all
 * or none (a keyed one is matched by its key only, an unkeyed one by its place).
 */
export function morphChildren(parent: Element, next: readonly Node[]): void {
  const keyed = new Map<string, Element>();
  for (const c of parent.children) {
    const key = c.getAttribute('data-key');
    if (key !== null) keyed.set(key, c);
  }
  let at: ChildNode | null = parent.firstChild;
  for (const want of next) {
    const key = want instanceof Element ? want.getAttribute('data-key') : null;
    const have: ChildNode | null | undefined = key !== null ? keyed.get(key) : at;
    if (have && key !== null) keyed.delete(key);
    if (have && sameKind(have, want)) {
      if (have !== at) parent.insertBefore(have, at);
      else at = at.nextSibling;
      if (want instanceof Element) morphElement(have as Element, want);
      else if (have.nodeValue !== want.nodeValue) have.nodeValue = want.nodeValue;
    } else if (have && key === null) {
      at = have.nextSibling;
      parent.replaceChild(want, have);
    } else parent.insertBefore(want, at);
  }
  while (at !== null) {
    const after: ChildNode | null = at.nextSibling;
    parent.removeChild(at);
    at = after;
  }
}

function sameKind(a: Node, b: Node): boolean {
  return a.nodeType === b.nodeType && a.nodeName === b.nodeName;
}

function morphElement(e: Element, want: Element): void {
  for (const name of e.getAttributeNames()) if (!want.hasAttribute(name)) e.removeAttribute(name);
  for (const name of want.getAttributeNames()) {
    const v = want.getAttribute(name)!;
    if (e.getAttribute(name) !== v) e.setAttribute(name, v);
  }
  morphChildren(e, [...want.childNodes]);
}

/** Removes every child of an element. */
export function clear(e: Element): void {
  while (e.lastChild) e.removeChild(e.lastChild);
}

/**
 * Links in agent output never navigate the webview: a click (or Enter, or a middle click) is
 * cancelled and the host is asked to open the link. Code blocks' Copy buttons post their code.
 */
export function installContentHandlers(root: HTMLElement, post: (m: WebviewMessage) => void): void {
  const onClick = (ev: MouseEvent): void => {
    const target = ev.target instanceof Element ? ev.target : null;
    const a = target?.closest('a');
    if (a && root.contains(a)) {
      ev.preventDefault();
      if (ev.type !== 'click') return;
      const href = a.getAttribute('href');
      if (href && safeHref(href) === href) post({ type: 'openLink', href });
      return;
    }
    const copy = target?.closest('button.copy-code');
    if (copy && root.contains(copy) && ev.type === 'click') {
      const code = copy.parentElement?.querySelector('code');
      post({ type: 'copy', text: code?.textContent ?? '' });
      copy.textContent = l10n.t('Copied');
      setTimeout(() => (copy.textContent = l10n.t('Copy')), 1500);
    }
  };
  root.addEventListener('click', onClick);
  root.addEventListener('auxclick', onClick);
  // Dragging a link out would hand its URL to whatever it is dropped on.
  root.addEventListener('dragstart', (ev) => {
    if (ev.target instanceof Element && ev.target.closest('a')) ev.preventDefault();
  });
}
