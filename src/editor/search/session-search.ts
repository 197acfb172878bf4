/**
 * **Search in Sessions** (issue 25): the local index of session contents (`model/search`) wired
 * into VS Code. The index lives in the extension's global storage (`search-index/`), bounded by
 * `den.search.indexMaxMegabytes`; it is fed from the transcript cache in the background once the
 * Sessions tree has painted (or a few seconds after activation), and from every transcript that
 * changes in this window (debounced). `den.searchSessionContents` is a QuickPick that searches as
 * you type (match case, whole word, regex as toggles), grouped by session and turn; Enter opens the
 * session at that match (its find bar on the query, the match current and highlighted). Its last row fetches and
 * indexes the listed sessions not stored here. `den.clearSearchIndex` empties the index.
 * Nothing here sends the index anywhere.
 */
import * as vscode from 'vscode';
import type { MatchOptions } from '../../core/search/matcher';
import { formatCount, l10n } from '../../core/shared/l10n';
import type { Logger } from '../../core/shared/log';
import type { Transcript } from '../../core/transcript/model';
import { transcriptFromDetail } from '../../core/transcript/from-history';
import { IndexFeeder, type CachedTranscripts } from '../../model/search/index-feeder';
import { searchRows, viewResults, type SearchRow, type ViewResults } from '../../model/search/result-rows';
import type { FieldAddress } from '../../core/search/fields';
import { folderStore } from '../../model/search/search-store';
import {
  DEFAULT_SEARCH_INDEX_BYTES,
  SessionSearchIndex,
  type SearchLimits,
} from '../../model/search/session-index';
import { TranscriptCache } from '../../model/session/transcript-cache';
import type { SessionRegistry } from '../../model/session/session-registry';
import { guarded } from '../commands/guarded';
import type { Connection } from '../platform/connection';
import type { SessionsTreeProvider } from '../sessions-view/sessions-tree';

/** How long typing must pause before a search runs. */
const TYPING_MS = 200;
/** The background pass starts at the latest this long after activation. */
const START_AFTER_MS = 5_000;
const MB = 1024 * 1024;

export interface SessionSearchDeps {
  /** The index's folder (global storage). */
  dir: string;
  /** `den.search.indexMaxMegabytes` (read at start and again whenever it changes). */
  maxMegabytes: () => number | undefined;
  /** Fires when `den.search.indexMaxMegabytes` changed. */
  onDidChangeMaxMegabytes: (listener: () => void) => { dispose(): void };
  cache?: CachedTranscripts;
  /** A session's transcript as Den holds it now. */
  transcriptOf: (sessionId: string) => Transcript | undefined;
  onDidChangeTranscript: (listener: (sessionId: string) => void) => { dispose(): void };
  /** Fires once the Sessions tree painted (the background pass waits for it, or a few seconds). */
  onDidPaintTree: (listener: () => void) => { dispose(): void };
  /** The sessions listed in the Sessions view (ids and titles). */
  listed: () => readonly { sessionId: string; title?: string }[];
  /** A session's stored history from the service (throws when it cannot be read). */
  fetch: (sessionId: string) => Promise<Transcript>;
  open: (sessionId: string) => Promise<void>;
  /** Opens a session's panel at one match (its find bar on the query, that match current). */
  reveal: (sessionId: string, at: MatchTarget) => Promise<void>;
  logger: Logger;
}

/** Where a search result points: the query and options that found it, the field and the offset. */
export interface MatchTarget {
  query: string;
  options: Required<MatchOptions>;
  address: FieldAddress;
  start: number;
}

type Item = vscode.QuickPickItem & { row?: SearchRow; fetch?: boolean };

/** The search options of the QuickPick, and a query to start with (tests and keybindings). */
export interface SearchArgs extends MatchOptions {
  query?: string;
}

