/**
 * Where a server's time goes while a load runs, sampled from outside (issue 29): what the
 * database's backends wait on, row locks waited for, and the machine's CPU by process group.
 *
 *   npx tsx server/tools/src/bench/waitSampler.ts --postgres URL --database NAME
 *       [--seconds 45] [--interval 100] [--pids 1234,5678] [--cluster 15/main] [--metrics http://127.0.0.1:4600]
 *
 * Every --interval ms it reads pg_stat_activity for the backends of --database (state and
 * wait event of each; a backend "active" with no wait event is running on a CPU) and
 * pg_locks (locks not granted, by lock type). At the end it prints, as JSON:
 * - `backends`: the mean number of backends by what they were doing (active on CPU, waiting
 *   on Lock:transactionid / Lock:tuple / IO:WALSync / LWLock:... , idle in transaction with
 *   the server holding the transaction open, idle in the pool);
 * - `lockWaitsMean`: the mean count of ungranted locks;
 * - `cpu`: the share of the machine's cores used over the run (from /proc/stat: user+system,
 *   100 = one core), and for each --pids process (the server, the load tester) its own;
 *   Postgres's CPU is summed from /proc over the processes of --cluster (its cluster_name in
 *   their titles) and the backends of --database.
 * With --metrics (a server's origin, METRICS_PUBLIC), also the server's pool each interval:
 * connections held and requests waiting for one (`pool`: mean and max), and `perCall`: between
 * the first and the last reading, per game action committed and per REST request answered, the
 * pool check-outs, the milliseconds connections were held (db_pool_held_seconds_total), the
 * server's CPU milliseconds, and the database's transactions (pg_stat_database). These are
 * ratios, comparable between runs on a machine whatever its load.
 * Sampling costs one query per interval on a connection of its own (not counted).
 */
import fs from "node:fs";
import pg from "pg";

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]!.replace(/^--/, ""), process.argv[i + 1] ?? "");
const URL = args.get("postgres") ?? process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const DATABASE = args.get("database");
const SECONDS = Number(args.get("seconds") ?? 45);
const INTERVAL_MS = Number(args.get("interval") ?? 100);
const PIDS = (args.get("pids") ?? "").split(",").filter(Boolean).map(Number);
const CLUSTER = args.get("cluster") ?? "15/main";
const METRICS = args.get("metrics");
const TICK_HZ = 100;

function cpuTicksOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

/**
 * CPU ticks of the Postgres processes of the sampled cluster, by pid (backends come and go
 * during a run): those whose title names --cluster (Debian's cluster_name, "15/main") or the
 * database; another cluster on the machine (other sessions' tests) is left out.
 */
function postgresTicks(): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = fs.readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (title.startsWith(`postgres: ${CLUSTER}:`) || title.startsWith(`postgres: postgres ${DATABASE} `)) ticks.set(Number(entry), cpuTicksOf(Number(entry)));
    } catch {
      // gone
    }
  }
  return ticks;
}

/** Ticks used between two readings by the processes alive at the second (a backend that exited in between is not counted). */
function postgresDelta(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ticks] of after) total += ticks - (before.get(pid) ?? 0);
  return total;
}

function machineTicks(): { busy: number; total: number } {
  const line = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]!.split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = line;
  return { busy: user + nice + system + irq + softirq + steal, total: user + nice + system + idle + iowait + irq + softirq + steal };
}

