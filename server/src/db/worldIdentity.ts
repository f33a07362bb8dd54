import type { Db } from "./pool.js";

/** The world's id (migration 021): what this world's pub/sub channels are named after. */
export async function readWorldId(db: Db): Promise<string> {
  const { rows } = await db.query<{ id: string }>("SELECT id FROM world_identity");
  if (!rows[0]) throw new Error("world_identity has no row: migration 021 did not run");
  return rows[0].id;
}
