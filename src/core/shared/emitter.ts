/** A subscription to an `Emitter`'s event: `dispose` stops it. */
export interface Subscription {
  dispose(): void;
}

/** Subscribes a listener (the shape of `vscode.Event` without its optional arguments). */
export type Listen<T> = (listener: (e: T) => void) => Subscription;

/**
 * A minimal synchronous event emitter for vscode-free code: listeners run in the order they
 * subscribed; one that throws does not keep the others from running (the first error is rethrown
 * after all ran). No `vscode` import.
 */
export class Emitter<T> {
  #listeners: ((e: T) => void)[] = [];

  readonly event: Listen<T> = (listener) => {
    const entry = (e: T): void => listener(e);
    this.#listeners.push(entry);
    return {
      dispose: () => {
        this.#listeners = this.#listeners.filter((l) => l !== entry);
      },
    };
  };

  fire(e: T): void {
    let failure: { error: unknown } | undefined;
    for (const l of [...this.#listeners]) {
      try {
        l(e);
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure) throw failure.error;
  }

  dispose(): void {
    this.#listeners = [];
  }
}
