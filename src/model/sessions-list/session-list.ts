import type { ListSessionsQuery, Session, SessionPage } from '../../core/client/types';

/** Fetches one page of sessions (the API client's `listSessions`). */
export type PageFetcher = (query: ListSessionsQuery, signal?: AbortSignal) => Promise<SessionPage>;

/**
 * The sessions loaded so far, page by page (newest first), with the search filter. Deleted
 * sessions are hidden; a session that moved between pages while paging is listed once.
 */
export class SessionList {
  #items: Session[] = [];
  #index = new Map<string, number>();
  #pagesLoaded = 0;
  #totalPages = 0;
  #total = 0;
  #filterText?: string;
  #generation = 0;
  #more?: { gen: number; done: Promise<void> };

  readonly #fetchPage: PageFetcher;
  readonly #pageSize: number;
  constructor(fetchPage: PageFetcher, pageSize: number) {
    this.#fetchPage = fetchPage;
    this.#pageSize = pageSize;
  }

  get sessions(): readonly Session[] {
    return this.#items;
  }

  get filter(): string | undefined {
    return this.#filterText;
  }

  get totalCount(): number {
    return this.#total;
  }

  get loaded(): boolean {
    return this.#pagesLoaded > 0;
  }

  get hasMore(): boolean {
    return this.#pagesLoaded > 0 && this.#pagesLoaded < this.#totalPages;
  }

  /** Sets the search filter; the next `reload` uses it. */
  setFilter(text: string | undefined): void {
    this.#filterText = text?.trim() || undefined;
  }

  /** Forgets everything loaded and fetches the first page. */
  async reload(signal?: AbortSignal): Promise<void> {
    const gen = ++this.#generation;
    const page = await this.#fetchPage(this.#query(1), signal);
    if (gen !== this.#generation) return;
    this.#items = [];
    this.#index.clear();
    this.#pagesLoaded = 0;
    this.#accept(page);
  }

  /** Fetches the next page and appends what is new; a call while a page is on its way waits for it. */
  loadMore(signal?: AbortSignal): Promise<void> {
    if (!this.hasMore) return Promise.resolve();
    // Two quick clicks must not both fetch page N+1: it would be counted twice and page N+2 skipped.
    if (this.#more?.gen === this.#generation) return this.#more.done;
    const gen = this.#generation;
    const done = this.#fetchMore(gen, signal).finally(() => {
      if (this.#more?.done === done) this.#more = undefined;
    });
    this.#more = { gen, done };
    return done;
  }

  async #fetchMore(gen: number, signal?: AbortSignal): Promise<void> {
    const page = await this.#fetchPage(this.#query(this.#pagesLoaded + 1), signal);
    if (gen !== this.#generation) return;
    this.#accept(page);
  }

  get(sessionId: string): Session | undefined {
    const i = this.#index.get(sessionId);
    return i === undefined ? undefined : this.#items[i];
  }

  /** Replaces a session's data (after a rename or a refetch). */
  update(session: Session): void {
    const i = this.#index.get(session.sessionId);
    if (i !== undefined) this.#items[i] = session;
  }

  /** Drops a session (deleted, or gone from the service). */
  remove(sessionId: string): boolean {
    const i = this.#index.get(sessionId);
    if (i === undefined) return false;
    this.#items.splice(i, 1);
    this.#total = Math.max(0, this.#total - 1);
    this.#reindex();
    return true;
  }

  #query(page: number): ListSessionsQuery {
    return { page, limit: this.#pageSize, search: this.#filterText, sort: 'updatedAt', order: 'desc' };
  }

  #accept(page: SessionPage): void {
    for (const s of page.sessions) {
      if (s.deleted) continue;
      const at = this.#index.get(s.sessionId);
      if (at !== undefined) {
        this.#items[at] = s;
      } else {
        this.#index.set(s.sessionId, this.#items.length);
        this.#items.push(s);
      }
    }
    this.#pagesLoaded = Math.max(this.#pagesLoaded + 1, page.currentPage || 0);
    this.#totalPages = page.totalPages;
    this.#total = page.totalCount;
  }

  #reindex(): void {
    this.#index.clear();
    this.#items.forEach((s, i) => this.#index.set(s.sessionId, i));
  }
}
