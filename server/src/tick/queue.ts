import { Queue, Worker, type Job, type WorkerOptions } from "bullmq";
import type { Redis } from "ioredis";
import { nextTickAt, tickNumberAt } from "../turnClock.js";
import type { TickDriver } from "./timer.js";
import { runDueTicks, type TickContext, type TickOptions, type TickResult } from "./turnTick.js";

/** BullMQ queue of the turn tick, shared by every process on the same Redis. */
export const TICK_QUEUE = "turn-tick";
/** The one job scheduler of that queue; every process upserts the same id, so there is one schedule. */
export const TICK_SCHEDULER_ID = "turn-tick";

export interface QueueTickOptions extends TickOptions {
  /** Worker lock and stall settings (tests shorten them). @default BullMQ's (30 s lock) */
  worker?: Pick<WorkerOptions, "lockDuration" | "stalledInterval" | "lockRenewTime">;
  /** Called after each job completes: tests watch redelivered jobs change nothing. */
  onJob?(job: { id: string; tickNumber: number; attempt: number }, result: TickResult): void;
}

/**
 * The tick with Redis: a BullMQ job scheduler fires one job per interval on the clock grid
 * (startDate on a boundary, then every interval), and one Worker per process takes jobs.
 * BullMQ delivers at least once (retries, stalled-job recovery after a killed worker); the
 * tick number comes from the job's scheduled time, and runDueTicks is idempotent in Postgres,
 * so every delivery of tick n has the one effect of tick n. A job also applies any earlier
 * tick still missing, so a tick whose worker died mid-transaction is applied by the next job
 * at the latest, without waiting for BullMQ's stalled-job check.
 */
export async function startQueueTick(ctx: TickContext, redis: Redis, options: QueueTickOptions = {}): Promise<TickDriver> {
  const intervalMs = ctx.config.turnIntervalMs;
  const logger = ctx.logger.child({ component: "tick-queue" });
  // The server's connection already has maxRetriesPerRequest null, which BullMQ requires;
  // BullMQ duplicates it for the worker's blocking reads and leaves the shared one open.
  const queue = new Queue(TICK_QUEUE, { connection: redis });
  queue.on("error", (err) => ctx.redisOutage?.noteFailure(err, "tick queue") || logger.error({ err }, "tick queue error"));
  await queue.upsertJobScheduler(
    TICK_SCHEDULER_ID,
    // startDate on a boundary keeps every later job on the grid (BullMQ adds `every` to it).
    // An existing scheduler with the same interval keeps its slot; a changed interval restarts it here.
    { every: intervalMs, startDate: nextTickAt(intervalMs) },
    {
      name: "tick",
      data: {},
      opts: {
        attempts: 5,
        backoff: { type: "exponential", delay: Math.min(1_000, Math.max(10, Math.floor(intervalMs / 4))) },
        removeOnComplete: { count: 100 },
        removeOnFail: { count: 1_000 },
      },
    },
  );

  const worker = new Worker(
    TICK_QUEUE,
    async (job: Job) => {
      const tickNumber = jobTickNumber(job, intervalMs);
      const result = await runDueTicks(ctx, tickNumber, options);
      options.onJob?.({ id: String(job.id), tickNumber, attempt: job.attemptsMade + 1 }, result);
      return { applied: result.applied.length, countriesUpdated: result.countriesUpdated };
    },
    { connection: redis, concurrency: 1, ...options.worker },
  );
  worker.on("error", (err) => ctx.redisOutage?.noteFailure(err, "tick worker") || logger.error({ err }, "tick worker error"));
  worker.on("failed", (job, err) => logger.warn({ err, jobId: job?.id, attempts: job?.attemptsMade }, "tick job failed"));

  return {
    async stop() {
      // close() lets a tick in progress finish; the scheduler stays for the other processes.
      await worker.close();
      await queue.close();
    },
  };
}

/**
 * Tick number of a job: `data.tickNumber` for a job added by hand (operators, tests), else
 * the scheduled time in a scheduler job's id (`repeat:<scheduler>:<ms>`), else the clock.
 */
export function jobTickNumber(job: Pick<Job, "id" | "data">, intervalMs: number): number {
  const fromData = (job.data as { tickNumber?: unknown } | undefined)?.tickNumber;
  if (typeof fromData === "number" && Number.isSafeInteger(fromData) && fromData >= 0) return fromData;
  const match = /:(\d+)$/.exec(String(job.id ?? ""));
  if (match) return tickNumberAt(Number(match[1]), intervalMs);
  return tickNumberAt(Date.now(), intervalMs);
}
