/**
 * A finished run's results: what the check against the schema found (rows, issues by kind, rows with
 * issues, an empty extraction made prominent, unreadable data, fields the schema does not name), the
 * toolbar (Open as JSON, and Save or Copy as a menu), compare, open the session, and the windowed table.
 */
import { l10n } from '../../core/shared/l10n';
import { checkResult } from '../../core/webtasks/result-check';
import { toTable } from '../../core/webtasks/flatten';
import type { WebTaskResultsView } from '../../protocol/webtask-panel/webtask-messages';
import { clear, h } from '../shared/dom';
import type { WebTaskPost } from '../shared/post';
import { MenuButton } from './menu-button';
import { button, section } from './parts';
import { TableView } from './table-view';
import { issueLookup, resultSummary } from './texts';

/** Issues kept for highlighting (the counts are exact whatever this is). */
const MAX_ISSUES = 200_000;

export class ResultsView {
  readonly el: HTMLElement;
  private readonly summary: HTMLElement;
  private readonly warning: HTMLElement;
  private readonly problems: HTMLElement;
  private readonly session: HTMLElement;
  private readonly keyField: HTMLInputElement;
  private readonly table = new TableView();
  /** Save and Copy, behind one button beside the main action (Open as JSON). */
  readonly more: MenuButton;
  private results: WebTaskResultsView | null = null;
  private sessionId: string | undefined;

  constructor(private readonly post: WebTaskPost) {
    this.summary = h('div', { id: 'wt-summary', class: 'wt-summary' });
    this.warning = h('p', { id: 'wt-empty-warning', class: 'wt-warning', attrs: { role: 'alert' } });
    this.problems = h('div', { id: 'wt-data-problems', class: 'wt-note' });
    this.session = h('div', { id: 'wt-session', class: 'wt-row' });
    this.keyField = h('input', {
      id: 'wt-key-field',
      attrs: { type: 'text', spellcheck: 'false', placeholder: l10n.t('id (optional)') },
      on: {
        keydown: (e) => {
          if (e.key === 'Enter') compare();
        },
      },
    });
    this.more = new MenuButton('wt-more', l10n.t('Save or Copy'), [
      {
        id: 'wt-save-json',
        label: l10n.t('Save as JSON'),
        run: () => post({ type: 'save', format: 'json' }),
      },
      {
        id: 'wt-save-jsonl',
        label: l10n.t('Save as JSONL'),
        run: () => post({ type: 'save', format: 'jsonl' }),
      },
      { id: 'wt-save-csv', label: l10n.t('Save as CSV'), run: () => post({ type: 'save', format: 'csv' }) },
      {
        id: 'wt-copy-json',
        label: l10n.t('Copy JSON'),
        run: () => post({ type: 'copy', format: 'json' }),
        separated: true,
      },
      { id: 'wt-copy-csv', label: l10n.t('Copy CSV'), run: () => post({ type: 'copy', format: 'csv' }) },
    ]);
    const compare = (): void => {
      const key = this.keyField.value.trim();
      post(key ? { type: 'compare', keyField: key } : { type: 'compare' });
    };
    this.el = section('wt-results', l10n.t('Results'), [
      this.warning,
      this.summary,
      this.problems,
      h('div', { class: 'wt-toolbar', attrs: { role: 'group', 'aria-label': l10n.t('Results actions') } }, [
        button('wt-open-json', l10n.t('Open as JSON'), () => post({ type: 'openJson' }), 'small'),
        this.more.el,
      ]),
      h('div', { class: 'wt-row' }, [
        button('wt-compare', l10n.t('Compare with Previous Run'), compare),
        h('label', { text: l10n.t('Key field'), attrs: { for: 'wt-key-field' } }),
        this.keyField,
      ]),
      this.session,
      this.table.el,
    ]);
    this.session.hidden = true;
  }

  /** The results of the run shown (null: none); returns the summary in one sentence, to announce. */
  set(r: WebTaskResultsView | null): string {
    this.results = r;
    this.el.hidden = !r;
    this.showSession();
    if (!r) return '';
    const check = r.schema ? checkResult(r.data, r.schema, { maxIssues: MAX_ISSUES }) : undefined;
    const s = resultSummary(r.data.length, check);
    this.warning.textContent = s.warning ?? '';
    this.warning.hidden = !s.warning;
    this.warning.dataset.empty = check?.empty ?? (r.data.length === 0 ? 'no-rows' : '');
    clear(this.summary);
    const line = (id: string, text: string): HTMLElement => h('span', { id, text });
    this.summary.append(line('wt-rows', s.rows));
    if (s.issues.length > 0)
      this.summary.append(line('wt-issues', l10n.t('Issues: {0}', s.issues.join(', '))));
    else if (check) this.summary.append(line('wt-issues', l10n.t('No issues')));
    if (s.rowsWithIssues) this.summary.append(line('wt-rows-with-issues', s.rowsWithIssues));
    if (s.extra) this.summary.append(line('wt-extra-fields', s.extra));
    if (r.dropped)
      this.summary.append(
        line('wt-dropped', l10n.t('Too big to keep in history: a reopened run will not have these rows.')),
      );
    clear(this.problems);
    const problems = check?.dataProblems ?? [];
    if (problems.length > 0)
      this.problems.append(
        h('div', { text: l10n.t('The data is not all records:') }),
        h(
          'ul',
          {},
          problems.slice(0, 20).map((p) => h('li', { text: p })),
        ),
      );
    this.problems.hidden = problems.length === 0;
    this.table.setTable(toTable(check?.rows ?? r.data, r.schema), issueLookup(check));
    return [
      l10n.t('Results: {0}.', s.rows),
      s.warning,
      s.issues.length > 0 ? l10n.t('Issues: {0}.', s.issues.join(', ')) : '',
    ]
      .filter(Boolean)
      .join(' ');
  }

  /** The session of the run shown (from its status), with Open Session when the host can open it. */
  setSession(sessionId: string | undefined): void {
    if (sessionId === this.sessionId) return;
    this.sessionId = sessionId;
    this.showSession();
  }

  private showSession(): void {
    const id = this.sessionId;
    clear(this.session);
    this.session.hidden = !id || !this.results;
    if (!id || !this.results) return;
    this.session.append(h('span', { class: 'wt-note' }, [l10n.t('Session '), h('code', { text: id })]));
    if (this.results.sessionOpenable)
      this.session.append(
        button('wt-open-session', l10n.t('Open Session'), () => this.post({ type: 'openSession' })),
      );
  }

  resized(): void {
    this.table.resized();
  }
}
