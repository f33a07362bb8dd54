import { Redis, type RedisOptions } from "ioredis";
import type { Logger } from "./logger.js";
import { isUnavailableError } from "./errors.js";

/**
 * Longest one Redis command on a request's path may take, ms (ioredis `commandTimeout`, which
 * also runs while the command waits in the offline queue). A Redis that refuses or never
 * answers then costs a request at most this before the in-memory fallback or a 503 answers,
 * which keeps every answer of an outage under 2 s (issue 28).
 */
export const REDIS_COMMAND_TIMEOUT_MS = 1_000;
/**
 * Longest the start waits for Redis, ms: the matchmaker's set-up commands (Colyseus' listen) get
 * this instead of REDIS_COMMAND_TIMEOUT_MS, and are sent again over every reconnection meanwhile.
 * A Redis slow once (a save's fork, a slow command, a starved machine) costs the start that
 * moment instead of the start (issue 28); one that does not answer within it still fails the
 * start, so an orchestrator sees it.
 */
export const REDIS_START_BOUND_MS = 30_000;
/** How often a Redis noted unavailable is pinged to log its return, ms. */
const OUTAGE_PROBE_MS = 1_000;

/**
 * The Redis connections of one process, each bounded for what it serves:
 * - `queue`: BullMQ's (tick, strikes, AI rounds). BullMQ requires `maxRetriesPerRequest: null`
 *   (its blocking reads wait across reconnections); nothing on a request's path uses it.
 * - `requests`: the rate limiter and health. No offline queue (a command while disconnected
 *   fails at once, and the limiter falls back to memory), one retry, a command time-out.
 * - `presence` and `driver`: Colyseus pub/sub, room sessions and the matchmaker's room cache,
 *   used while joining and by logout's revocation; their offline queue is bounded by the
 *   command time-out (the presence's subscriber connection is a duplicate of `presence` with
 *   ioredis's defaults again, presence.ts: its SUBSCRIBEs wait until it is connected).
 * Every one has an 'error' listener feeding one RedisOutage, so an outage is one log line.
 */
export class RedisConnections {
  readonly queue: Redis;
  readonly requests: Redis;
  readonly presence: Redis;
  readonly driver: Redis;
  readonly outage: RedisOutage;

  constructor(url: string, logger: Logger) {
    const bounded: RedisOptions = { commandTimeout: REDIS_COMMAND_TIMEOUT_MS, maxRetriesPerRequest: 1 };
    this.queue = new Redis(url, { maxRetriesPerRequest: null });
    this.requests = new Redis(url, { ...bounded, enableOfflineQueue: false });
    this.presence = new Redis(url, bounded);
    this.driver = new Redis(url, bounded);
    this.outage = new RedisOutage(logger, () => this.requests.ping());
    for (const client of this.all()) this.outage.watch(client);
  }

  /** Resolves once the request-path connection is ready (it queues nothing before that). */
  async ready(): Promise<void> {
    if (this.requests.status === "ready") return;
    await new Promise<void>((resolve, reject) => {
      const onReady = () => {
        this.requests.off("end", onEnd);
        resolve();
      };
      const onEnd = () => {
        this.requests.off("ready", onReady);
        reject(new Error("Redis connection ended before it was ready"));
      };
      this.requests.once("ready", onReady);
      this.requests.once("end", onEnd);
    });
  }

  /**
   * Runs the start's Redis set-up (`work`: the matchmaker's first commands on the presence and
   * driver connections) with the start's bound: their commands wait up to REDIS_START_BOUND_MS
   * for an answer and survive reconnections within it; the request path's bounds are back once
   * `work` ends, before any client is served (the port is not listening yet).
   */
  async whileStarting<T>(work: () => Promise<T>, boundMs = REDIS_START_BOUND_MS): Promise<T> {
    const patient = [this.presence, this.driver];
    const saved = patient.map((client) => ({ commandTimeout: client.options.commandTimeout, maxRetriesPerRequest: client.options.maxRetriesPerRequest }));
    for (const client of patient) Object.assign(client.options, { commandTimeout: boundMs, maxRetriesPerRequest: null });
    try {
      return await work();
    } finally {
      patient.forEach((client, i) => Object.assign(client.options, saved[i]));
    }
  }

  /** Closes every connection at once (nothing waits for a Redis that is gone). */
  disconnect(): void {
    this.outage.stop();
    for (const client of this.all()) client.disconnect();
  }

  private all(): Redis[] {
    return [this.queue, this.requests, this.presence, this.driver];
  }
}

/**
 * One log line when Redis becomes unavailable and one when it answers again, however many
 * connections report errors and however many commands fail in between (a 30 s outage used to
 * log 5,121 lines and print 23 unhandled ioredis error events).
 */
export class RedisOutage {
  private since: number | undefined;
  private probe: NodeJS.Timeout | undefined;
  private probing = false;

  constructor(
    private readonly logger: Logger,
    private readonly ping: () => Promise<unknown>,
  ) {}

  /** Routes a connection's 'error' events here (this listener also keeps them from being unhandled). */
  watch(client: Redis): void {
    client.on("error", (err: Error) => this.noteFailure(err, "connection"));
  }

  /** Whether an outage is in progress. */
  get active(): boolean {
    return this.since !== undefined;
  }

  /**
   * Notes a failed Redis operation. Returns true when it was an unavailable Redis (logged once
   * per outage here); false for any other error, which the caller logs itself.
   */
  noteFailure(err: unknown, what: string): boolean {
    if (!isUnavailableError(err)) return false;
    if (this.since !== undefined) return true;
    this.since = Date.now();
    this.logger.error({ err, what }, "redis unavailable: limits use memory, Redis-backed work waits, until it answers again");
    this.probe = setInterval(() => this.checkBack(), OUTAGE_PROBE_MS);
    this.probe.unref();
    return true;
  }

  stop(): void {
    clearInterval(this.probe);
  }

  private checkBack(): void {
    if (this.probing) return;
    this.probing = true;
    this.ping()
      .then(
        () => {
          clearInterval(this.probe);
          this.logger.warn({ unavailableMs: Date.now() - (this.since ?? Date.now()) }, "redis answers again");
          this.since = undefined;
        },
        () => undefined,
      )
      .finally(() => (this.probing = false));
  }
}
