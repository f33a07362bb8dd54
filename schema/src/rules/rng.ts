/**
 * Randomness as data. Every random rule takes an `Rng` argument instead of calling
 * Math.random, so rules stay pure: the same state and the same seed give the same outcome.
 * Services draw a seed per action (`randomSeed()` on the server), store it with what it
 * decided (battle report, spy report), and a replay from the stored seed gives the same
 * result; tests fix the dice by choosing the seed.
 *
 * The generator is sfc32 (Chris Doty-Humphrey's Small Fast Counting generator, public
 * domain): 128 bits of state in four 32-bit words, period at least 2^32, passes PractRand to
 * many terabytes. Its whole state is a plain value (`RngState`), so it can be saved, copied,
 * sent, and resumed exactly.
 */

/** The generator's whole state: four unsigned 32-bit words. */
export type RngState = readonly [number, number, number, number];

/** Largest seed value (seeds are unsigned 32-bit integers). */
export const MAX_SEED = 0xffff_ffff;

/** Draws after seeding that are thrown away, so close seeds give unrelated streams. */
const WARM_UP_DRAWS = 12;

/** The next state and 32-bit output of sfc32; pure. */
function step(s: RngState): { next: RngState; value: number } {
  let [a, b, c, d] = s;
  const t = (((a + b) | 0) + d) | 0;
  d = (d + 1) | 0;
  a = b ^ (b >>> 9);
  b = (c + (c << 3)) | 0;
  c = (c << 21) | (c >>> 11);
  c = (c + t) | 0;
  return { next: [a >>> 0, b >>> 0, c >>> 0, d >>> 0], value: t >>> 0 };
}

/** The state a seed starts from (after the warm-up draws). */
export function seedState(seed: number): RngState {
  if (!Number.isInteger(seed) || seed < 0 || seed > MAX_SEED) throw new RangeError(`seed must be an integer in [0, ${MAX_SEED}], got ${seed}`);
  // The constant words keep an all-zero seed away from the degenerate all-zero state.
  let state: RngState = [0x9e37_79b9, 0x243f_6a88, 0xb7e1_5162, seed >>> 0];
  for (let i = 0; i < WARM_UP_DRAWS; i++) state = step(state).next;
  return state;
}

/**
 * A seedable pseudo-random generator. Rules call its methods; `state` is the value to save
 * and `Rng.fromState` resumes it. Not for secrets (use crypto for tokens).
 */
export class Rng {
  private current: RngState;
  /** How many 32-bit values have been drawn since the seed (for logs and replays). */
  draws = 0;

  private constructor(state: RngState) {
    this.current = state;
  }

  /** A generator started from `seed` (an unsigned 32-bit integer). */
  static fromSeed(seed: number): Rng {
    return new Rng(seedState(seed));
  }

  /** A generator resumed from a saved state. */
  static fromState(state: RngState): Rng {
    return new Rng([state[0] >>> 0, state[1] >>> 0, state[2] >>> 0, state[3] >>> 0]);
  }

  /** The current state as a value (a copy). */
  get state(): RngState {
    return [...this.current] as unknown as RngState;
  }

  /** An unsigned 32-bit integer. */
  nextUint32(): number {
    const { next, value } = step(this.current);
    this.current = next;
    this.draws += 1;
    return value;
  }

  /** A float in [0, 1), 32 bits of precision. */
  next(): number {
    return this.nextUint32() / 0x1_0000_0000;
  }

  /** An integer in [min, max], both inclusive, without modulo bias. */
  int(min: number, max: number): number {
    if (!Number.isInteger(min) || !Number.isInteger(max) || max < min) throw new RangeError(`invalid range [${min}, ${max}]`);
    const span = max - min + 1;
    if (span > 0x1_0000_0000) throw new RangeError("range wider than 2^32");
    // Reject the top sliver of outputs that would make some results more likely.
    const limit = Math.floor(0x1_0000_0000 / span) * span;
    for (;;) {
      const value = this.nextUint32();
      if (value < limit) return min + (value % span);
    }
  }

  /** true with probability `p` (clamped to [0, 1]). */
  chance(p: number): boolean {
    if (p <= 0) return false;
    if (p >= 1) return true;
    return this.next() < p;
  }

  /** A float uniformly in [min, max). */
  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError("pick from an empty list");
    return items[this.int(0, items.length - 1)]!;
  }
}
