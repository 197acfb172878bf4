/**
 * The Search in Sessions view: a webview view in Den's container (a tree view has no input box in
 * the stable API) that searches the local index as you type (`src/webview/session-search`), shows
 * the hits grouped by session, opens a session at a hit, and fetches and indexes the sessions not
 * stored here. Its messages are the typed protocol of `protocol/session-search/messages.ts`; the
 * page runs under the panels' strict CSP (scripts only with its nonce).
 */
import * as vscode from 'vscode';
import { l10n } from '../../core/shared/l10n';
import type { Logger } from '../../core/shared/log';
import { dispatch, type Handlers } from '../../protocol/shared/handlers';
import {
  isSearchViewMessage,
  type SearchHostMessage,
  type SearchViewMessage,
} from '../../protocol/session-search/messages';
import { partialViewResults } from '../../model/search/result-rows';
import { panelHtml } from '../session-panel/panel-html';
import type { SessionSearch } from './session-search';

/** The view's id (package.json). */
export const SEARCH_VIEW_ID = 'den.search';

export class SearchView implements vscode.WebviewViewProvider, vscode.Disposable {
  #view?: vscode.WebviewView;
  #subscriptions: vscode.Disposable[] = [];
  /** A query to type in once the page is ready (the view was not resolved yet). */
  #pendingFocus?: { query?: string };
  readonly #handlers: Handlers<SearchViewMessage>;
  readonly #taps = new Set<(m: SearchHostMessage) => void>();
  /** The newest search's answer being worked out (tests await it). */
  searching: Promise<void> = Promise.resolve();
  #ready = false;
  /** The newest search asked: an older one still reading stops and posts nothing more. */
  #latest = -1;

  constructor(
    private readonly search: SessionSearch,
    private readonly extensionUri: vscode.Uri,
    private readonly logger: Logger,
  ) {
    this.#handlers = {
      ready: () => this.#onReady(),
      search: (m) => {
        this.searching = this.#answer(m.id, m.query, m.options);
        return this.searching;
      },
      open: (m) =>
        this.search.openResult(
          m.sessionId,
          m.address && m.start !== undefined
            ? { query: m.query, options: m.options, address: m.address, start: m.start }
            : undefined,
        ),
      fetchMissing: async () => {
        await this.search.fetchMissing();
        this.#postMissing();
      },
    };
  }

  register(): vscode.Disposable[] {
    return [vscode.window.registerWebviewViewProvider(SEARCH_VIEW_ID, this), this];
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.#view = view;
    this.#ready = false;
    const webview = view.webview;
    webview.options = {
      enableScripts: true,
      localResourceRoots: [
        vscode.Uri.joinPath(this.extensionUri, 'dist'),
        vscode.Uri.joinPath(this.extensionUri, 'media'),
      ],
    };
    for (const d of this.#subscriptions) d.dispose();
    this.#subscriptions = [
      webview.onDidReceiveMessage((m: unknown) => void this.handleMessage(m)),
      view.onDidDispose(() => {
        if (this.#view === view) this.#view = undefined;
        this.#ready = false;
      }),
    ];
    webview.html = panelHtml({
      cspSource: webview.cspSource,
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'search.js')).toString(),
      styleUri: webview
        .asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'media', 'search.css'))
        .toString(),
      title: l10n.t('Search in Sessions'),
    });
    void this.search.start();
  }

  /** Whether the page is loaded and said `ready` (tests). */
  get ready(): boolean {
    return this.#ready;
  }

  /** Handles one message from the page (public so tests can act as it). */
  async handleMessage(raw: unknown): Promise<void> {
    if (!isSearchViewMessage(raw)) {
      this.logger.debug('Search in Sessions: ignored a malformed message from the view');
      return;
    }
    try {
      await dispatch(this.#handlers, raw);
    } catch (err) {
      this.logger.warn(`Search in Sessions: ${raw.type} failed: ${err instanceof Error ? err.message : err}`);
      void vscode.window.showErrorMessage(
        l10n.t(
          'Den could not do that in Search in Sessions: {0}',
          err instanceof Error ? err.message : String(err),
        ),
      );
    }
  }

  /** Shows the view and focuses its input, with `query` typed in when given. */
  async focus(query?: string): Promise<void> {
    this.#pendingFocus = { query };
    await vscode.commands.executeCommand(`${SEARCH_VIEW_ID}.focus`);
    if (this.#ready) this.#flushFocus();
  }

  /** Test hook: sees every post to the page. */
  tap(listener: (m: SearchHostMessage) => void): () => void {
    this.#taps.add(listener);
    return () => this.#taps.delete(listener);
  }

  #post(m: SearchHostMessage): void {
    for (const t of this.#taps) t(m);
    void this.#view?.webview.postMessage(m);
  }

  #onReady(): void {
    this.#ready = true;
    this.#post({
      type: 'init',
      l10n: vscode.l10n.bundle ?? null,
      query: '',
      options: { matchCase: false, wholeWord: false, regex: false },
    });
    this.#postMissing();
    this.#flushFocus();
  }

  #flushFocus(): void {
    const f = this.#pendingFocus;
    if (!f) return;
    this.#pendingFocus = undefined;
    this.#post(f.query === undefined ? { type: 'focus' } : { type: 'focus', query: f.query });
  }

  #postMissing(): void {
    this.#post({ type: 'missing', count: this.search.missing().length });
  }

  async #answer(
    id: number,
    query: string,
    options: Extract<SearchViewMessage, { type: 'search' }>['options'],
  ): Promise<void> {
    this.#latest = id;
    const current = (): boolean => this.#latest === id;
    const r = await this.search.viewResults(query, options, {
      cancelled: () => !current(),
      onPartial: (partial, progress) => {
        const p = partialViewResults(partial, progress);
        this.#post({
          type: 'results',
          id,
          groups: p.groups,
          summary: p.summary,
          error: false,
          partial: true,
        });
      },
    });
    if (!current()) return;
    const m: SearchHostMessage = {
      type: 'results',
      id,
      groups: r.groups,
      summary: r.summary,
      error: r.error,
    };
    if (r.note !== undefined) m.note = r.note;
    this.#post(m);
    this.#postMissing();
  }

  dispose(): void {
    for (const d of this.#subscriptions) d.dispose();
    this.#taps.clear();
  }
}
