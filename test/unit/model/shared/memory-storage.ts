/** A `Memento`-like store for unit tests: reads give copies, as VS Code's do; writes are counted. */
export function memoryStorage(initial: Record<string, unknown> = {}) {
  const values = new Map(Object.entries(initial));
  let writes = 0;
  return {
    values,
    /** How many times `update` was called. */
    writes: (): number => writes,
    get: (key: string): unknown => structuredClone(values.get(key)),
    update: async (key: string, value: unknown): Promise<void> => {
      writes++;
      if (value === undefined) values.delete(key);
      else values.set(key, structuredClone(value));
    },
  };
}
