/**
 * A `Memento`-shaped store for unit tests of what Den keeps in `globalState` / `workspaceState`:
 * reads give copies, as VS Code's do, and `values` shows what is stored.
 */
export function fakeMemento(initial: Record<string, unknown> = {}): {
  values: Map<string, unknown>;
  get(key: string): unknown;
  update(key: string, value: unknown): Promise<void>;
} {
  const values = new Map(Object.entries(initial));
  return {
    values,
    get: (k) => structuredClone(values.get(k)),
    update: async (k, v) => {
      if (v === undefined) values.delete(k);
      else values.set(k, structuredClone(v));
    },
  };
}
