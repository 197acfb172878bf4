/**
 * A menu button (the WAI-ARIA "menu button" pattern): a button with `aria-haspopup="menu"` that
 * opens a list of actions. Enter, Space or ↓ opens it on the first item, ↑ on the last; ↑/↓ move
 * (wrapping), Home/End jump, a letter moves to the next item starting with it; Enter or Space runs
 * the item, Escape closes and gives the focus back to the button; Tab closes and goes on from the
 * button; a click elsewhere closes.
 */
import { h } from '../shared/dom';

export interface MenuItem {
  id: string;
  label: string;
  run: () => void;
  /** Draws a separator above this item. */
  separated?: boolean;
}

export class MenuButton {
  readonly el: HTMLElement;
  readonly button: HTMLButtonElement;
  readonly menu: HTMLElement;
  readonly #items: HTMLElement[];

  constructor(id: string, label: string, items: readonly MenuItem[]) {
    const menuId = `${id}-menu`;
    this.button = h(
      'button',
      {
        id,
        class: 'secondary small wt-menu-button',
        attrs: { type: 'button', 'aria-haspopup': 'menu', 'aria-expanded': 'false', 'aria-controls': menuId },
        on: {
          click: () => (this.isOpen ? this.close(true) : this.open('first')),
          keydown: (e) => {
            if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault();
              this.open(e.key === 'ArrowDown' ? 'first' : 'last');
            }
          },
        },
      },
      [h('span', { text: label }), h('span', { class: 'wt-menu-chevron', attrs: { 'aria-hidden': 'true' } })],
    );
    this.#items = items.map((item) =>
      h('div', {
        id: item.id,
        class: item.separated ? 'wt-menu-item wt-menu-separated' : 'wt-menu-item',
        text: item.label,
        attrs: { role: 'menuitem', tabindex: '-1' },
        on: {
          click: () => this.#choose(item),
          keydown: (e) => {
            if (e.key === 'Enter' || e.key === ' ') {
              e.preventDefault();
              this.#choose(item);
            }
          },
        },
      }),
    );
    this.menu = h(
      'div',
      {
        id: menuId,
        class: 'wt-menu',
        attrs: { role: 'menu', 'aria-labelledby': id },
        on: { keydown: (e) => this.#key(e) },
      },
      this.#items,
    );
    this.menu.hidden = true;
    this.el = h('span', { class: 'wt-menu-anchor' }, [this.button, this.menu]);
    // A click or the focus anywhere else closes it (the focus moving into the menu does not).
    document.addEventListener('pointerdown', (e) => {
      if (this.isOpen && !(e.target instanceof Node && this.el.contains(e.target))) this.close(false);
    });
    this.el.addEventListener('focusout', (e) => {
      const to = e.relatedTarget;
      if (this.isOpen && to instanceof Node && !this.el.contains(to)) this.close(false);
    });
  }

  get isOpen(): boolean {
    return !this.menu.hidden;
  }

  open(at: 'first' | 'last'): void {
    this.menu.hidden = false;
    this.button.setAttribute('aria-expanded', 'true');
    this.#focus(at === 'first' ? 0 : this.#items.length - 1);
  }

  /** Closes the menu; `refocus`: the focus goes back to the button. */
  close(refocus: boolean): void {
    this.menu.hidden = true;
    this.button.setAttribute('aria-expanded', 'false');
    if (refocus) this.button.focus();
  }

  #choose(item: MenuItem): void {
    this.close(true);
    item.run();
  }

  #focus(i: number): void {
    const n = this.#items.length;
    this.#items[((i % n) + n) % n]?.focus();
  }

  #key(e: KeyboardEvent): void {
    const at = this.#items.indexOf(document.activeElement as HTMLElement);
    const move: Record<string, () => void> = {
      ArrowDown: () => this.#focus(at + 1),
      ArrowUp: () => this.#focus(at - 1),
      Home: () => this.#focus(0),
      End: () => this.#focus(this.#items.length - 1),
      Escape: () => this.close(true),
    };
    const act = move[e.key];
    if (act) {
      e.preventDefault();
      e.stopPropagation();
      act();
      return;
    }
    if (e.key === 'Tab') {
      // from the button, so Tab goes on to what follows it (the menu is hidden by then)
      this.close(true);
      return;
    }
    if (e.key.length === 1 && /\S/.test(e.key)) {
      const k = e.key.toLocaleLowerCase();
      const n = this.#items.length;
      for (let step = 1; step <= n; step++) {
        const i = (at + step) % n;
        if (this.#items[i].textContent?.toLocaleLowerCase().startsWith(k)) {
          this.#focus(i);
          break;
        }
      }
    }
  }
}
