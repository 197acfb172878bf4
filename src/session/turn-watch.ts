/**
 * Notices a turn started somewhere else (another window, another machine, the API) in a session
 * shown here. The service pushes nothing for a turn this window did not start (the socket follows
 * one agent message, named by its id), so while a panel shows the session and follows no turn, the
 * stored history is read again every `intervalMs`; a new turn found there is followed live from its
 * stored cursor, as after a reload. No request goes out while the panel is hidden, while a turn is
 * followed (it ends with a reconcile anyway), or before the history was loaded once. No `vscode`
 * import.
 */
import type { Logger } from '../core/log';
import type { Clock } from './clock';

/** How often a shown, idle session looks for turns started elsewhere. */
export const TURN_WATCH_INTERVAL_MS = 5_000;

export interface TurnWatchDeps {
  clock: Clock;
  logger: Logger;
  /** Whether the session is shown: the looks go on while it is (and stop while it is hidden). */
  shown(): boolean;
  /** Whether a look is worth it now: loaded once, nothing followed, nothing being sent or loaded. */
  idle(): boolean;
  /** Reads the stored history, merges it and follows what is open (`HistoryLoader.load`). */
  check(): Promise<void>;
  intervalMs?: number;
}

export class TurnWatch {
  readonly #deps: TurnWatchDeps;
  readonly #intervalMs: number;
  #timer: unknown;
  #checks = 0;
  #disposed = false;

  constructor(deps: TurnWatchDeps) {
    this.#deps = deps;
    this.#intervalMs = Math.max(1, deps.intervalMs ?? TURN_WATCH_INTERVAL_MS);
  }

  /** How many times the history was read to look for a new turn (tests, diagnostics). */
  get checks(): number {
    return this.#checks;
  }

  /** Arms the next look when the session is shown and none is armed; disarms it when hidden. */
  update(): void {
    if (this.#disposed) return;
    const wanted = this.#deps.shown();
    if (wanted && this.#timer === undefined) this.#arm();
    else if (!wanted && this.#timer !== undefined) this.#disarm();
  }

  dispose(): void {
    this.#disposed = true;
    this.#disarm();
  }

  #arm(): void {
    const { clock } = this.#deps;
    this.#timer = clock.setTimeout(() => {
      this.#timer = undefined;
      if (this.#disposed) return;
      if (!this.#deps.idle()) {
        this.update();
        return;
      }
      this.#checks++;
      this.#deps
        .check()
        .catch((err: unknown) => this.#deps.logger.debug(`turn watch: ${String(err)}`))
        .finally(() => this.update());
    }, this.#intervalMs);
  }

  #disarm(): void {
    if (this.#timer === undefined) return;
    this.#deps.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
