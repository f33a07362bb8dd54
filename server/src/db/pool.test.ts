import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { playEveryKindOfRequest } from "../test/everyKindOfRequest.js";
import { startTestServer, type TestServer } from "../test/harness.js";
import { eventually } from "../test/worldClients.js";

/**
 * Issue 25, on Postgres: a connection the server loses (an administrator's
 * pg_terminate_backend, a server-side restart or failover) is replaced by a new backend, a new
 * session where nothing is prepared yet; nothing the server tracked per connection must assume
 * otherwise. Every request below meets a pool whose every backend was terminated first.
 */
describe("Postgres backends terminated between requests", () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ newPlayerProtectionHours: 0 });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("answers every kind of request, each on a new backend", async () => {
    const pool = t.server.database.pool;
    const admin = new (await import("pg")).default.Client({ connectionString: t.databaseUrl });
    await admin.connect();
    try {
      let terminated = 0;
      await playEveryKindOfRequest(t.baseUrl, async () => {
        // Terminate until the pool holds nothing: work an earlier request left running (its
        // events, the news it writes) may take a connection after a round of terminations.
        await eventually(
          async () => {
            const { rows } = await admin.query<{ count: number }>("SELECT count(*)::int AS count FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()) AS killed");
            terminated += rows[0]!.count;
            await new Promise((resolve) => setTimeout(resolve, 50));
            return pool.totalCount === 0;
          },
          "the pool's terminated connections dropped",
          5_000,
        );
      });
      expect(terminated).toBeGreaterThanOrEqual(9);
    } finally {
      await admin.end();
    }
  });
});
