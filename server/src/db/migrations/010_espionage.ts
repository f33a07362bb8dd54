/**
 * Espionage: every operation a country runs (both centres), the report it produced, the daily
 * counters (one row per country, for its current UTC day; the `spy_daily_reset` phase zeroes
 * them at midnight) and each country's privacy choice (allowSpyOperations).
 * Cooldowns are read from the missions themselves (the latest of a type).
 * Forward-only: never edit once released.
 */
export const sql = /* sql */ `
CREATE TABLE spy_missions (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  country_id       bigint NOT NULL REFERENCES countries (id) ON DELETE CASCADE,
  target_id        bigint NOT NULL REFERENCES countries (id) ON DELETE CASCADE,
  target_name      text NOT NULL,
  -- 'spy_center' (POST /spy/execute) or 'intelligence_center' (POST /intelligence/missions)
  centre           text NOT NULL CHECK (centre IN ('spy_center', 'intelligence_center')),
  -- a Spy Center operation id or an Intelligence Center type id
  operation_type   text NOT NULL,
  spies_used       integer NOT NULL CHECK (spies_used > 0),
  -- 0..1 as drawn against
  success_chance   double precision NOT NULL,
  success          boolean NOT NULL,
  detected         boolean NOT NULL,
  spies_lost       integer NOT NULL CHECK (spies_lost >= 0),
  turns_spent      integer NOT NULL CHECK (turns_spent >= 0),
  -- sabotage: what it destroyed
  buildings_destroyed integer NOT NULL DEFAULT 0,
  oil_destroyed    bigint NOT NULL DEFAULT 0,
  seed             bigint NOT NULL,
  started_at       timestamptz NOT NULL,
  completed_at     timestamptz NOT NULL
);
CREATE INDEX spy_missions_country ON spy_missions (country_id, started_at DESC);
CREATE INDEX spy_missions_type ON spy_missions (country_id, operation_type, started_at DESC);
CREATE INDEX spy_missions_target ON spy_missions (target_id, operation_type, started_at DESC) WHERE success;

CREATE TABLE spy_reports (
  id                 bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  mission_id         bigint NOT NULL UNIQUE REFERENCES spy_missions (id) ON DELETE CASCADE,
  owner_id           bigint NOT NULL REFERENCES countries (id) ON DELETE CASCADE,
  target_id          bigint NOT NULL REFERENCES countries (id) ON DELETE CASCADE,
  target_name        text NOT NULL,
  target_government  text NOT NULL,
  operation_type     text NOT NULL,
  intel_type         text NOT NULL CHECK (intel_type IN ('general', 'alliance', 'market', 'military')),
  success            boolean NOT NULL,
  spies_used         integer NOT NULL,
  spies_lost         integer NOT NULL,
  detected           boolean NOT NULL,
  confidence         text CHECK (confidence IN ('verified', 'high', 'medium', 'low')),
  confidence_rank    smallint NOT NULL DEFAULT 0,
  -- the payload (NULL for a failed operation)
  intelligence       jsonb,
  tags               text[] NOT NULL DEFAULT '{}',
  seed               bigint NOT NULL,
  created_at         timestamptz NOT NULL,
  expires_at         timestamptz NOT NULL,
  -- shared with this alliance by its owner ("Share Intelligence")
  -- (no foreign key: migration 012 creates alliances after this one runs)
  shared_alliance_id bigint,
  shared_at          timestamptz
);
CREATE INDEX spy_reports_owner ON spy_reports (owner_id, created_at DESC);
-- the freshest report of an observer on a target (military preview, target analysis)
CREATE INDEX spy_reports_known ON spy_reports (owner_id, target_id, intel_type, created_at DESC) WHERE success;
CREATE INDEX spy_reports_shared ON spy_reports (shared_alliance_id, created_at DESC) WHERE shared_alliance_id IS NOT NULL;

CREATE TABLE spy_daily_counters (
  country_id  bigint PRIMARY KEY REFERENCES countries (id) ON DELETE CASCADE,
  -- the UTC day (days since the epoch) the counts belong to
  day         integer NOT NULL,
  used        integer NOT NULL DEFAULT 0 CHECK (used >= 0),
  -- per kind: {"military": 2, "sabotage": 1}
  by_kind     jsonb NOT NULL DEFAULT '{}'
);

CREATE TABLE espionage_settings (
  country_id            bigint PRIMARY KEY REFERENCES countries (id) ON DELETE CASCADE,
  allow_spy_operations  boolean NOT NULL DEFAULT true,
  updated_at            timestamptz NOT NULL DEFAULT now()
);
`;
