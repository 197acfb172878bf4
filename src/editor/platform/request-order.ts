/**
 * Which request's outcome describes the connection. Requests overlap (the tree's list, a session's
 * turns fetched for an expanded row, a panel's load), and they settle in any order: a success of a
 * request that started *before* a failure says nothing about the failure (the key may have been
 * revoked in between), so it must not clear it. Each tracked request takes a ticket when it starts;
 * an outcome is accepted only if no request that started later has settled already.
 * No `vscode` import: unit-tested in plain Node.
 */
export class RequestOrder {
  #nextTicket = 1;
  #settledTicket = 0;

  /** A ticket for a request about to start. */
  begin(): number {
    return this.#nextTicket++;
  }

  /**
   * Whether the outcome of the request holding `ticket` is news. Untracked outcomes (no ticket) are
   * treated as starting now: they belong to something the person just did.
   */
  accept(ticket: number | undefined): boolean {
    const t = ticket ?? this.begin();
    if (t < this.#settledTicket) return false;
    this.#settledTicket = t;
    return true;
  }
}