export class SessionSearch implements vscode.Disposable {
  readonly index: SessionSearchIndex;
  readonly feeder: IndexFeeder;
  /** The index's folder. */
  readonly dir: string;
  readonly #deps: SessionSearchDeps;
  readonly #subscriptions: { dispose(): void }[] = [];
  #started?: Promise<number>;
  #startTimer?: ReturnType<typeof setTimeout>;
  /** The QuickPick on screen (tests read its items). */
  picker?: vscode.QuickPick<Item>;
  /** The search the QuickPick shows last (tests await it). */
  searching: Promise<void> = Promise.resolve();

  constructor(deps: SessionSearchDeps) {
    this.#deps = deps;
    this.dir = deps.dir;
    this.index = new SessionSearchIndex({ store: folderStore(deps.dir), maxBytes: this.#maxBytes() });
    this.feeder = new IndexFeeder({
      index: this.index,
      transcriptOf: deps.transcriptOf,
      cache: deps.cache,
      logger: deps.logger,
    });
    this.#subscriptions.push(
      deps.onDidChangeTranscript((id) => this.feeder.changed(id)),
      deps.onDidPaintTree(() => void this.start()),
      deps.onDidChangeMaxMegabytes(() => void this.applyMaxMegabytes()),
    );
    this.#startTimer = setTimeout(() => void this.start(), START_AFTER_MS);
  }

  #maxBytes(): number {
    const mb = this.#deps.maxMegabytes();
    return mb !== undefined && Number.isFinite(mb) && mb > 0 ? mb * MB : DEFAULT_SEARCH_INDEX_BYTES;
  }

