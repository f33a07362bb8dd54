/**
 * AI countries: which countries a strategy plays, with its personality and seed. The country
 * itself is an ordinary row (countries.is_ai marks it for lists); its owner is a user nobody
 * can log in as. Forward-only: never edit once released.
 */
export const sql = /* sql */ `
CREATE TABLE ai_countries (
  country_id     bigint PRIMARY KEY REFERENCES countries (id) ON DELETE CASCADE,
  personality    text NOT NULL CHECK (personality IN ('farmer', 'trader', 'raider', 'turtle', 'researcher')),
  -- the strategy's dice: round r of this country draws from a generator seeded by (seed, r)
  seed           bigint NOT NULL,
  paused         boolean NOT NULL DEFAULT false,
  rounds         bigint NOT NULL DEFAULT 0,
  actions_total  bigint NOT NULL DEFAULT 0,
  refused_total  bigint NOT NULL DEFAULT 0,
  last_acted_at  timestamptz,
  created_at     timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ai_countries_due ON ai_countries (last_acted_at NULLS FIRST) WHERE NOT paused;
`;
