/**
 * Grants or revokes the administrator role: `npm run admin -- grant <email>` /
 * `npm run admin -- revoke <email>` (the only way besides ADMIN_EMAILS; no request can).
 * Uses DATABASE_URL, or the embedded database under DATA_DIR while the server is stopped.
 */
import { loadConfig } from "../config.js";
import { createLogger } from "../logger.js";
import { openDatabase } from "../db/pool.js";
import { runMigrations } from "../db/migrate.js";
import { setAdminByEmail } from "../db/admin.js";

export async function runAdminCommand(args: readonly string[]): Promise<{ code: number; message: string }> {
  const [command, email] = args;
  if ((command !== "grant" && command !== "revoke") || !email) return { code: 2, message: "usage: npm run admin -- grant|revoke <email>" };
  const config = loadConfig();
  const database = await openDatabase(config, createLogger("warn"));
  try {
    await runMigrations(database.pool);
    const found = await setAdminByEmail(database.pool, email, command === "grant");
    if (!found) return { code: 1, message: `no account with the email ${email}` };
    return { code: 0, message: command === "grant" ? `${email} is now an administrator` : `${email} is no longer an administrator` };
  } finally {
    await database.close();
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const { code, message } = await runAdminCommand(process.argv.slice(2));
  (code === 0 ? console.log : console.error)(message);
  process.exit(code);
}
