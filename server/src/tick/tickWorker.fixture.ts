/**
 * A tick worker in its own process, for the "worker killed mid-tick" test: it joins the
 * BullMQ schedule like a server would, and its first tick stops inside the transaction
 * (after the tick rows and the UPDATE, before COMMIT) and prints "inside <ticks>", so the
 * test can SIGKILL it there. Configured from the environment: DATABASE_URL, REDIS_URL,
 * TURN_INTERVAL_MS.
 */
import pg from "pg";
import { Redis } from "ioredis";
import { loadConfig } from "../config.js";
import { startBackgroundWork } from "./index.js";
import { tickContext } from "./testSupport.js";

const config = loadConfig({ tickEnabled: true, logLevel: "silent" });
if (!config.databaseUrl || !config.redisUrl) throw new Error("DATABASE_URL and REDIS_URL are required");
const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 2 });
const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: null });

await startBackgroundWork(tickContext(pool, config), redis, {
  // A short lock: once this process is dead, another worker's stalled check redelivers the job soon.
  worker: { lockDuration: 1_500, stalledInterval: 1_000 },
  hooks: {
    async beforeCommit(ticks) {
      process.stdout.write(`inside ${ticks.join(",")}\n`);
      await new Promise(() => undefined); // hold the transaction open until killed
    },
  },
});
process.stdout.write("ready\n");
