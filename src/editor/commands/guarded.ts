import { showError } from '../platform/show-error';

/**
 * A command handler whose failure is shown (`doing`: "refresh sessions") and resolves to
 * undefined instead of rejecting. The notification is not awaited: it stays until dismissed, and
 * the command must not hang on it.
 */
export function guarded<A extends unknown[], R>(
  doing: string,
  fn: (...a: A) => Promise<R>,
): (...a: A) => Promise<R | undefined> {
  return async (...a: A) => {
    try {
      return await fn(...a);
    } catch (err) {
      void showError(err, doing);
      return undefined;
    }
  };
}
