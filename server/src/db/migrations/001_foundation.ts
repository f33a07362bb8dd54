/** Accounts, countries, revoked tokens. Forward-only: never edit once released. */
export const sql = /* sql */ `
CREATE TABLE users (
  id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  email         text NOT NULL,
  username      text NOT NULL,
  password_hash text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_login    timestamptz
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));
CREATE UNIQUE INDEX users_username_key ON users (lower(username));

CREATE TABLE countries (
  id                               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id                          bigint UNIQUE REFERENCES users (id) ON DELETE CASCADE,
  name                             text NOT NULL,
  government_type                  text NOT NULL,
  has_used_free_government_change  boolean NOT NULL DEFAULT false,
  government_change_count          integer NOT NULL DEFAULT 0,
  cash                             bigint NOT NULL CHECK (cash >= 0),
  networth                         bigint NOT NULL DEFAULT 0,
  turns                            integer NOT NULL CHECK (turns >= 0),
  stored_turns                     integer NOT NULL DEFAULT 0 CHECK (stored_turns >= 0),
  land                             bigint NOT NULL CHECK (land >= 0),
  food                             bigint NOT NULL CHECK (food >= 0),
  oil                              bigint NOT NULL CHECK (oil >= 0),
  population                       bigint NOT NULL CHECK (population >= 0),
  troops                           bigint NOT NULL CHECK (troops >= 0),
  jets                             bigint NOT NULL CHECK (jets >= 0),
  turrets                          bigint NOT NULL CHECK (turrets >= 0),
  tanks                            bigint NOT NULL CHECK (tanks >= 0),
  spies                            bigint NOT NULL CHECK (spies >= 0),
  missiles                         bigint NOT NULL DEFAULT 0 CHECK (missiles >= 0),
  farms                            integer NOT NULL DEFAULT 0 CHECK (farms >= 0),
  residential_areas                integer NOT NULL DEFAULT 0 CHECK (residential_areas >= 0),
  industrial_complexes             integer NOT NULL DEFAULT 0 CHECK (industrial_complexes >= 0),
  research_labs                    integer NOT NULL DEFAULT 0 CHECK (research_labs >= 0),
  construction_sites               integer NOT NULL DEFAULT 0 CHECK (construction_sites >= 0),
  military_bases                   integer NOT NULL DEFAULT 0 CHECK (military_bases >= 0),
  oil_rigs                         integer NOT NULL DEFAULT 0 CHECK (oil_rigs >= 0),
  enterprise_zones                 integer NOT NULL DEFAULT 0 CHECK (enterprise_zones >= 0),
  agricultural_tech                integer NOT NULL DEFAULT 0 CHECK (agricultural_tech >= 0),
  business_tech                    integer NOT NULL DEFAULT 0 CHECK (business_tech >= 0),
  military_tech                    integer NOT NULL DEFAULT 0 CHECK (military_tech >= 0),
  industrial_tech                  integer NOT NULL DEFAULT 0 CHECK (industrial_tech >= 0),
  spy_tech                         integer NOT NULL DEFAULT 0 CHECK (spy_tech >= 0),
  research_points                  bigint NOT NULL DEFAULT 0 CHECK (research_points >= 0),
  alloc_troops                     smallint NOT NULL DEFAULT 25,
  alloc_jets                       smallint NOT NULL DEFAULT 25,
  alloc_turrets                    smallint NOT NULL DEFAULT 25,
  alloc_tanks                      smallint NOT NULL DEFAULT 25,
  victories                        integer NOT NULL DEFAULT 0,
  defeats                          integer NOT NULL DEFAULT 0,
  total_battles                    integer NOT NULL DEFAULT 0,
  total_land_captured              bigint NOT NULL DEFAULT 0,
  combat_efficiency                integer NOT NULL DEFAULT 100,
  war_expenses                     bigint NOT NULL DEFAULT 0,
  is_ai                            boolean NOT NULL DEFAULT false,
  is_eliminated                    boolean NOT NULL DEFAULT false,
  alliance_id                      bigint,
  gdi_protection                   boolean NOT NULL DEFAULT false,
  tutorial_completed               boolean NOT NULL DEFAULT false,
  created_at                       timestamptz NOT NULL DEFAULT now(),
  updated_at                       timestamptz NOT NULL DEFAULT now(),
  last_active                      timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT countries_alloc_total CHECK (alloc_troops + alloc_jets + alloc_turrets + alloc_tanks = 100)
);
CREATE UNIQUE INDEX countries_name_key ON countries (lower(name));
-- Rankings read the top N by networth; ties broken by id so pages are stable.
CREATE INDEX countries_networth_rank ON countries (networth DESC, id ASC);

CREATE TABLE revoked_tokens (
  jti        text PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
CREATE INDEX revoked_tokens_expiry ON revoked_tokens (expires_at);
`;
