import http from "node:http";
import express from "express";
import pg from "pg";

/**
 * The floor of the action path: `pgbench -N`'s own transaction (UPDATE an account, SELECT its
 * balance, INSERT a history row) behind one HTTP route of this stack (Node, Express 5, pg), with
 * nothing of the game around it: no authentication, no rules, no events, and the whole
 * transaction in one round trip (pgbench sends its five statements one by one). Whatever this
 * answers per second against `pgbench -N` in the same run bounds what any game action, which
 * does at least this much, can reach on the machine (`npm run bench:action`, the floor phases).
 *
 *   FLOOR_DATABASE_URL  a database initialised by `pgbench -i`
 *   FLOOR_PORT          the port to listen on
 *   FLOOR_HTTP          "express" (the game's HTTP layer) or "node" (node:http alone)
 *   FLOOR_CONNECTIONS   pool size (the bench's connections)
 */
const pool = new pg.Pool({ connectionString: process.env.FLOOR_DATABASE_URL, max: Number(process.env.FLOOR_CONNECTIONS ?? 16) });
const ACCOUNTS = 1_000_000; // pgbench -i -s 10: 100,000 accounts per scale unit

async function transfer(aid: number): Promise<number> {
  const account = (Math.abs(Math.trunc(aid)) % ACCOUNTS) + 1;
  const branch = Math.floor((account - 1) / 100_000) + 1;
  const teller = Math.floor((account - 1) / 10_000) + 1;
  const results = (await pool.query(
    `BEGIN;
     UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = ${account};
     SELECT abalance FROM pgbench_accounts WHERE aid = ${account};
     INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES (${teller}, ${branch}, ${account}, 1, CURRENT_TIMESTAMP);
     COMMIT;`,
  )) as unknown as pg.QueryResult<{ abalance: number }>[];
  return results[2]!.rows[0]!.abalance;
}

function expressServer(): http.Server {
  const app = express();
  app.use(express.json());
  app.post("/api/floor/:aid", async (req, res) => {
    try {
      res.json({ success: true, data: { balance: await transfer(Number(req.params.aid)) } });
    } catch (error) {
      res.status(500).json({ success: false, error: String(error) });
    }
  });
  app.get("/api/health", (_req, res) => res.json({ success: true }));
  return http.createServer(app);
}

/** A JSON answer with its Content-Length, as Express sends it (writeHead alone would go chunked). */
function sendJson(res: http.ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
}

function nodeServer(): http.Server {
  return http.createServer((req, res) => {
    const match = /^\/api\/floor\/(\d+)$/.exec(req.url ?? "");
    req.resume();
    req.on("end", () => {
      if (!match) {
        sendJson(res, req.url === "/api/health" ? 200 : 404, '{"success":true}');
        return;
      }
      transfer(Number(match[1])).then(
        (balance) => sendJson(res, 200, JSON.stringify({ success: true, data: { balance } })),
        (error: unknown) => sendJson(res, 500, JSON.stringify({ success: false, error: String(error) })),
      );
    });
  });
}

const server = process.env.FLOOR_HTTP === "node" ? nodeServer() : expressServer();
server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.FLOOR_PORT), "127.0.0.1");
process.on("SIGTERM", () => {
  server.close();
  void pool.end().then(() => process.exit(0));
});
