/**
 * The wait the service asks for with a 429 when a turn starts, and the message it refused: held
 * until the wait is over, then offered again ("Send Now"), or sent by itself if the person chose
 * "Send When Ready". The notice says when, never a countdown (it would go stale; the composer
 * counts down by itself). No `vscode` import.
 */
import { l10n } from '../../core/shared/l10n';
import { firstLine } from '../../core/shared/format';
import type { Clock } from '../shared/clock';
import type { HostView } from './host-view';
import type { HeldTurnAction, Notice } from '../../protocol/session-panel/messages';
import type { TurnRequest } from './turn-request';

/** What starts a held turn (the turns' side of the host). */
export interface TurnStarter {
  /** Starts a turn (failures are shown by the host, a new 429 holds it again). */
  startTurn(req: TurnRequest): Promise<boolean>;
}

export interface RateLimitWaitDeps {
  view: HostView;
  clock: Clock;
  turns: TurnStarter;
  /** Wall-clock time (Unix ms), the scale of the service's wait. */
  now?: () => number;
}

export class RateLimitWait {
  /** Unix ms the wait ends at, while it lasts. */
  #until?: number;
  #timer?: unknown;
  #held?: TurnRequest;
  /** The person asked for the held message to go as soon as the wait is over. */
  #auto = false;
  #disposed = false;
  readonly #now: () => number;

  readonly #deps: RateLimitWaitDeps;
  constructor(deps: RateLimitWaitDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
  }

  /** The service's wait is not over: no turn may start. */
  get waiting(): boolean {
    return this.#until !== undefined;
  }

  /** The service answered 429 to `req`: holds it until `until` (Unix ms) and says so. */
  hold(until: number, req: TurnRequest): void {
    // A start answered after the panel's host went away: nothing to wait for.
    if (this.#disposed) return;
    this.#stopTimer();
    this.#until = until;
    this.#held = req;
    const { clock } = this.#deps;
    this.#timer = clock.setTimeout(() => this.#waitOver(), Math.max(0, until - this.#now()));
    this.#show();
  }

  /** A send during the wait was refused without a request: the notice says why again. */
  refused(): void {
    this.#show();
  }

  /** A turn started: the wait is over; the held message is done with if it was the one sent. */
  started(req: TurnRequest): void {
    this.#stopTimer();
    this.#until = undefined;
    if (this.#held === req || !this.#held) this.#release();
    this.#show();
  }

  /** Starting `req` failed otherwise than with a 429: a held `req` goes back to the person. */
  failed(req: TurnRequest): void {
    if (this.#held === req) this.#release();
    this.#deps.view.rateLimitedUntil = this.#until;
    this.#deps.view.heldText = this.#held?.task;
  }

  /** What the person chose in the notice. */
  act(action: HeldTurnAction): void {
    if (!this.#held) return;
    if (action === 'edit') {
      this.#release();
      this.#show();
    } else if (action === 'sendWhenReady' || this.waiting) {
      this.#auto = true;
      if (this.waiting) this.#show();
      else this.#sendHeld();
    } else {
      this.#sendHeld();
    }
    this.#deps.view.updateComposer();
  }

  dispose(): void {
    this.#disposed = true;
    this.#release();
    this.#stopTimer();
  }

  #waitOver(): void {
    this.#timer = undefined;
    this.#until = undefined;
    if (this.#held && this.#auto) this.#sendHeld();
    else this.#show();
    this.#deps.view.updateComposer();
  }

  #sendHeld(): void {
    const req = this.#held;
    if (!req) return;
    // Shown as sending meanwhile; `started`, `failed` or a new `hold` settles it.
    this.#deps.view.setNotice(null);
    void this.#deps.turns.startTurn(req);
  }

  #release(): void {
    this.#held = undefined;
    this.#auto = false;
  }

  /** The notice and the composer's facts for the state now. */
  #show(): void {
    const view = this.#deps.view;
    view.rateLimitedUntil = this.#until;
    view.heldText = this.#held?.task;
    view.setNotice(this.#notice());
  }

  #notice(): Notice | null {
    const at = this.#until !== undefined ? new Date(this.#until).toLocaleTimeString() : '';
    const what = this.#held ? `“${firstLine(this.#held.task, 60)}”` : '';
    const edit = { title: l10n.t('Edit'), heldTurn: 'edit' } as const;
    if (this.waiting && this.#held && this.#auto) {
      return { level: 'info', message: l10n.t('Den will send {0} at {1}.', what, at), actions: [edit] };
    }
    if (this.waiting) {
      return this.#held
        ? {
            level: 'warning',
            message: l10n.t(
              'The service is busy: too many turns are running at once (429). Den can send {0} at {1}.',
              what,
              at,
            ),
            actions: [{ title: l10n.t('Send When Ready'), heldTurn: 'sendWhenReady' }, edit],
          }
        : {
            level: 'warning',
            message: l10n.t(
              'The service is busy: too many turns are running at once (429). You can send again at {0}.',
              at,
            ),
            actions: [],
          };
    }
    if (this.#held) {
      return {
        level: 'info',
        message: l10n.t('The service can take a turn again: send {0} now?', what),
        actions: [{ title: l10n.t('Send Now'), heldTurn: 'send' }, edit],
      };
    }
    return null;
  }

  #stopTimer(): void {
    if (this.#timer !== undefined) this.#deps.clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
