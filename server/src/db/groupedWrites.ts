import crypto from "node:crypto";
import { perDatabase, type Db, type DbClient } from "./pool.js";
import type { Statement } from "./statement.js";

/**
 * Batches of grouped writes in flight at once (each holds one pooled connection). It moves with
 * what a write costs either side (docs/performance.md): with writes parsed as text 1 was best;
 * prepared, 2 (1,340-1,430 explorations a second against 1,221-1,231 with 1); since the server
 * answers without Express and the guard is the row version alone, 1 again: 4,158-4,253 against
 * 3,897-4,000 with 2, alternating in one window (batches of about 7 instead of 4).
 */
export const GROUPED_WRITES_IN_FLIGHT = 1;
/** Statements in one batch at most. */
export const GROUPED_WRITES_PER_BATCH = 32;
/**
 * Statement shapes prepared at most (per process and database; each connection prepares the
 * ones it is sent). A prepared plan costs the backend some tens of KB, so beyond this many
 * distinct shapes the others run as plain text.
 */
export const PREPARED_SHAPES_MAX = 64;

/** Postgres: a prepared statement of that name already exists on the connection. */
const DUPLICATE_PREPARED_STATEMENT = "42P05";

interface PendingWrite {
  countryId: number;
  statement: Statement;
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
 *
 * Prepared shapes. Each write is a Statement (db/statement.ts): its text with $n for its values
 * is the same for every action of the same kind. The first time a connection is sent a shape,
 * it prepares it (PREPARE, one round trip of its own); from then on the batch carries
 * `EXECUTE name(literals)`, and Postgres runs the plan it keeps instead of parsing and planning
 * the statement again. pgbench on an exploration's statement alone: 2,774 transactions a
 * second as text, 4,326 prepared (docs/performance.md). A shape Postgres cannot prepare, and
 * every shape beyond PREPARED_SHAPES_MAX, runs as text.
 */
export class GroupedWrites {
  private readonly queue: PendingWrite[] = [];
  private inFlight = 0;
  /** prepared statement names by shape (text); null: runs as text */
  private readonly names = new Map<string, string | null>();
  /** the names each connection has prepared */
  private readonly prepared = new WeakMap<DbClient, Set<string>>();

  constructor(
    private readonly db: Db,
    private readonly maxInFlight = GROUPED_WRITES_IN_FLIGHT,
    private readonly maxPerBatch = GROUPED_WRITES_PER_BATCH,
    private readonly maxShapes = PREPARED_SHAPES_MAX,
  ) {}

  /** Runs one statement; resolves with the rows it returned. */
  write(countryId: number, statement: Statement): Promise<readonly Record<string, unknown>[]> {
    return new Promise((resolve, reject) => {
      this.queue.push({ countryId, statement, resolve, reject });
      this.pump();
    });
  }

  /** How many shapes are prepared (or being prepared) by name. */
  get preparedShapes(): number {
    return [...this.names.values()].filter((name) => name !== null).length;
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
    let results: Array<{ rows: Record<string, unknown>[] }>;
    try {
      results = await this.sendTogether(batch);
    } catch {
      // Nothing of the batch was written: each write again on its own, as text.
      await Promise.all(batch.map((write) => this.sendAlone(write)));
      return;
    }
    batch.forEach((write, i) => write.resolve(results[i]!.rows));
  }

  /** The batch as one simple query on one connection: one implicit transaction. */
  private async sendTogether(batch: PendingWrite[]): Promise<Array<{ rows: Record<string, unknown>[] }>> {
    const client = await this.db.connect();
    let broken: Error | undefined;
    try {
      const texts: string[] = [];
      for (const write of batch) texts.push(this.preparedExecute(client, write.statement) ?? (await this.executable(client, write.statement)));
      const answer = (await client.query(texts.join(";\n"))) as unknown as { rows: Record<string, unknown>[] } | Array<{ rows: Record<string, unknown>[] }>;
      return Array.isArray(answer) ? answer : [answer];
    } catch (err) {
      // an error Postgres answered leaves the connection usable; anything else closes it
      if ((err as { code?: string }).code === undefined) broken = err as Error;
      throw err;
    } finally {
      client.release(broken);
    }
  }

  private async sendAlone(write: PendingWrite): Promise<void> {
    try {
      const { rows } = await this.db.query(write.statement.inline);
      write.resolve(rows as Record<string, unknown>[]);
    } catch (err) {
      write.reject(err);
    }
  }

  /** EXECUTE of the statement's shape if this connection has it prepared already (no await: the usual case). */
  private preparedExecute(client: DbClient, statement: Statement): string | undefined {
    const name = this.names.get(statement.text);
    return name && this.prepared.get(client)?.has(name) ? executeOf(name, statement) : undefined;
  }

  /**
   * What the batch carries for a statement on this connection: EXECUTE of its prepared shape
   * (prepared first if the connection has not yet), or the statement as text.
   */
  private async executable(client: DbClient, statement: Statement): Promise<string> {
    const text = statement.text;
    const name = this.nameOf(text);
    if (name === null) return statement.inline;
    let prepared = this.prepared.get(client);
    if (!prepared) this.prepared.set(client, (prepared = new Set()));
    if (!prepared.has(name)) {
      try {
        await client.query(`PREPARE ${name} AS ${text}`);
      } catch (err) {
        if ((err as { code?: string }).code !== DUPLICATE_PREPARED_STATEMENT) {
          this.names.set(text, null);
          return statement.inline;
        }
      }
      prepared.add(name);
    }
    return executeOf(name, statement);
  }

  /** The prepared statement name of a shape: from its text, so equal texts share it. */
  private nameOf(text: string): string | null {
    const known = this.names.get(text);
    if (known !== undefined) return known;
    if (this.names.size >= this.maxShapes) return null;
    const name = `grouped_${crypto.createHash("sha1").update(text).digest("hex").slice(0, 20)}`;
    this.names.set(text, name);
    return name;
  }
}

function executeOf(name: string, statement: Statement): string {
  const literals = statement.literals;
  return literals.length === 0 ? `EXECUTE ${name}` : `EXECUTE ${name}(${literals.join(", ")})`;
}

/** The process's grouped writes to one database. */
export const groupedWritesOf = perDatabase((db) => new GroupedWrites(db));
