/** A seeded PRNG (mulberry32): the same --seed replays the same mix and bot order. */
export function createRng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Picks names in proportion to their weights. Zero weights are never picked.
 * @throws when no weight is positive
 */
export function weightedPicker<T extends string>(weights: Readonly<Record<T, number>>, rng: () => number): () => T {
  const entries = (Object.entries(weights) as [T, number][]).filter(([, w]) => w > 0);
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  if (entries.length === 0 || !(total > 0)) throw new Error("The action mix has no positive weight");
  const cumulative: number[] = [];
  let running = 0;
  for (const [, w] of entries) cumulative.push((running += w / total));
  return () => {
    const r = rng();
    for (let i = 0; i < cumulative.length; i++) if (r < cumulative[i]!) return entries[i]![0];
    return entries[entries.length - 1]![0];
  };
}