  /** The size setting changed: the index takes the new cap now (a smaller one evicts). */
  applyMaxMegabytes(): Promise<void> {
    return this.index.setMaxBytes(this.#maxBytes()).catch((err: unknown) => {
      this.#deps.logger.warn(`Search index: could not apply the new size: ${String(err)}`);
    });
  }

  /** Indexes the cached sessions in the background (once; later calls return the same pass). */
  start(): Promise<number> {
    if (this.#startTimer) clearTimeout(this.#startTimer);
    this.#startTimer = undefined;
    this.#started ??= new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() =>
      this.feeder.indexCache(),
    );
    return this.#started;
  }

  commands(): vscode.Disposable[] {
    return [
      vscode.commands.registerCommand(
        'den.searchSessionContents',
        guarded(l10n.t('search in sessions'), (args?: SearchArgs) => this.show(args)),
      ),
      vscode.commands.registerCommand(
        'den.clearSearchIndex',
        guarded(l10n.t('clear the search index'), () => this.clear()),
      ),
    ];
  }

  /** Empties the index and says what went. */
  async clear(): Promise<void> {
    const before = await this.index.stats();
    await this.index.clear();
    void vscode.window.showInformationMessage(
      before.sessions === 1
        ? l10n.t(
            'Cleared the search index: 1 session, {0} MB, removed from this machine.',
            mbText(before.bytes),
          )
        : l10n.t(
            'Cleared the search index: {0} sessions, {1} MB, removed from this machine.',
            formatCount(before.sessions),
            mbText(before.bytes),
          ),
    );
  }

  /** Runs a search and gives its rows (the QuickPick shows them; tests call it too). */
  async rows(query: string, options: MatchOptions, limits: SearchLimits = {}): Promise<SearchRow[]> {
    await this.feeder.flush();
    const result = await this.index.search(query, options, limits);
    const { sessions } = await this.index.stats();
    return searchRows(result, sessions);
  }

  /** Runs a search and gives what the Search in Sessions view shows. */
  async viewResults(query: string, options: MatchOptions, limits: SearchLimits = {}): Promise<ViewResults> {
    await this.feeder.flush();
    const result = await this.index.search(query, options, limits);
    const { sessions } = await this.index.stats();
    return viewResults(result, sessions);
  }

  /** Opens a session at a result (a hit: at its match; a session: its panel). */
  async openResult(sessionId: string, at?: MatchTarget): Promise<void> {
    if (at) await this.#deps.reveal(sessionId, at);
    else await this.#deps.open(sessionId);
    void this.index.touch(sessionId);
  }

  /** The listed sessions the index lacks. */
  missing(): string[] {
    return this.#deps
      .listed()
      .map((s) => s.sessionId)
      .filter((id) => !this.index.has(id));
  }

  async show(args: SearchArgs = {}): Promise<void> {
    void this.start();
    await this.index.open();
    this.picker?.dispose();
    const qp = vscode.window.createQuickPick<Item>();
    this.picker = qp;
    const toggle = (icon: string, tooltip: string, checked: boolean): vscode.QuickInputButton => ({
      iconPath: new vscode.ThemeIcon(icon),
      tooltip,
      location: vscode.QuickInputButtonLocation.Input,
      toggle: { checked },
    });
    const matchCase = toggle('case-sensitive', l10n.t('Match Case'), args.matchCase === true);
    const wholeWord = toggle('whole-word', l10n.t('Match Whole Word'), args.wholeWord === true);
    const regex = toggle('regex', l10n.t('Use Regular Expression'), args.regex === true);
    qp.buttons = [matchCase, wholeWord, regex];
    qp.title = l10n.t('Den: Search in Sessions');
    qp.placeholder = l10n.t('Find text in the sessions stored on this machine (answers, tool logs, files…)');
    qp.matchOnDescription = false;
    qp.matchOnDetail = false;
    qp.ignoreFocusOut = false;
    const options = (): MatchOptions => ({
      matchCase: matchCase.toggle?.checked === true,
      wholeWord: wholeWord.toggle?.checked === true,
      regex: regex.toggle?.checked === true,
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    let generation = 0;
    const run = (): void => {
      const mine = ++generation;
      qp.busy = true;
      // A newer search stops this one before its next session.
      this.searching = this.#items(qp.value, options(), () => mine !== generation).then(
        (items) => {
          if (mine !== generation) return;
          qp.items = items;
          qp.busy = false;
        },
        (err: unknown) => {
          if (mine !== generation) return;
          qp.items = [{ label: l10n.t('The search failed: {0}', String(err)), alwaysShow: true }];
          qp.busy = false;
        },
      );
    };
    qp.onDidChangeValue(() => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(run, TYPING_MS);
    });
    qp.onDidTriggerButton(() => {
      if (timer) clearTimeout(timer);
      run();
    });
    qp.onDidAccept(() => {
      const item = qp.activeItems[0];
      if (!item || (!item.row && !item.fetch)) return;
      const query = qp.value;
      const opts = options();
      qp.hide();
      void this.accept(item, query, opts);
    });
    qp.onDidHide(() => {
      if (timer) clearTimeout(timer);
      generation++;
      qp.dispose();
      if (this.picker === qp) this.picker = undefined;
    });
    qp.value = args.query ?? '';
    run();
    // A first pass that finishes while the list is open may add matches.
    void this.#started?.then(() => {
      if (this.picker === qp && qp.value) run();
    });
    qp.show();
  }

  async #items(query: string, options: MatchOptions, cancelled: () => boolean): Promise<Item[]> {
    const items: Item[] = query
      ? (await this.rows(query, options, { cancelled })).map((row) => itemOf(row))
      : [{ label: l10n.t('Type text to find in the sessions stored on this machine.'), alwaysShow: true }];
    const missing = this.missing().length;
    if (missing > 0) {
      items.push(
        { label: '', kind: vscode.QuickPickItemKind.Separator, alwaysShow: true },
        {
          label:
            missing === 1
              ? l10n.t('$(cloud-download) Fetch and index the 1 session not stored here…')
              : l10n.t(
                  '$(cloud-download) Fetch and index the {0} sessions not stored here…',
                  formatCount(missing),
                ),
          detail: l10n.t(
            'Reads their history from the service, one at a time; the index stays on this machine.',
          ),
          fetch: true,
          alwaysShow: true,
        },
      );
    }
    return items;
  }

  /** What Enter on a row does: open the session (and find the text in it), or fetch the rest. */
  async accept(item: Item, query: string, options: MatchOptions): Promise<void> {
    if (item.fetch) {
      await this.fetchMissing();
      return;
    }
    const row = item.row;
    if (row?.kind === 'session') await this.openResult(row.sessionId);
    else if (row?.kind === 'hit') {
      await this.openResult(row.sessionId, {
        query,
        options: { matchCase: !!options.matchCase, wholeWord: !!options.wholeWord, regex: !!options.regex },
        address: row.address,
        start: row.start,
      });
    }
  }

  /** Fetches and indexes the listed sessions not stored here, with progress and a cancel. */
  async fetchMissing(): Promise<{ indexed: number; failed: number }> {
    const ids = this.missing();
    if (ids.length === 0) return { indexed: 0, failed: 0 };
    const result = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: l10n.t('Den: indexing sessions for search'),
        cancellable: true,
      },
      (progress, token) =>
        this.feeder.fetchAndIndex(ids, (id) => this.#deps.fetch(id), {
          cancelled: () => token.isCancellationRequested,
          progress: (done, total) =>
            progress.report({
              increment: 100 / total,
              message: l10n.t('{0} of {1}', formatCount(done), formatCount(total)),
            }),
        }),
    );
    const message =
      result.failed > 0
        ? l10n.t(
            'Indexed {0} sessions for search; {1} could not be read from the service (see the Den log).',
            formatCount(result.indexed),
            formatCount(result.failed),
          )
        : l10n.t('Indexed {0} sessions for search.', formatCount(result.indexed));
    void vscode.window.showInformationMessage(message);
    return result;
  }

  dispose(): void {
    if (this.#startTimer) clearTimeout(this.#startTimer);
    this.picker?.dispose();
    this.feeder.dispose();
    for (const d of this.#subscriptions) d.dispose();
  }
}

function itemOf(row: SearchRow): Item {
  switch (row.kind) {
    case 'session':
      return { label: row.title, kind: vscode.QuickPickItemKind.Separator, row, alwaysShow: true };
    case 'hit':
      return {
        label: row.line || ' ',
        description: row.where,
        iconPath: new vscode.ThemeIcon(row.firstOfTurn ? 'comment-discussion' : 'blank'),
        row,
        alwaysShow: true,
      };
    case 'note':
      return { label: row.text, alwaysShow: true };
  }
}

function mbText(bytes: number): string {
  return (bytes / MB).toFixed(1);
}

/** What `createSessionSearch` wires the search to (extension.ts's pieces). */
export interface SessionSearchWiring {
  context: vscode.ExtensionContext;
  connection: Connection;
  registry: SessionRegistry;
  sessions: SessionsTreeProvider;
  open: (sessionId: string) => Promise<void>;
  reveal: (sessionId: string, at: MatchTarget) => Promise<void>;
  logger: Logger;
}

/**
 * The search over Den's pieces: the index in global storage (sessions belong to the account, not
 * to a workspace, like the transcript cache beside it), fed from that cache.
 */
export function createSessionSearch(w: SessionSearchWiring): SessionSearch {
  const storage = w.context.globalStorageUri;
  const cache = new TranscriptCache({
    dir: vscode.Uri.joinPath(storage, 'transcripts').fsPath,
    logger: w.logger,
  });
  return new SessionSearch({
    dir: vscode.Uri.joinPath(storage, 'search-index').fsPath,
    maxMegabytes: () => vscode.workspace.getConfiguration('den').get<number>('search.indexMaxMegabytes'),
    onDidChangeMaxMegabytes: (listener) =>
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('den.search.indexMaxMegabytes')) listener();
      }),
    cache,
    transcriptOf: (id) => w.registry.host(id)?.transcript,
    onDidChangeTranscript: (listener) => w.registry.onDidChangeTranscript(listener),
    onDidPaintTree: (listener) => w.sessions.onDidChangeTreeData(() => listener()),
    listed: () => w.sessions.sessions,
    fetch: async (id) => {
      const client = w.connection.client;
      if (!client) throw new Error(l10n.t('Den is not signed in to the service.'));
      return transcriptFromDetail(await client.getSession(id));
    },
    open: w.open,
    reveal: w.reveal,
    logger: w.logger,
  });
}
