/**
 * Bringing what just arrived (a run's results, a comparison) into view, without yanking the person:
 * it scrolls there only when they did not scroll the page since they asked for it (a run, a compare)
 * and are not typing in a field; otherwise a "Go to …" button at the bottom of the page offers it.
 * The focus moves to the new section's heading only from where it would be lost or idle (the page,
 * the button that asked), never out of a field.
 */
import { h } from '../shared/dom';

/** Keys that scroll the page when the focus is not in a field. */
const SCROLL_KEYS = new Set(['PageUp', 'PageDown', 'Home', 'End', 'ArrowUp', 'ArrowDown', ' ']);

/** Whether the focus is where the person types (a text field, a text area, a list box). */
export function isTyping(el: Element | null): boolean {
  if (!el) return false;
  if (el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return true;
  if (el instanceof HTMLInputElement)
    return !['button', 'checkbox', 'radio', 'submit', 'reset', 'file', 'color', 'range'].includes(el.type);
  return el instanceof HTMLElement && el.isContentEditable;
}

export class Reveal {
  /** The "Go to …" button shown when a section arrived while the person was busy elsewhere. */
  readonly jump: HTMLButtonElement;
  #moved = false;
  #pending: HTMLElement | undefined;
  #seen?: IntersectionObserver;

  constructor(scroller: HTMLElement) {
    const moved = (): void => {
      this.#moved = true;
    };
    scroller.addEventListener('wheel', moved, { passive: true });
    scroller.addEventListener('touchmove', moved, { passive: true });
    // a press on the page's own scroll bar (the event's target is the scroller itself)
    scroller.addEventListener('pointerdown', (e) => {
      if (e.target === scroller) moved();
    });
    scroller.addEventListener('keydown', (e) => {
      const t = e.target instanceof Element ? e.target : null;
      // (on a control, these keys act on it: a button, a check box, a menu, a list box)
      if (SCROLL_KEYS.has(e.key) && !t?.closest('button, input, select, textarea, a, summary, [role="menu"]'))
        moved();
    });
    this.jump = h('button', {
      id: 'wt-jump',
      class: 'wt-jump',
      attrs: { type: 'button' },
      on: { click: () => this.#pending && this.#go(this.#pending, true) },
    });
    this.jump.hidden = true;
    if (typeof IntersectionObserver === 'function') {
      this.#seen = new IntersectionObserver((entries) => {
        if (entries.some((e) => e.isIntersecting && e.target === this.#pending)) this.#dismiss();
      });
    }
  }

  /** The person asked for something (a run, a compare): their scrolling counts from now. */
  expect(): void {
    this.#moved = false;
    this.#dismiss();
  }

  /**
   * `section` arrived: scrolled into view with the focus on its heading when the person is not busy
   * elsewhere (true); else the "Go to …" button (`label`) offers it (false).
   */
  show(section: HTMLElement, label: string): boolean {
    if (this.#moved || isTyping(document.activeElement)) {
      this.#dismiss();
      this.#pending = section;
      this.jump.textContent = label;
      this.jump.hidden = false;
      this.#seen?.observe(section);
      return false;
    }
    this.#go(section, this.#focusIdle());
    return true;
  }

  #go(section: HTMLElement, focus: boolean): void {
    this.#dismiss();
    section.scrollIntoView({ block: 'start' });
    const heading = section.querySelector<HTMLElement>('h2');
    if (focus && heading) {
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    }
    // the page moved for the person: their next scroll is theirs again
    this.#moved = false;
  }

  /** Whether the focus is on nothing in particular (the page) or a button: it may move. */
  #focusIdle(): boolean {
    const a = document.activeElement;
    return !a || a === document.body || a instanceof HTMLButtonElement || a.tagName === 'H2';
  }

  #dismiss(): void {
    if (this.#pending) this.#seen?.unobserve(this.#pending);
    this.#pending = undefined;
    this.jump.hidden = true;
  }
}
