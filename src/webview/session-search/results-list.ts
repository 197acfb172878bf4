/**
 * The results of Search in Sessions: a listbox of hits grouped by session (each group labelled by
 * its session's title, its first row opening the session), each hit its line of context with the
 * match marked and where in the turn it is. The list keeps one active row
 * (`aria-activedescendant`): Up/Down/Home/End move it, Enter or a click opens it, Escape goes back
 * to the input.
 */
import { l10n } from '../../core/shared/l10n';
import type { SearchGroup, SearchHitView } from '../../protocol/session-search/messages';
import { clear, h } from '../shared/dom';

/** What a row opens: a session, at a hit when given. */
export interface RowTarget {
  sessionId: string;
  hit?: SearchHitView;
}

export interface ResultsDeps {
  open(target: RowTarget): void;
  /** Escape in the list: focus goes back to the input. */
  leave(): void;
}

export class ResultsList {
  readonly el: HTMLElement;
  private rows: { el: HTMLElement; target: RowTarget }[] = [];
  private active = -1;

  constructor(private readonly deps: ResultsDeps) {
    this.el = h('div', {
      class: 'ss-results',
      attrs: { role: 'listbox', tabindex: '0', 'aria-label': l10n.t('Search results') },
      on: {
        keydown: (e) => this.key(e),
        focus: () => {
          if (this.active < 0 && this.rows.length) this.setActive(0);
        },
      },
    });
  }

  get size(): number {
    return this.rows.length;
  }

  /** Shows new groups (the active row goes back to none). */
  set(groups: readonly SearchGroup[]): void {
    clear(this.el);
    this.rows = [];
    this.active = -1;
    this.el.removeAttribute('aria-activedescendant');
    groups.forEach((g, gi) => {
      const label = `ss-group-${gi}`;
      const group = h('div', { class: 'ss-group', attrs: { role: 'group', 'aria-labelledby': label } });
      const head = this.row(
        { sessionId: g.sessionId },
        'ss-session',
        [h('span', { class: 'ss-session-title', id: label, text: g.title })],
        l10n.t('Open session {0}', g.title),
      );
      group.append(head);
      for (const hit of g.hits) {
        const line = h('span', { class: 'ss-line' }, [
          hit.line.slice(0, hit.matchStart),
          h('mark', { class: 'ss-match', text: hit.line.slice(hit.matchStart, hit.matchEnd) }),
          hit.line.slice(hit.matchEnd),
        ]);
        const where = h('span', { class: 'ss-where', text: hit.where });
        const el = this.row({ sessionId: g.sessionId, hit }, 'ss-hit', [line, where]);
        if (hit.firstOfTurn) el.classList.add('ss-turn-start');
        group.append(el);
      }
      this.el.append(group);
    });
  }

  private row(target: RowTarget, cls: string, children: Node[], label?: string): HTMLElement {
    const i = this.rows.length;
    const el = h(
      'div',
      {
        id: `ss-row-${i}`,
        class: `ss-row ${cls}`,
        attrs: { role: 'option', 'aria-selected': 'false', ...(label ? { 'aria-label': label } : {}) },
        on: {
          click: () => {
            this.setActive(i);
            this.deps.open(target);
          },
        },
      },
      children,
    );
    this.rows.push({ el, target });
    return el;
  }

  /** Moves the active row to the first one and focuses the list. */
  enter(): void {
    if (!this.rows.length) return;
    this.el.focus();
    this.setActive(this.active < 0 ? 0 : this.active);
  }

  private setActive(i: number): void {
    const prev = this.rows[this.active];
    prev?.el.setAttribute('aria-selected', 'false');
    prev?.el.classList.remove('ss-active');
    this.active = i;
    const row = this.rows[i];
    if (!row) return;
    row.el.setAttribute('aria-selected', 'true');
    row.el.classList.add('ss-active');
    this.el.setAttribute('aria-activedescendant', row.el.id);
    row.el.scrollIntoView({ block: 'nearest' });
  }

  private key(e: KeyboardEvent): void {
    const n = this.rows.length;
    const to = (i: number): void => {
      e.preventDefault();
      if (n) this.setActive(Math.max(0, Math.min(n - 1, i)));
    };
    switch (e.key) {
      case 'ArrowDown':
        return to(this.active + 1);
      case 'ArrowUp':
        if (this.active <= 0) {
          e.preventDefault();
          this.deps.leave();
          return;
        }
        return to(this.active - 1);
      case 'Home':
        return to(0);
      case 'End':
        return to(n - 1);
      case 'PageDown':
        return to(this.active + 10);
      case 'PageUp':
        return to(this.active - 10);
      case 'Enter':
      case ' ': {
        const row = this.rows[this.active];
        if (!row) return;
        e.preventDefault();
        this.deps.open(row.target);
        return;
      }
      case 'Escape':
        e.preventDefault();
        this.deps.leave();
        return;
      default:
        return;
    }
  }
}
