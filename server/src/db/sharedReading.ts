/**
 * A read of the whole world that many requests share for a moment (issue 29): made at most once
 * per `maxAgeMs` per process, one reading in flight at a time, and a caller never gets a
 * reading that started more than `maxAgeMs` before it asked (0: a reading of its own). Used by
 * the rank board (db/rankBoard.ts) and the alliance ladder (services/alliances.ts): reads whose
 * cost grows with the world and whose answer is public and the same for everyone.
 */
export class SharedReading<T> {
  private latest: { startedAt: number; value: T } | null = null;
  private reading: { startedAt: number; value: Promise<T> } | null = null;

  constructor(private readonly read: () => Promise<T>) {}

  current(maxAgeMs: number): Promise<T> {
    const now = performance.now();
    if (this.latest && now - this.latest.startedAt < maxAgeMs) return Promise.resolve(this.latest.value);
    if (this.reading && now - this.reading.startedAt < maxAgeMs) return this.reading.value;
    const reading = { startedAt: now, value: this.read() };
    this.reading = reading;
    reading.value.then(
      (value) => {
        if (!this.latest || reading.startedAt > this.latest.startedAt) this.latest = { startedAt: reading.startedAt, value };
        if (this.reading === reading) this.reading = null;
      },
      () => {
        if (this.reading === reading) this.reading = null;
      },
    );
    return reading.value;
  }

  /**
   * Drops what was read, so the next caller reads again: called after a commit that changes
   * what the reading lists (a country registered, an alliance founded), so the process that
   * made the change shows it at once. Other processes see it within `maxAgeMs`.
   */
  forget(): void {
    this.latest = null;
    this.reading = null;
  }
}
