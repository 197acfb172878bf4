/** A deterministic pseudo-random sequence of non-negative integers. */
export function seeded(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1103515245 + 12345) & 0x7fffffff);
}
