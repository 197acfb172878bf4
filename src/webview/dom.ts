/**
 * The only way anything reaches the DOM: elements made with `createElement`, text with text nodes or
 * `textContent`, attributes with `setAttribute`, and for virtual trees only allow-listed tags and
 * attributes (checked again here, whatever the renderer produced). No HTML string is ever parsed.
 */
import { l10n } from '../core/l10n';
import type { WebviewMessage } from '../protocol/messages';
import { safeHref } from './safe-url';
import { ALLOWED, isAllowedAttribute, isText, type VNode } from './vnode';

/** Builds a virtual tree into a fragment. Elements that break the allow-list keep only their text. */
export function toDom(nodes: readonly VNode[], doc: Document = document): DocumentFragment {
  const frag = doc.createDocumentFragment();
  for (const n of nodes) frag.appendChild(create(n, doc));
  return frag;
}

function create(n: VNode, doc: Document): Node {
  if (isText(n)) return doc.createTextNode(n.text);
  if (!Object.prototype.hasOwnProperty.call(ALLOWED, n.tag)) return toDom(n.children, doc);
  const e = doc.createElement(n.tag);
  for (const [k, v] of Object.entries(n.attrs)) if (isAllowedAttribute(n.tag, k, v)) e.setAttribute(k, v);
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
