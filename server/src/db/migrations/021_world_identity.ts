/**
 * The world's identity (issue 29): a random id made once, when the database is created, and
 * kept with it (a restored backup keeps it). Processes name their Redis pub/sub channels after
 * it, because Redis channels are one namespace per Redis server whatever the logical database:
 * two worlds sharing a Redis (two deployments, or test files on different database indexes)
 * heard each other's events, and a foreign chat line whose id matched a real one made the real
 * one look like a duplicate (the lost cross-process chat line of WorldCluster.test.ts).
 * Forward-only: never edit once released.
 */
export const sql = /* sql */ `
CREATE TABLE world_identity (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  created_at timestamptz NOT NULL DEFAULT now(),
  -- one row only
  single boolean NOT NULL DEFAULT true UNIQUE CHECK (single)
);
INSERT INTO world_identity DEFAULT VALUES;
`;
