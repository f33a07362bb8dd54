/**
 * The economy's tables. This migration holds the turn tick's bookkeeping; the economy
 * service's tables come in a later migration. Forward-only: never edit once released.
 */
export const sql = /* sql */ `
-- The game clock: when the turn tick first ran on this database. Tick n is due at
-- n * TURN_INTERVAL_MS milliseconds after the Unix epoch; ticks due before started_at never
-- happened, so a fresh database does not "catch up" the whole history of the epoch.
CREATE TABLE game_clock (
  id          smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
  started_at  timestamptz NOT NULL
);

-- One row per applied tick, written in the same transaction as the tick's effects. The
-- primary key makes the tick idempotent: a retried or duplicated job inserts nothing and so
-- changes nothing.
CREATE TABLE turn_ticks (
  tick_number        bigint PRIMARY KEY,
  -- n * interval_ms after the epoch: when the tick was due
  scheduled_at       timestamptz NOT NULL,
  -- TURN_INTERVAL_MS in force when it was applied (milliseconds)
  interval_ms        integer NOT NULL CHECK (interval_ms > 0),
  ticked_at          timestamptz NOT NULL DEFAULT now(),
  -- how many ticks were applied in the same transaction (catch-up after downtime)
  batch_ticks        integer NOT NULL DEFAULT 1 CHECK (batch_ticks >= 1),
  countries_updated  integer NOT NULL DEFAULT 0,
  duration_ms        integer NOT NULL DEFAULT 0
);
-- Catch-up reads the latest scheduled_at (tick numbers are not comparable across intervals).
CREATE INDEX turn_ticks_scheduled_at ON turn_ticks (scheduled_at DESC);
`;
