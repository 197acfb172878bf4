/**
 * The Search in Sessions view's webview (a view in Den's container): an input with match case,
 * whole word and regex toggles, the results grouped by session (`results-list.ts`), a line that
 * says the count (announced), and a button that fetches and indexes the sessions not stored here.
 * It asks the host to search after a pause in typing; only the newest search's answer is shown.
 * The query and toggles are kept with `setState` across reloads.
 */
import { dispatch, type Handlers } from '../../protocol/shared/handlers';
import { formatCount, l10n, setL10nBundle } from '../../core/shared/l10n';
import type { MatchOptions } from '../../core/search/matcher';
import {
  isSearchHostMessage,
  MAX_VIEW_QUERY,
  type SearchHostMessage,
  type SearchViewMessage,
} from '../../protocol/session-search/messages';
import { Announcer } from '../shared/announcer';
import { h } from '../shared/dom';
import type { VsCodeApi } from '../shared/post';
import { ResultsList } from './results-list';

type Options = Required<MatchOptions>;

interface Saved {
  query: string;
  options: Options;
}

/** How long typing must pause before a search is asked for. */
const TYPING_MS = 200;

function saved(v: unknown): Saved | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const s = v as Partial<Saved>;
  if (typeof s.query !== 'string' || typeof s.options !== 'object' || s.options === null) return undefined;
  const o = s.options;
  return {
    query: s.query.slice(0, MAX_VIEW_QUERY),
    options: { matchCase: o.matchCase === true, wholeWord: o.wholeWord === true, regex: o.regex === true },
  };
}

function start(): void {
  const vscode = acquireVsCodeApi<Saved>() as VsCodeApi<Saved>;
  const post = (m: SearchViewMessage): void => vscode.postMessage(m);
  const build = (init: Extract<SearchHostMessage, { type: 'init' }>): Handlers<SearchHostMessage, void> => {
    const kept = saved(vscode.getState());
    const options: Options = { ...(kept?.options ?? init.options) };
    let id = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const announcer = new Announcer();
    const input = h('input', {
      class: 'ss-input',
      attrs: {
        type: 'text',
        spellcheck: 'false',
        maxlength: String(MAX_VIEW_QUERY),
        'aria-label': l10n.t('Search in Sessions'),
        placeholder: l10n.t('Search in sessions'),
      },
    });
    input.value = init.query || kept?.query || '';
    const summary = h('div', { class: 'ss-summary', attrs: { 'aria-hidden': 'true' } });
    const note = h('div', { class: 'ss-note' });
    const fetchButton = h('button', { class: 'ss-fetch', attrs: { type: 'button' } });
    fetchButton.hidden = true;
    const list = new ResultsList({
      open: (t) =>
        post({
          type: 'open',
          sessionId: t.sessionId,
          query: input.value,
          options: { ...options },
          ...(t.hit ? { address: t.hit.address, start: t.hit.start } : {}),
        }),
      leave: () => input.focus(),
    });
    const search = (): void => {
      if (timer) clearTimeout(timer);
      timer = undefined;
      vscode.setState({ query: input.value, options: { ...options } });
      post({ type: 'search', id: ++id, query: input.value, options: { ...options } });
    };
    const toggle = (key: keyof Options, label: string, text: string): HTMLButtonElement => {
      const b = h('button', {
        class: 'ss-toggle',
        text,
        attrs: { type: 'button', 'aria-pressed': String(options[key]), 'aria-label': label, title: label },
        on: {
          click: () => {
            options[key] = !options[key];
            b.setAttribute('aria-pressed', String(options[key]));
            search();
          },
        },
      });
      return b;
    };
    const toggles = {
      matchCase: toggle('matchCase', l10n.t('Match Case (Alt+C)'), 'Aa'),
      wholeWord: toggle('wholeWord', l10n.t('Match Whole Word (Alt+W)'), 'ab'),
      regex: toggle('regex', l10n.t('Use Regular Expression (Alt+R)'), '.*'),
    };
    input.addEventListener('input', () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(search, TYPING_MS);
    });
    const bar = h(
      'div',
      { class: 'ss-bar', attrs: { role: 'search', 'aria-label': l10n.t('Search in Sessions') } },
      [input, toggles.matchCase, toggles.wholeWord, toggles.regex],
    );
    bar.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' && e.target === input) {
        e.preventDefault();
        search();
      } else if (e.key === 'ArrowDown' && e.target === input) {
        e.preventDefault();
        list.enter();
      } else if (e.altKey && !e.ctrlKey && !e.metaKey) {
        const which = ({ KeyC: 'matchCase', KeyW: 'wholeWord', KeyR: 'regex' } as const)[e.code];
        if (which) {
          e.preventDefault();
          toggles[which].click();
        }
      }
    });
    fetchButton.addEventListener('click', () => post({ type: 'fetchMissing' }));
    const app = document.getElementById('app') ?? document.body.appendChild(h('div', { id: 'app' }));
    app.classList.add('ss-page');
    app.append(bar, summary, list.el, note, fetchButton, announcer.el);
    if (input.value) search();
    return {
      init: () => undefined,
      results: (m) => {
        if (m.id !== id) return;
        list.set(m.groups);
        summary.textContent = m.summary;
        note.textContent = m.note ?? '';
        note.classList.toggle('ss-error', m.error);
        input.setAttribute('aria-invalid', String(m.error));
        if (m.summary && !m.partial) announcer.status(m.summary);
      },
      missing: (m) => {
        fetchButton.hidden = m.count === 0;
        fetchButton.textContent =
          m.count === 1
            ? l10n.t('Fetch and index the 1 session not stored here…')
            : l10n.t('Fetch and index the {0} sessions not stored here…', formatCount(m.count));
      },
      focus: (m) => {
        if (m.query !== undefined) {
          input.value = m.query.slice(0, MAX_VIEW_QUERY);
          search();
        }
        input.focus();
        input.select();
      },
    };
  };
  let handlers: Handlers<SearchHostMessage, void> | undefined;
  window.addEventListener('message', (ev: MessageEvent<unknown>) => {
    const msg = ev.data;
    if (!isSearchHostMessage(msg)) return;
    if (msg.type === 'init') {
      setL10nBundle(msg.l10n ?? undefined);
      handlers ??= build(msg);
    }
    if (handlers) dispatch(handlers, msg);
  });
  post({ type: 'ready' });
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
else start();
