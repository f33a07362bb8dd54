import { Queue, Worker } from "bullmq";
import type { Redis } from "ioredis";
import type { ServiceContext } from "../services/context.js";

/**
 * AI rounds on their own schedule: with Redis a BullMQ job scheduler fires one round per
 * AI_INTERVAL_MS and any process's worker takes it, so rounds spread across processes; without
 * Redis an in-process timer. A round claims its AI countries with SKIP LOCKED (services/ai.ts),
 * so overlapping rounds never play one country twice; a lost round is simply the next one.
 * At start each process tops the AI population up to AI_COUNTRIES (idempotent: it counts the
 * ones that play).
 */

export const AI_QUEUE = "ai-rounds";
export const AI_SCHEDULER_ID = "ai-rounds";

export interface AiRounds {
  stop(): Promise<void>;
}

type PlayRound = (ctx: ServiceContext) => Promise<{ countries: number; actions: number; refused: number }>;
type Populate = (ctx: ServiceContext, target: number) => Promise<unknown>;

/** Starts AI rounds in this process (nothing when AI_COUNTRIES is 0). `play` and `populate` come from services/ai.ts. */
export async function startAiRounds(ctx: ServiceContext, redis: Redis | undefined, play: PlayRound, populate: Populate): Promise<AiRounds> {
  const logger = ctx.logger.child({ component: "ai" });
  if (ctx.config.aiCountries <= 0) return { stop: async () => undefined };
  await populate(ctx, ctx.config.aiCountries).catch((err) => logger.error({ err }, "AI countries could not be created; rounds play the ones there are"));
  const round = async () => {
    const result = await play(ctx);
    if (result.countries > 0) logger.debug(result, "AI round");
    return result;
  };
  if (redis) {
    const queue = new Queue(AI_QUEUE, { connection: redis });
    queue.on("error", (err) => ctx.redisOutage?.noteFailure(err, "AI queue") || logger.error({ err }, "AI queue error"));
    await queue.upsertJobScheduler(AI_SCHEDULER_ID, { every: ctx.config.aiIntervalMs }, { name: "round", data: {}, opts: { attempts: 1, removeOnComplete: { count: 50 }, removeOnFail: { count: 200 } } });
    const worker = new Worker(AI_QUEUE, round, { connection: redis, concurrency: 1 });
    worker.on("failed", (_job, err) => logger.error({ err }, "AI round failed; the next round plays on"));
    worker.on("error", (err) => ctx.redisOutage?.noteFailure(err, "AI worker") || logger.error({ err }, "AI worker error"));
    return {
      async stop() {
        await worker.close();
        await queue.close();
      },
    };
  }
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    if (stopped) return;
    running = running.then(round).catch((err) => logger.error({ err }, "AI round failed; the next round plays on"));
  }, ctx.config.aiIntervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
