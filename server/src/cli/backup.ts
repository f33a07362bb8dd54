/**
 * Backs up or restores the configured store (docs/reliability.md, "Backups"):
 *
 *   npm run backup [-- --out FILE]     DATABASE_URL: pg_dump of that database (while it runs);
 *                                      no DATABASE_URL: PGlite's dump of DATA_DIR's world (server stopped)
 *   npm run restore -- --from FILE     into the empty database at DATABASE_URL (pg_restore),
 *                                      or the empty DATA_DIR (PGlite's loadDataDir)
 *
 * Without --out the file goes to BACKUP_DIR (default DATA_DIR/backups) named after the time.
 * Relative paths are taken from where the command was typed (npm runs it in server/).
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { loadConfig } from "../config.js";
import { backupEmbeddedDataDir, backupFileName, backupPostgres, EMBEDDED_BACKUP_EXTENSION, POSTGRES_BACKUP_EXTENSION, restoreEmbedded, restorePostgres, type BackupResult, type RestoredSecret } from "../db/backup.js";

/** The folder the command was typed in (npm's INIT_CWD), not server/ where npm runs the script. */
const fromTypedFolder = (file: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), file);

/** What the restore says about the JWT secret the embedded backup carried. */
const SECRET_OUTCOMES: Record<RestoredSecret, string> = {
  restored: "the world's JWT secret restored to DATA_DIR/jwt-secret: signed-in players stay signed in",
  same: "DATA_DIR/jwt-secret already held the world's JWT secret",
  replaced: "DATA_DIR/jwt-secret replaced by the world's JWT secret (the one it held is in jwt-secret.before-restore)",
  none: "the backup carried no JWT secret: players sign in again unless DATA_DIR/jwt-secret or JWT_SECRET is the one the world had",
};

const USAGE = "usage: npm run backup [-- --out FILE]  |  npm run restore -- --from FILE";

export async function runBackupCommand(args: readonly string[]): Promise<{ code: number; message: string }> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], allowPositionals: true, options: { out: { type: "string" }, from: { type: "string" }, jobs: { type: "string" } } });
  } catch (err) {
    return { code: 2, message: `${(err as Error).message}\n${USAGE}` };
  }
  const [command] = parsed.positionals;
  const config = loadConfig();
  const store = config.databaseUrl ? "Postgres" : `the embedded world in ${config.dataDir}`;
  let result: BackupResult;
  if (command === "backup") {
    const file = parsed.values.out ? fromTypedFolder(parsed.values.out) : path.join(config.backupDir, backupFileName(new Date(), !config.databaseUrl));
    result = config.databaseUrl ? await backupPostgres({ databaseUrl: config.databaseUrl, file }) : await backupEmbeddedDataDir(config.dataDir, file);
    return { code: 0, message: `backed up ${store} to ${result.file} (${result.bytes} bytes, ${(result.ms / 1000).toFixed(1)} s)` };
  }
  if (command === "restore") {
    const from = parsed.values.from;
    if (!from) return { code: 2, message: `--from FILE is required\n${USAGE}` };
    const file = fromTypedFolder(from);
    const expected = config.databaseUrl ? POSTGRES_BACKUP_EXTENSION : EMBEDDED_BACKUP_EXTENSION;
    if (!file.endsWith(expected))
      return { code: 2, message: `${file} is not a backup of ${store} (its name ends with ${expected}); set DATABASE_URL for a ${POSTGRES_BACKUP_EXTENSION} file, unset it for a ${EMBEDDED_BACKUP_EXTENSION} one` };
    const jobs = parsed.values.jobs === undefined ? undefined : Number(parsed.values.jobs);
    if (jobs !== undefined && !(Number.isInteger(jobs) && jobs > 0)) return { code: 2, message: "--jobs must be a positive whole number" };
    if (config.databaseUrl) {
      result = await restorePostgres({ databaseUrl: config.databaseUrl, file, jobs });
      return { code: 0, message: `restored ${result.file} into ${store} (${(result.ms / 1000).toFixed(1)} s)` };
    }
    const restored = await restoreEmbedded({ dataDir: config.dataDir, file });
    return {
      code: 0,
      message: `restored ${restored.file} into ${store} (${(restored.ms / 1000).toFixed(1)} s); ${SECRET_OUTCOMES[restored.secret]}${config.jwtSecret ? " (JWT_SECRET is set: the server signs with it, not with DATA_DIR/jwt-secret)" : ""}`,
    };
  }
  return { code: 2, message: USAGE };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const outcome = await runBackupCommand(process.argv.slice(2)).catch((err: Error) => ({ code: 1, message: err.message }));
  (outcome.code === 0 ? console.log : console.error)(outcome.message);
  process.exit(outcome.code);
}
