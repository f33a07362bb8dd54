import { perDatabase, type Db } from "./pool.js";

/** Batches of grouped writes in flight at once (each holds one pooled connection). */
export const GROUPED_WRITES_IN_FLIGHT = 1;
/** Statements in one batch at most. */
export const GROUPED_WRITES_PER_BATCH = 32;

interface PendingWrite {
  countryId: number;
  sql: string;
  resolve(rows: readonly Record<string, unknown>[]): void;
  reject(err: unknown): void;
}

/**
 * Group commit for single-statement writes that cannot fail each other (the optimistic
 * actions' guarded writes, services/actions.ts: a changed row makes one write nothing, not an
 * error). A write sent while GROUPED_WRITES_IN_FLIGHT batches are out waits, and the writes
 * that waited together go as one simple query: one round trip and one commit for all of them.
 * Several statements in one simple query are one implicit transaction, so they are ordered by
 * country id (the order every action locks in, so no deadlock with them); if the batch fails
 * as a whole (a deadlock with the tick, a bad statement), each write is sent again alone, so
 * one write's error is only its own.
 */
export class GroupedWrites {
  private readonly queue: PendingWrite[] = [];
  private inFlight = 0;

  constructor(
    private readonly db: Db,
    private readonly maxInFlight = GROUPED_WRITES_IN_FLIGHT,
    private readonly maxPerBatch = GROUPED_WRITES_PER_BATCH,
  ) {}

  /** Runs one statement; resolves with the rows it returned. */
  write(countryId: number, sql: string): Promise<readonly Record<string, unknown>[]> {
    return new Promise((resolve, reject) => {
      this.queue.push({ countryId, sql, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxPerBatch).sort((a, b) => a.countryId - b.countryId);
      this.inFlight += 1;
      void this.send(batch).finally(() => {
        this.inFlight -= 1;
        this.pump();
      });
    }
  }

  private async send(batch: PendingWrite[]): Promise<void> {
    if (batch.length === 1) return this.sendAlone(batch[0]!);
    let results: Array<{ rows: Record<string, unknown>[] }>;
    try {
      results = (await this.db.query(batch.map((write) => write.sql).join(";\n"))) as unknown as Array<{ rows: Record<string, unknown>[] }>;
    } catch {
      // Nothing of the batch was written: each write again on its own.
      await Promise.all(batch.map((write) => this.sendAlone(write)));
      return;
    }
    batch.forEach((write, i) => write.resolve(results[i]!.rows));
  }

  private async sendAlone(write: PendingWrite): Promise<void> {
    try {
      const { rows } = await this.db.query(write.sql);
      write.resolve(rows as Record<string, unknown>[]);
    } catch (err) {
      write.reject(err);
    }
  }
}

/** The process's grouped writes to one database. */
export const groupedWritesOf = perDatabase((db) => new GroupedWrites(db));
