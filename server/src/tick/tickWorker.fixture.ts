/**
 * A tick worker in its own process, for the "worker killed mid-tick" test: it joins the
 * BullMQ schedule like a server would, and its first tick stops inside the transaction
 * (after the tick rows and the UPDATE, before COMMIT) and prints "inside <ticks>", so the
 * test can SIGKILL it there. Configured from the environment: DATABASE_URL, REDIS_URL,
 * TURN_INTERVAL_MS, and TICK_KILL_POINT for the tick drill (server/tools/src/bench/drills.ts):
 * "inside" (the default, as above), "after" (after COMMIT, before the job is acknowledged:
 * prints "after <ticks>" and hangs), "random" (no stop: the drill kills it at a random moment).
 */
import pg from "pg";
import { Redis } from "ioredis";
import { loadConfig } from "../config.js";
import { startBackgroundWork } from "./index.js";
import { tickContext } from "./testSupport.js";

const killPoint = process.env.TICK_KILL_POINT ?? "inside";
const config = loadConfig({ tickEnabled: true, logLevel: "silent" });
if (!config.databaseUrl || !config.redisUrl) throw new Error("DATABASE_URL and REDIS_URL are required");
const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 2 });
const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: null });

await startBackgroundWork(tickContext(pool, config), redis, {
  // A short lock: once this process is dead, another worker's stalled check redelivers the job soon.
  worker: { lockDuration: 1_500, stalledInterval: 1_000 },
  hooks: {
    async beforeCommit(ticks) {
      if (killPoint !== "inside") return;
      process.stdout.write(`inside ${ticks.join(",")}\n`);
      await new Promise(() => undefined); // hold the transaction open until killed
    },
    async afterCommit(result) {
      if (killPoint !== "after" || result.applied.length === 0) return;
      process.stdout.write(`after ${result.applied.join(",")}\n`);
      await new Promise(() => undefined); // committed, never acknowledged: killed here
    },
  },
});
process.stdout.write("ready\n");
