/**
 * Military and war: new-player protection on the country row, the military settings and
 * brigades of each country, battle reports with their seeds, war declarations, planned and
 * scheduled strikes, and units in rehabilitation. Forward-only: never edit once released.
 */
export const sql = /* sql */ `
-- New-player protection ends at this time (public: target lists show it). Rows inserted
-- without it are unprotected; registration sets it from NEW_PLAYER_PROTECTION_HOURS.
ALTER TABLE countries ADD COLUMN protected_until timestamptz NOT NULL DEFAULT now();
UPDATE countries SET protected_until = created_at + interval '72 hours';
-- Alliance support reads an alliance's members during an attack.
CREATE INDEX IF NOT EXISTS countries_alliance_members ON countries (alliance_id) WHERE alliance_id IS NOT NULL;

-- Deployment, defense allocation, alert level and GDI history. A country without a row has
-- the spec's defaults (40/30/20/10, 40/30/20/10, medium, never in the GDI).
CREATE TABLE military_settings (
  country_id          bigint PRIMARY KEY REFERENCES countries (id) ON DELETE CASCADE,
  deploy_garrison     smallint NOT NULL DEFAULT 40 CHECK (deploy_garrison BETWEEN 0 AND 100),
  deploy_patrol       smallint NOT NULL DEFAULT 30 CHECK (deploy_patrol BETWEEN 0 AND 100),
  deploy_reserve      smallint NOT NULL DEFAULT 20 CHECK (deploy_reserve BETWEEN 0 AND 100),
  deploy_expedition   smallint NOT NULL DEFAULT 10 CHECK (deploy_expedition BETWEEN 0 AND 100),
  def_garrison        smallint NOT NULL DEFAULT 40 CHECK (def_garrison BETWEEN 0 AND 100),
  def_perimeter       smallint NOT NULL DEFAULT 30 CHECK (def_perimeter BETWEEN 0 AND 100),
  def_air             smallint NOT NULL DEFAULT 20 CHECK (def_air BETWEEN 0 AND 100),
  def_counter_intel   smallint NOT NULL DEFAULT 10 CHECK (def_counter_intel BETWEEN 0 AND 100),
  alert_level         text NOT NULL DEFAULT 'medium' CHECK (alert_level IN ('low', 'medium', 'high', 'critical')),
  gdi_joined_at       timestamptz,
  gdi_left_at         timestamptz,
  updated_at          timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT military_settings_deploy_total CHECK (deploy_garrison + deploy_patrol + deploy_reserve + deploy_expedition <= 100),
  CONSTRAINT military_settings_defense_total CHECK (def_garrison + def_perimeter + def_air + def_counter_intel <= 100)
);

-- The five brigades. A missing slot is a fresh brigade (readiness 100). Readiness recovers
-- with time from readiness_at, so no tick writes these rows.
CREATE TABLE brigades (
  country_id      bigint NOT NULL REFERENCES countries (id) ON DELETE CASCADE,
  slot            smallint NOT NULL CHECK (slot BETWEEN 1 AND 5),
  readiness       smallint NOT NULL CHECK (readiness BETWEEN 0 AND 100),
  readiness_at    timestamptz NOT NULL,
  deployed_until  timestamptz,
  rehab_until     timestamptz,
  last_deployed   timestamptz,
  PRIMARY KEY (country_id, slot)
);

-- Battle reports, as both sides read them. The seed is the action's: replaying the battle
-- with it gives the same report. Names are kept as they were at the time.
CREATE TABLE battles (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  attacker_id     bigint NOT NULL REFERENCES countries (id) ON DELETE CASCADE,
  defender_id     bigint NOT NULL REFERENCES countries (id) ON DELETE CASCADE,
  attacker_name   text NOT NULL,
  defender_name   text NOT NULL,
  attack_type     text NOT NULL,
  outcome         text NOT NULL CHECK (outcome IN ('attacker_victory', 'defender_victory')),
  land_captured   integer NOT NULL DEFAULT 0 CHECK (land_captured >= 0),
  land_destroyed  integer NOT NULL DEFAULT 0 CHECK (land_destroyed >= 0),
  seed            bigint NOT NULL,
  strike_id       bigint,
  -- every other field of the report (forces, casualties, log...), as JSON
  report          jsonb NOT NULL,
  -- the attacker's economy during the attack's turns (net cash, food, oil, units), for audits
  economy         jsonb NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX battles_attacker ON battles (attacker_id, id DESC);
CREATE INDEX battles_defender ON battles (defender_id, id DESC);
-- the daily cap and diminishing returns read a defender's last 24 hours
CREATE INDEX battles_defender_time ON battles (defender_id, created_at);

-- War declarations. Active while ended_at is null; cooldown for 24 hours after.
CREATE TABLE war_declarations (
  id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  declarer_id           bigint NOT NULL REFERENCES countries (id) ON DELETE CASCADE,
  target_id             bigint NOT NULL REFERENCES countries (id) ON DELETE CASCADE,
  declared_at           timestamptz NOT NULL,
  -- the tick due at or before declared_at: turns are charged for ticks after it
  declared_tick         bigint NOT NULL,
  -- the last tick this war has been charged for (starts at declared_tick)
  charged_through_tick  bigint NOT NULL,
  total_cost            bigint NOT NULL DEFAULT 0 CHECK (total_cost >= 0),
  ended_at              timestamptz,
  end_reason            text CHECK (end_reason IN ('declared_peace', 'bankrupt'))
);
CREATE UNIQUE INDEX war_declarations_one_active ON war_declarations (declarer_id, target_id) WHERE ended_at IS NULL;
CREATE INDEX war_declarations_active ON war_declarations (declarer_id) WHERE ended_at IS NULL;
CREATE INDEX war_declarations_target ON war_declarations (target_id, declared_at DESC);

-- Planned strikes and scheduled attacks: run once by the job queue at execute_at.
CREATE TABLE strikes (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  attacker_id       bigint NOT NULL REFERENCES countries (id) ON DELETE CASCADE,
  target_id         bigint NOT NULL REFERENCES countries (id) ON DELETE CASCADE,
  kind              text NOT NULL CHECK (kind IN ('planned', 'scheduled')),
  attack_type       text NOT NULL,
  units             jsonb NOT NULL,
  alliance_support  boolean NOT NULL DEFAULT false,
  brigade_slot      smallint,
  execute_at        timestamptz NOT NULL,
  state             text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'executed', 'failed', 'cancelled')),
  battle_id         bigint REFERENCES battles (id) ON DELETE SET NULL,
  failure           text,
  created_at        timestamptz NOT NULL DEFAULT now(),
  finished_at       timestamptz
);
CREATE INDEX strikes_pending ON strikes (execute_at) WHERE state = 'pending';
CREATE INDEX strikes_attacker ON strikes (attacker_id, id DESC);

-- Units back from a planned strike: they defend but cannot attack until 'until'.
CREATE TABLE rehabilitation (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  country_id  bigint NOT NULL REFERENCES countries (id) ON DELETE CASCADE,
  troops      bigint NOT NULL DEFAULT 0 CHECK (troops >= 0),
  jets        bigint NOT NULL DEFAULT 0 CHECK (jets >= 0),
  tanks       bigint NOT NULL DEFAULT 0 CHECK (tanks >= 0),
  until       timestamptz NOT NULL,
  battle_id   bigint REFERENCES battles (id) ON DELETE SET NULL
);
CREATE INDEX rehabilitation_country ON rehabilitation (country_id, until);
`;
