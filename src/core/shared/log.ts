import { redact } from '../client/errors';

/** Where the core writes what it does. The extension maps this onto its output channel. */
export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** Wraps a logger so that nothing it writes can carry a credential (see `redact`). */
export function redactingLogger(inner: Logger, secrets: () => (string | undefined)[]): Logger {
  const wrap =
    (fn: (m: string) => void) =>
    (m: string): void =>
      fn(redact(m, ...secrets()));
  return {
    debug: wrap((m) => inner.debug(m)),
    info: wrap((m) => inner.info(m)),
    warn: wrap((m) => inner.warn(m)),
    error: wrap((m) => inner.error(m)),
  };
}
