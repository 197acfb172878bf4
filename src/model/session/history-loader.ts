/**
 * Opening a session's panel and loading its history: painting from the cache first (when nothing is
 * shown yet), then fetching the stored history, one fetch at a time, and merging it into what is
 * shown. A 404 for a session whose first turn was just started here is not an error: the service
 * may not list it yet. No `vscode` import.
 */
import type { ApiClient } from '../../core/client/client';
import { DenError } from '../../core/client/errors';
import { l10n } from '../../core/shared/l10n';
import type { Logger } from '../../core/shared/log';
import { transcriptFromDetail } from '../../core/transcript/from-history';
import { presentError } from '../shared/error-text';
import type { HostView } from './host-view';
import type { SessionTranscript } from './session-transcript';
import type { TranscriptCache } from './transcript-cache';
import type { WatchRead } from './turn-watch';

/** The service as the loader asks it (the host's own deps are one). */
export interface HistoryService {
  /** Throws a `config` DenError when Den cannot talk to the service. */
  client(): ApiClient;
  reportSuccess?(): void;
  reportFailure?(err: unknown): void;
}

/** Who follows up on what was painted or loaded (the turns' side of the host). */
export interface HistoryListener {
  /** Follows the turns left open by what was painted or loaded (called after every fetch). */
  followOpenTurns(): void;
  /** The stored history was read and every turn in it merged: the session's `updatedAt` then. */
  historyRead(updatedAt: number): void;
}

export interface HistoryLoaderDeps {
  service: HistoryService;
  cache?: TranscriptCache;
  /** The transcript store the history is merged into (closed: the host was disposed). */
  live: SessionTranscript;
  view: HostView;
  logger: Logger;
  listener: HistoryListener;
}

export class HistoryLoader {
  #fetches = 0;
  #fetched = false;
  #loading?: Promise<void>;
  #opening?: Promise<void>;
  /** A turn was started before the history was ever fetched: a 404 means "not created yet". */
  #expectNew = false;

  readonly #deps: HistoryLoaderDeps;
  constructor(deps: HistoryLoaderDeps) {
    this.#deps = deps;
  }

  /** Whether the history was fetched at least once. */
  get loaded(): boolean {
    return this.#fetched;
  }

  /** Whether the session is expected to be new (not on the service until its first turn). */
  get expectingNew(): boolean {
    return this.#expectNew;
  }

  /** Whether a fetch is on its way. */
  get busy(): boolean {
    return this.#loading !== undefined;
  }

  /**
   * Paints from the cache (when nothing is shown yet) and follows its open turns from their
   * cursors, then loads the history. Later calls load again only when no load has succeeded yet.
   */
  async open(): Promise<void> {
    await this.paint();
    if (!this.#fetched) await this.load();
  }

  /** Paints from the cache (once; when nothing is shown yet) and follows its open turns. */
  paint(): Promise<void> {
    this.#opening ??= this.#paintFromCache();
    return this.#opening;
  }

  /** Fetches the history, merges it into what is shown and follows open turns. */
  load(): Promise<void> {
    const { view } = this.#deps;
    if (!this.#loading) {
      view.failure = undefined;
      this.#loading = this.#fetch().finally(() => {
        this.#loading = undefined;
        view.updateConnection();
      });
      view.updateConnection();
    }
    return this.#loading;
  }

  /**
   * Reads the stored history again without a word in the panel (no loading state, no failure
   * shown; a failure is only logged): what `TurnWatch` does to find turns started elsewhere. Only
   * when the service has a turn not shown here is the history merged in and its open turns
   * followed (`new`); otherwise nothing changes (`none`). `not-read`: it failed, or a load was
   * under way (whose result stands).
   */
  async refresh(): Promise<WatchRead> {
    const d = this.#deps;
    if (this.#loading) {
      await this.#loading;
      return 'not-read';
    }
    try {
      const detail = await d.service.client().getSession(d.live.sessionId);
      if (d.live.closed) return 'not-read';
      const fresh = transcriptFromDetail(detail);
      // Only a turn not shown yet is worth a merge (and its repaint, cache write, …).
      const known = new Set(d.live.value.turns.map((t) => t.agentMessageId));
      const news = fresh.turns.some((t) => t.agentMessageId && !known.has(t.agentMessageId));
      if (news) {
        d.logger.info(`Session ${d.live.sessionId}: a turn was started elsewhere; following it`);
        d.live.merge(fresh);
      }
      d.listener.historyRead(detail.session.updatedAt);
      if (!news) return 'none';
    } catch (err) {
      d.logger.debug(
        `Session ${d.live.sessionId}: looking for turns started elsewhere failed: ${err instanceof Error ? err.message : String(err)}`,
      );
      return 'not-read';
    }
    d.listener.followOpenTurns();
    return 'new';
  }

  /** A turn is being started: with nothing shown and nothing fetched yet, the session may be new. */
  turnStarting(): void {
    if (this.#deps.live.value.turns.length === 0 && this.#fetches === 0) this.#expectNew = true;
  }

  async #paintFromCache(): Promise<void> {
    const { cache, live } = this.#deps;
    if (!cache || live.value.turns.length > 0) return;
    const cached = await cache.read(live.sessionId);
    if (!cached || live.value.turns.length > 0 || live.closed) return;
    live.replace(cached);
    this.#deps.listener.followOpenTurns();
  }

  async #fetch(): Promise<void> {
    const d = this.#deps;
    this.#fetches++;
    try {
      const detail = await d.service.client().getSession(d.live.sessionId);
      d.service.reportSuccess?.();
      if (d.live.closed) return;
      this.#expectNew = false;
      this.#fetched = true;
      d.live.merge(transcriptFromDetail(detail));
      d.listener.historyRead(detail.session.updatedAt);
    } catch (err) {
      if (err instanceof DenError && err.code === 'not_found' && this.#expectNew) {
        // A session created by the turn just started: the service may not list it yet.
        d.logger.debug(`Session ${d.live.sessionId} is not known to the service yet`);
      } else {
        if (!(err instanceof DenError) || err.fault !== 'user') d.service.reportFailure?.(err);
        const p = presentError(err, l10n.t('load the session'));
        const offline = err instanceof DenError && err.fault === 'network';
        d.view.failure = { state: offline ? 'offline' : 'failed', message: p.message };
      }
    }
    d.listener.followOpenTurns();
  }
}
