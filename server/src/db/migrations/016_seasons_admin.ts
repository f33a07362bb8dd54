/**
 * Settings, seasons, administration, rankings and achievements (issue 13, part B).
 * Forward-only: never edit once released.
 */
export const sql = /* sql */ `
-- Each user's settings (schema/src/api/settings.ts): the whole document, validated on write.
CREATE TABLE user_settings (
  user_id    bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  settings   jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Administration: the role is granted by the CLI (npm run admin) or ADMIN_EMAILS, never by a request.
ALTER TABLE users
  ADD COLUMN is_admin     boolean NOT NULL DEFAULT false,
  ADD COLUMN suspended_at timestamptz;

-- Every administrator action, in order.
CREATE TABLE admin_log (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  admin_user_id  bigint REFERENCES users (id) ON DELETE SET NULL,
  action         text NOT NULL,
  target_user_id bigint REFERENCES users (id) ON DELETE SET NULL,
  details        jsonb NOT NULL DEFAULT '{}',
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX admin_log_recent ON admin_log (id DESC);

-- A season's final scores, archived when it ends (one row per ranked country).
CREATE TABLE season_scores (
  season_id     bigint NOT NULL REFERENCES seasons (id) ON DELETE CASCADE,
  rank          integer NOT NULL,
  country_id    bigint REFERENCES countries (id) ON DELETE SET NULL,
  country_name  text NOT NULL,
  player_name   text NOT NULL DEFAULT '',
  alliance_tag  text NOT NULL DEFAULT '',
  networth      bigint NOT NULL,
  land          bigint NOT NULL,
  victories     integer NOT NULL DEFAULT 0,
  PRIMARY KEY (season_id, rank)
);
ALTER TABLE seasons ADD COLUMN ended_at timestamptz;

-- Each country's public-ranking metrics at the first tick of a UTC day: the base of the
-- daily / weekly / monthly change of GET /rankings/{metric}.
CREATE TABLE country_snapshots (
  taken_on   date NOT NULL,
  country_id bigint NOT NULL REFERENCES countries (id) ON DELETE CASCADE,
  networth   bigint NOT NULL,
  land       bigint NOT NULL,
  military   bigint NOT NULL,
  population bigint NOT NULL,
  wars_won   integer NOT NULL,
  PRIMARY KEY (taken_on, country_id)
);
-- a country's earliest snapshot within a period (the rankings' base), one probe per row
CREATE INDEX country_snapshots_country ON country_snapshots (country_id, taken_on);

-- Achievements (schema/src/rules/achievements.ts), once per country and season.
CREATE TABLE achievements (
  country_id     bigint NOT NULL REFERENCES countries (id) ON DELETE CASCADE,
  season_id      bigint NOT NULL,
  achievement_id text NOT NULL,
  awarded_at     timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (country_id, season_id, achievement_id)
);
CREATE INDEX achievements_recent ON achievements (awarded_at DESC);

-- A season's end ends every war that is still running (docs/rules.md, "Seasons").
ALTER TABLE war_declarations DROP CONSTRAINT IF EXISTS war_declarations_end_reason_check;
ALTER TABLE war_declarations ADD CONSTRAINT war_declarations_end_reason_check CHECK (end_reason IN ('declared_peace', 'bankrupt', 'season_end'));
`;
