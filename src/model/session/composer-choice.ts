/**
 * The one owner of a session's composer choice: the mode and fast/think its next turn uses. It
 * starts from the settings' defaults (`den.defaultMode`, `den.defaultEffort`) when the session's
 * host is made; the webview only shows it and reports the person's changes (`composerChoice`, or
 * the choice a `send` carries); the composer deltas and the turns started read it here.
 * No `vscode` import.
 */
import type { Effort, Mode } from '../../core/client/types';

export interface Choice {
  mode: Mode;
  effort: Effort;
}

export class ComposerChoice {
  #value: Choice;

  constructor(defaults: Choice) {
    this.#value = { mode: defaults.mode, effort: defaults.effort };
  }

  get mode(): Mode {
    return this.#value.mode;
  }

  get effort(): Effort {
    return this.#value.effort;
  }

  /** The choice now (a copy). */
  get current(): Choice {
    return { ...this.#value };
  }

  /** The person chose (in the webview); returns whether that changed the choice. */
  choose(mode: Mode, effort: Effort): boolean {
    if (mode === this.#value.mode && effort === this.#value.effort) return false;
    this.#value = { mode, effort };
    return true;
  }

  /** What a turn runs with: the request's own mode and effort (a command's), else this choice. */
  for(req: { mode?: Mode; effort?: Effort }): Choice {
    return { mode: req.mode ?? this.#value.mode, effort: req.effort ?? this.#value.effort };
  }
}
