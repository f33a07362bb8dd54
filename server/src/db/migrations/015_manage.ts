/**
 * Country management: the Manage view's per-country options (auto-build, notify) and the
 * auto-build phase's bookkeeping. Forward-only: never edit once released.
 */
export const sql = /* sql */ `
-- One row per country that saved its options; a country without a row has the defaults
-- (schema DEFAULT_COUNTRY_OPTIONS: automation off, attacks and alliance notices on, market off).
CREATE TABLE country_options (
  country_id      bigint PRIMARY KEY REFERENCES countries (id) ON DELETE CASCADE,
  auto_farms      boolean NOT NULL DEFAULT false,
  auto_research   boolean NOT NULL DEFAULT false,
  auto_military   boolean NOT NULL DEFAULT false,
  notify_attacks  boolean NOT NULL DEFAULT true,
  notify_alliance boolean NOT NULL DEFAULT true,
  notify_market   boolean NOT NULL DEFAULT false,
  -- the autoBuild tick phase: due_tick is the latest tick that owes this country a run,
  -- done_tick the latest one served (a tick served twice changes nothing)
  auto_due_tick   bigint NOT NULL DEFAULT 0,
  auto_done_tick  bigint NOT NULL DEFAULT 0,
  updated_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX country_options_auto_pending ON country_options (auto_done_tick)
  WHERE (auto_farms OR auto_research OR auto_military);
`;
