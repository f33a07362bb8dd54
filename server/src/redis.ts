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
 * Longest one Redis command may take while the process starts, ms: from the connections'
 * creation until the server says it listens (RedisConnections.started), every command of the
 * presence, driver and request connections gets this instead of REDIS_COMMAND_TIMEOUT_MS, and
 * the presence's and driver's are sent again over every reconnection meanwhile. That includes
 * ioredis's ready check (INFO, sent on every connection): when it timed out at 1 s, ioredis
 * rejected every command queued behind it with the same "Command timed out", and a starved
 * process (the cluster loop, issue 29) or a Redis busy for a moment (a save's fork, issue 28)
 * failed the start. One that does not answer within it still fails the start, so an
 * orchestrator sees it.
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

  /**
   * Every connection starts with the start's bounds (REDIS_START_BOUND_MS); `started()` puts the
   * request path's in place.
   */
  constructor(url: string, logger: Logger, startBoundMs = REDIS_START_BOUND_MS) {
    const starting: RedisOptions = { commandTimeout: startBoundMs, maxRetriesPerRequest: null };
    this.queue = new Redis(url, { maxRetriesPerRequest: null });
    this.requests = new Redis(url, { commandTimeout: startBoundMs, maxRetriesPerRequest: 1, enableOfflineQueue: false });
    this.presence = new Redis(url, starting);
    this.driver = new Redis(url, starting);
    this.outage = new RedisOutage(logger, () => this.requests.ping());
    for (const [name, client] of Object.entries({ queue: this.queue, requests: this.requests, presence: this.presence, driver: this.driver })) {
      nameTimedOutCommands(client, name);
      this.outage.watch(client);
    }
  }

  /**
   * The start is over (the server is about to say it listens): from now on a command on the
   * request path waits at most REDIS_COMMAND_TIMEOUT_MS and is tried once more after a
   * reconnection at most, so an outage answers within 2 s (issue 28). Commands already sent keep
   * the bound they were sent with.
   */
  started(): void {
    this.requests.options.commandTimeout = REDIS_COMMAND_TIMEOUT_MS;
    for (const client of [this.presence, this.driver]) Object.assign(client.options, { commandTimeout: REDIS_COMMAND_TIMEOUT_MS, maxRetriesPerRequest: 1 });
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
 * ioredis's "Command timed out" names no command: the error of a command that timed out on
 * `client` gets `command` ({ name, args: the key at most }, the shape ioredis gives a Redis
 * error reply) and `connection`, so the log says which one timed out and where (the start that
 * failed in the cluster loop logged only the message).
 */
function nameTimedOutCommands(client: Redis, connection: string): void {
  const send = client.sendCommand.bind(client);
  client.sendCommand = ((command: Parameters<Redis["sendCommand"]>[0], stream?: Parameters<Redis["sendCommand"]>[1]) => {
    const answer = send(command, stream) as Promise<unknown>;
    answer.catch((err: unknown) => {
      if (err instanceof Error && err.message === "Command timed out" && !("command" in err)) {
        Object.assign(err, { command: { name: command.name, args: command.args.slice(0, 1).map(String) }, connection });
      }
    });
    return answer;
  }) as Redis["sendCommand"];
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
