/** Elements every part of the Web Task page makes the same way. */
import { h } from '../shared/dom';

/** A `type="button"` button (`secondary small` unless told). */
export function button(
  id: string,
  text: string,
  onClick: () => void,
  cls = 'secondary small',
): HTMLButtonElement {
  return h('button', { id, class: cls, text, attrs: { type: 'button' }, on: { click: onClick } });
}

/** A page section headed by `title` (hidden until it has something to show). */
export function section(id: string, title: string, children: HTMLElement[]): HTMLElement {
  const el = h('section', { id, class: 'wt-section', attrs: { 'aria-labelledby': `${id}-title` } }, [
    h('h2', { id: `${id}-title`, text: title }),
    ...children,
  ]);
  el.hidden = true;
  return el;
}
