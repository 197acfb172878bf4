/**
 * Dispatching a message union by its `type` through one handler map: a map typed `Handlers<U>` must
 * have a handler for every type of `U`, so a message added to the contract without a handler does
 * not compile, and there is no default branch for it to fall into. Pure: both bundles use it.
 */

/** One handler per message type of `U`, each given its own member of the union. */
export type Handlers<U extends { type: string }, R = void | Promise<void>> = {
  [K in U['type']]: (m: Extract<U, { type: K }>) => R;
};

/**
 * Calls the handler for `m.type`. A type the map does not list (only possible past the type
 * checker, e.g. an unchecked value) is refused with a TypeError, never looked up on the prototype.
 */
export function dispatch<U extends { type: string }, R>(handlers: Handlers<U, R>, m: U): R {
  const type: unknown = m.type;
  if (typeof type !== 'string' || !Object.hasOwn(handlers, type))
    throw new TypeError(`No handler for a "${String(type)}" message`);
  const handle = handlers[type as U['type']] as (m: U) => R;
  return handle(m);
}