/** The server's counters that perCall divides, summed over their labels. */
async function counters(): Promise<Record<string, number> | undefined> {
  if (!METRICS) return undefined;
  const text = await (await fetch(`${METRICS}/metrics`)).text();
  const sum = (name: string) => {
    let total = 0;
    for (const m of text.matchAll(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)`, "gm"))) total += Number(m[1]);
    return total;
  };
  return {
    actions: sum("game_actions_total"),
    requests: sum("http_requests_total"),
    checkouts: sum("db_pool_checkouts_total"),
    heldSeconds: sum("db_pool_held_seconds_total"),
    cpuSeconds: sum("process_cpu_seconds_total"),
  };
}

async function transactions(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ n: string }>("SELECT (xact_commit + xact_rollback)::text AS n FROM pg_stat_database WHERE datname = $1", [DATABASE]);
  return Number(rows[0]?.n ?? NaN);
}

async function main(): Promise<void> {
  const client = new pg.Client({ connectionString: URL });
  await client.connect();
  const countersBefore = await counters();
  const transactionsBefore = await transactions(client);
  const counts = new Map<string, number>();
  const lockTypes = new Map<string, number>();
  const queries = new Map<string, number>();
  let samples = 0;
  let lockWaits = 0;
  const pool = { samples: 0, connections: 0, waiting: 0, waitingMax: 0, waitingSamples: 0 };
  const startWall = performance.now();
  const startMachine = machineTicks();
  const startPg = postgresTicks();
  const startPids = PIDS.map(cpuTicksOf);
  const deadline = Date.now() + SECONDS * 1000;
  while (Date.now() < deadline) {
    const t0 = performance.now();
    const { rows } = await client.query<{ state: string | null; wt: string | null; we: string | null; q: string; n: number }>(
      `SELECT state, wait_event_type AS wt, wait_event AS we, left(regexp_replace(query, '\\s+', ' ', 'g'), 70) AS q, count(*)::int AS n
        FROM pg_stat_activity
        WHERE datname = $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend' GROUP BY 1, 2, 3, 4`,
      [DATABASE],
    );
    const locks = await client.query<{ locktype: string; n: number }>(
      `SELECT l.locktype, count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE NOT l.granted AND a.datname = $1 GROUP BY 1`,
      [DATABASE],
    );
    samples += 1;
    for (const r of rows) {
      const what = r.state === "active" ? (r.wt ? `active ${r.wt}:${r.we}` : "active on CPU") : `${r.state}${r.wt && r.wt !== "Client" ? ` ${r.wt}:${r.we}` : ""}`;
      counts.set(what, (counts.get(what) ?? 0) + r.n);
      // what the backends that wait (not idle in the pool) were running
      if (r.state !== "idle" && (r.state !== "active" || r.wt)) queries.set(`${what} | ${r.q}`, (queries.get(`${what} | ${r.q}`) ?? 0) + r.n);
    }
    for (const l of locks.rows) {
      lockWaits += l.n;
      lockTypes.set(l.locktype, (lockTypes.get(l.locktype) ?? 0) + l.n);
    }
    // every fifth interval: a scrape costs the server a few ms
    if (METRICS && samples % 5 === 0) {
      try {
        const text = await (await fetch(`${METRICS}/metrics`)).text();
        const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)`, "m").exec(text)?.[1] ?? NaN);
        const waiting = gauge("db_pool_waiting_requests");
        pool.samples += 1;
        pool.connections += gauge("db_pool_connections");
        pool.waiting += waiting;
        pool.waitingMax = Math.max(pool.waitingMax, waiting);
        if (waiting > 0) pool.waitingSamples += 1;
      } catch {
        // the server is busy or gone: this interval has no pool reading
      }
    }
    const spent = performance.now() - t0;
    await new Promise((r) => setTimeout(r, Math.max(0, INTERVAL_MS - spent)));
  }
  const countersAfter = await counters();
  // less the sampler's own: two statements a sample and the first count
  const transactionsDone = (await transactions(client)) - transactionsBefore - 2 * samples - 1;
  const wallS = (performance.now() - startWall) / 1000;
  const per = (total: number, calls: number, scale = 1) => (calls > 0 ? Math.round((total / calls) * scale * 1000) / 1000 : null);
  const perCall =
    countersBefore && countersAfter
      ? (() => {
          const d = Object.fromEntries(Object.keys(countersAfter).map((k) => [k, countersAfter[k]! - countersBefore[k]!]));
          return {
            actions: d.actions,
            requests: d.requests,
            perAction: { checkouts: per(d.checkouts!, d.actions!), heldMs: per(d.heldSeconds!, d.actions!, 1000), serverCpuMs: per(d.cpuSeconds!, d.actions!, 1000), transactions: per(transactionsDone, d.actions!) },
            perRequest: { checkouts: per(d.checkouts!, d.requests!), heldMs: per(d.heldSeconds!, d.requests!, 1000), serverCpuMs: per(d.cpuSeconds!, d.requests!, 1000), transactions: per(transactionsDone, d.requests!) },
            heldMsPerCheckout: per(d.heldSeconds!, d.checkouts!, 1000),
          };
        })()
      : undefined;
  const endMachine = machineTicks();
  const pct = (ticks: number) => Math.round((ticks / TICK_HZ / wallS) * 1000) / 10;
  const backends = Object.fromEntries([...counts].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, Math.round((v / samples) * 100) / 100]));
  const result = {
    database: DATABASE,
    seconds: Math.round(wallS),
    samples,
    backends,
    waitingQueries: Object.fromEntries(
      [...queries]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 15)
        .map(([k, v]) => [k, Math.round((v / samples) * 100) / 100]),
    ),
    pool: METRICS
      ? {
          samples: pool.samples,
          connectionsMean: Math.round((pool.connections / pool.samples) * 100) / 100,
          waitingMean: Math.round((pool.waiting / pool.samples) * 100) / 100,
          waitingMax: pool.waitingMax,
          samplesWithWaiters: pool.waitingSamples,
        }
      : undefined,
    perCall,
    lockWaitsMean: Math.round((lockWaits / samples) * 100) / 100,
    lockWaitsByType: Object.fromEntries([...lockTypes].map(([k, v]) => [k, Math.round((v / samples) * 100) / 100])),
    cpu: {
      machineBusyPercentOfAllCores: Math.round(((endMachine.busy - startMachine.busy) / (endMachine.total - startMachine.total)) * 1000) / 10,
      postgres: pct(postgresDelta(startPg, postgresTicks())),
      ...Object.fromEntries(PIDS.map((pid, i) => [String(pid), pct(cpuTicksOf(pid) - startPids[i]!)])),
    },
    loadavg: fs.readFileSync("/proc/loadavg", "utf8").trim(),
  };
  console.log(JSON.stringify(result, null, 2));
  await client.end();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
