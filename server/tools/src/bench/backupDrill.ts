/**
 * The backup drill (issue 28), `npm run drill -- backup [--players N] [--rate R]`: a world on
 * Postgres under a steady load of explorations is backed up with `pg_dump`, restored with
 * `pg_restore` into a fresh database, and a server started on the copy must show the world as
 * it was at the moment of the backup: the audit totals and every country row equal.
 *
 * How the drill knows the moment: it opens a REPEATABLE READ transaction, exports its snapshot
 * (`pg_export_snapshot()`), reads the audit totals and every country in that transaction, and
 * runs pg_dump with `--snapshot=<that id>`, so the dump and the expected values are the same
 * snapshot by construction, while the load keeps committing explorations beside them (the
 * drill checks the live world moved on after the snapshot, so "equal" is not "nothing changed").
 */
import pg from "pg";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createTestDatabase } from "@game/server/test/harness";
import { freePort, spawnServer, waitUntilListening, type ChildServer } from "@game/server/test/childServer";
import { runMigrations } from "@game/server/db/migrate";
import { auditTotals, AUDITED, type AuditTotals } from "@game/server/db/audit";
import { backupPostgres, restorePostgres } from "@game/server/db/backup";
import { JWT_SECRET, Load, registerPlayers, request, sleep } from "./drillKit.js";

interface WorldAt {
  totals: AuditTotals;
  /** every country row, as JSON, by id */
  countries: Map<number, string>;
}

/** The world as `client` sees it (inside the caller's transaction, if it opened one). */
async function readWorld(client: pg.PoolClient): Promise<WorldAt> {
  const totals = await auditTotals(client);
  const { rows } = await client.query<{ id: number; row: string }>("SELECT id, to_jsonb(c)::text AS row FROM countries c ORDER BY id");
  return { totals, countries: new Map(rows.map((r) => [Number(r.id), r.row])) };
}

async function readWorldOf(databaseUrl: string): Promise<WorldAt> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const client = await pool.connect();
  try {
    await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
    return await readWorld(client);
  } finally {
    await client.query("COMMIT").catch(() => undefined);
    client.release();
    await pool.end();
  }
}

function totalsText(totals: AuditTotals): Record<string, string> {
  return Object.fromEntries(AUDITED.map((q) => [q, totals[q].toString()]));
}

export async function backupDrill(options: { players: number; rate: number; log?: (line: string) => void }): Promise<Record<string, unknown>> {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const source = await createTestDatabase();
  const target = await createTestDatabase();
  const dumpDir = fs.mkdtempSync(path.join(os.tmpdir(), "backup-drill-"));
  const file = path.join(dumpDir, "world.pgdump");
  const servers: ChildServer[] = [];
  const env = { JWT_SECRET, RATE_LIMIT_REGISTER_PER_HOUR: "0", ROOM_SESSIONS_PER_USER: "0", LOG_LEVEL: "info" };
  try {
    const pool = new pg.Pool({ connectionString: source.url, max: 1 });
    await runMigrations(pool);
    await pool.end();
    const port = await freePort();
    servers.push(spawnServer({ ...env, DATABASE_URL: source.url }, port));
    await waitUntilListening(servers[0]!);
    const players = await registerPlayers([servers[0]!.baseUrl], options.players);
    log(`backup drill: ${players.length} players, ${options.rate} explorations/s; backup after 3 s of load`);
    const load = new Load([servers[0]!.baseUrl], players, options.rate);
    load.start();
    await sleep(3_000);

    // The moment: one exported snapshot for the expected values and for pg_dump.
    const snapshotPool = new pg.Pool({ connectionString: source.url, max: 1 });
    const snapshotClient = await snapshotPool.connect();
    let expected: WorldAt;
    let dump;
    let momentAt: string;
    try {
      await snapshotClient.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
      const { rows } = await snapshotClient.query<{ snapshot: string; at: string }>("SELECT pg_export_snapshot() AS snapshot, clock_timestamp()::text AS at");
      momentAt = rows[0]!.at;
      expected = await readWorld(snapshotClient);
      const answeredBefore = load.answers.filter((a) => a.status === 200).length;
      dump = await backupPostgres({ databaseUrl: source.url, file, snapshot: rows[0]!.snapshot });
      const answeredDuring = load.answers.filter((a) => a.status === 200).length - answeredBefore;
      log(`pg_dump took ${Math.round(dump.ms)} ms (${dump.bytes} bytes); ${answeredDuring} explorations committed meanwhile`);
    } finally {
      await snapshotClient.query("COMMIT").catch(() => undefined);
      snapshotClient.release();
      await snapshotPool.end();
    }
    await sleep(1_000);
    await load.stop();
    const live = await readWorldOf(source.url);
    await servers[0]!.kill();
    servers.length = 0;

    // Restore into a fresh database and start a server on the copy.
    const restore = await restorePostgres({ databaseUrl: target.url, file });
    log(`pg_restore took ${Math.round(restore.ms)} ms`);
    const restoredPort = await freePort();
    servers.push(spawnServer({ ...env, DATABASE_URL: target.url }, restoredPort));
    await waitUntilListening(servers[0]!);
    const health = await request(`${servers[0]!.baseUrl}/api/health`, "GET", undefined);
    // Each player's own country as the restored server shows it to that player.
    let servedEqual = 0;
    for (const player of players) {
      const me = await request(`${servers[0]!.baseUrl}/api/countries/${player.countryId}`, "GET", undefined, player.token);
      const row = JSON.parse(expected.countries.get(player.countryId) ?? "{}");
      const shown = me.body?.data?.country ?? me.body?.data ?? me.body?.country ?? {};
      if (me.status === 200 && Number(shown.turns) === Number(row.turns) && Number(shown.land) === Number(row.land)) servedEqual += 1;
    }
    const restored = await readWorldOf(target.url);

    const differing: number[] = [];
    for (const [id, row] of expected.countries) if (restored.countries.get(id) !== row) differing.push(id);
    for (const id of restored.countries.keys()) if (!expected.countries.has(id)) differing.push(id);
    const liveMovedOn = AUDITED.some((q) => live.totals[q] !== expected.totals[q]);
    const checks = {
      "the restored server answers health 200": health.status === 200,
      "audit totals equal to the moment of the backup": JSON.stringify(totalsText(restored.totals)) === JSON.stringify(totalsText(expected.totals)),
      "every country equal to the moment of the backup": differing.length === 0 && restored.countries.size === expected.countries.size,
      "the restored server shows each player its country as at the backup": servedEqual === players.length,
      "the world moved on during and after the backup (the snapshot is a moment, not the end)": liveMovedOn,
    };
    return {
      drill: "backup",
      players: players.length,
      rate: options.rate,
      moment: momentAt,
      countries: expected.countries.size,
      dumpMs: Math.round(dump.ms),
      dumpBytes: dump.bytes,
      restoreMs: Math.round(restore.ms),
      explorationsAnswered200: load.answers.filter((a) => a.kind === "action" && a.status === 200).length,
      totalsAtBackup: totalsText(expected.totals),
      totalsLiveAfter: totalsText(live.totals),
      totalsRestored: totalsText(restored.totals),
      countriesDiffering: differing.length,
      checks,
      passed: Object.values(checks).every(Boolean),
    };
  } finally {
    await Promise.all(servers.map((s) => s.kill()));
    fs.rmSync(dumpDir, { recursive: true, force: true });
    await source.drop().catch(() => undefined);
    await target.drop().catch(() => undefined);
  }
}
