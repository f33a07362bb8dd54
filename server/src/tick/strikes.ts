import { Queue, Worker, type Job } from "bullmq";
import type { Redis } from "ioredis";
import { findDueStrikes, findPendingStrikes } from "../db/military.js";
import type { ServiceContext } from "../services/context.js";
import { setStrikeScheduler, type StrikeScheduler } from "../services/strikeScheduler.js";

export type { StrikeScheduler };

/**
 * Planned strikes and scheduled attacks run at their time from the job queue: a delayed
 * BullMQ job per strike with Redis (any process's worker takes it), an in-process timer per
 * strike without. Postgres decides: executeStrike locks the strike row in the battle's own
 * transaction and runs it only while it is pending, so a job delivered twice, a timer and a
 * job both firing, or two processes sweeping at once still fight one battle.
 *
 * Surviving restarts: strikes are rows. On start each process runs the pending strikes that
 * are due and arms the rest (a timer, or a job whose id is the strike's, so re-adding it is a
 * no-op while it waits); a sweep every SWEEP_INTERVAL_MS runs any due strike a lost job or
 * timer left behind.
 */

/** BullMQ queue of the strikes, shared by every process on the same Redis. */
export const STRIKE_QUEUE = "strikes";
/** How often due strikes are swept up (ms). */
export const STRIKE_SWEEP_INTERVAL_MS = 60_000;
/** Longest a Node timer can wait (ms); longer delays re-arm. */
const MAX_TIMER_MS = 2_147_483_647;

export interface StrikeSchedulerOptions {
  /** @default STRIKE_SWEEP_INTERVAL_MS */
  sweepIntervalMs?: number;
  /** Called after each execution attempt (tests watch strikes run once). */
  onRun?(strikeId: number, outcome: "executed" | "failed" | "skipped"): void;
}

type Execute = (ctx: ServiceContext, strikeId: number) => Promise<"executed" | "failed" | "skipped">;

const jobId = (strikeId: number) => `strike-${strikeId}`;

/**
 * Starts the strike scheduler of this process: arms every pending strike, runs the due ones,
 * and sweeps periodically. `execute` is the combat service's executeStrike (passed in, so a
 * test can run the scheduler on another executor).
 */
export async function startStrikeScheduler(ctx: ServiceContext, redis: Redis | undefined, execute: Execute, options: StrikeSchedulerOptions = {}): Promise<StrikeScheduler> {
  const logger = ctx.logger.child({ component: "strikes" });
  let stopped = false;
  const running = new Set<Promise<unknown>>();
  const track = <T>(p: Promise<T>) => {
    running.add(p);
    void p.finally(() => running.delete(p)).catch(() => undefined);
    return p;
  };
  const run = (strikeId: number) =>
    track(
      execute(ctx, strikeId).then(
        (outcome) => {
          options.onRun?.(strikeId, outcome);
          if (outcome !== "skipped") logger.info({ strikeId, outcome }, "strike run");
          return outcome;
        },
        (err) => {
          logger.error({ err, strikeId }, "strike failed to run; the sweep retries it");
          return "skipped" as const;
        },
      ),
    );

  let arm: (strikeId: number, executeAt: Date) => Promise<void>;
  let disarm: (strikeId: number) => Promise<void>;
  let close: () => Promise<void>;

  if (redis) {
    const queue = new Queue(STRIKE_QUEUE, { connection: redis });
    queue.on("error", (err) => ctx.redisOutage?.noteFailure(err, "strike queue") || logger.error({ err }, "strike queue error"));
    const worker = new Worker(
      STRIKE_QUEUE,
      async (job: Job) => {
        const strikeId = Number((job.data as { strikeId?: unknown }).strikeId);
        if (!Number.isSafeInteger(strikeId)) return "skipped";
        // Errors propagate: BullMQ retries, and the sweep is the last resort.
        const outcome = await execute(ctx, strikeId);
        options.onRun?.(strikeId, outcome);
        return outcome;
      },
      { connection: redis, concurrency: 4 },
    );
    worker.on("error", (err) => ctx.redisOutage?.noteFailure(err, "strike worker") || logger.error({ err }, "strike worker error"));
    worker.on("failed", (job, err) => logger.warn({ err, jobId: job?.id }, "strike job failed"));
    arm = async (strikeId, executeAt) => {
      await queue.add(
        "strike",
        { strikeId },
        {
          jobId: jobId(strikeId),
          delay: Math.max(0, executeAt.getTime() - Date.now()),
          attempts: 5,
          backoff: { type: "exponential", delay: 1_000 },
          // Completed and failed jobs are removed, so an id is never blocked by an old job.
          removeOnComplete: true,
          removeOnFail: true,
        },
      );
    };
    disarm = async (strikeId) => {
      await queue.remove(jobId(strikeId)).catch((err) => logger.warn({ err, strikeId }, "strike job not removed"));
    };
    close = async () => {
      await worker.close();
      await queue.close();
    };
  } else {
    const timers = new Map<number, NodeJS.Timeout>();
    arm = async (strikeId, executeAt) => {
      clearTimeout(timers.get(strikeId));
      const wait = executeAt.getTime() - Date.now();
      const timer = setTimeout(
        () => {
          timers.delete(strikeId);
          if (stopped) return;
          if (wait > MAX_TIMER_MS) void arm(strikeId, executeAt);
          else void run(strikeId);
        },
        Math.min(Math.max(0, wait), MAX_TIMER_MS),
      );
      timer.unref();
      timers.set(strikeId, timer);
    };
    disarm = async (strikeId) => {
      clearTimeout(timers.get(strikeId));
      timers.delete(strikeId);
    };
    close = async () => {
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
    };
  }

  let sweeping: Promise<void> | null = null;
  const sweep = () => {
    sweeping ??= (async () => {
      try {
        for (;;) {
          const due = await findDueStrikes(ctx.db, new Date());
          if (due.length === 0 || stopped) return;
          const outcomes = await Promise.all(due.map((s) => run(s.id)));
          // a strike that could not run (error) stays pending: stop, the next sweep retries it
          if (outcomes.every((o) => o === "skipped")) return;
        }
      } finally {
        sweeping = null;
      }
    })();
    return sweeping;
  };

  const scheduler: StrikeScheduler = {
    async schedule(strikeId, executeAt) {
      if (stopped) return;
      await arm(strikeId, executeAt);
    },
    cancel: (strikeId) => disarm(strikeId),
    sweep,
    async stop() {
      stopped = true;
      clearInterval(interval);
      setStrikeScheduler(ctx, undefined);
      await close();
      await Promise.allSettled([...running]);
      await sweeping?.catch(() => undefined);
    },
  };
  setStrikeScheduler(ctx, scheduler);

  // Survive restarts: arm what waits, run what is due.
  const now = Date.now();
  for (const s of await findPendingStrikes(ctx.db)) {
    if (s.execute_at.getTime() > now) await arm(s.id, s.execute_at);
  }
  void sweep().catch((err) => logger.error({ err }, "strike start-up run failed"));
  const interval = setInterval(() => void sweep().catch((err) => logger.error({ err }, "strike sweep failed")), options.sweepIntervalMs ?? STRIKE_SWEEP_INTERVAL_MS);
  interval.unref();
  logger.info({ driver: redis ? "bullmq" : "timer" }, "strike scheduler started");
  return scheduler;
}
