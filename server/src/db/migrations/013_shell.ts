/**
 * The rest of the shell: news with per-user read state. Forward-only: never edit once
 * released (while the shell branch is unmerged this file grows).
 */
export const sql = /* sql */ `
-- News items, written by the domain's transaction through services/news.ts recordNews.
-- The audience: everybody (global), one alliance's members (alliance_id) or one country's
-- player (country_id). dedupe_key makes an item that many processes could produce (a season
-- end, a daily rank change) exist once.
CREATE TABLE news_items (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind         text NOT NULL,
  type         text NOT NULL,
  category     text NOT NULL CHECK (category IN ('global', 'alliance', 'personal')),
  priority     text NOT NULL CHECK (priority IN ('critical', 'high', 'medium', 'low')),
  impact       text NOT NULL CHECK (impact IN ('historic', 'major', 'moderate', 'minor')),
  title        text NOT NULL,
  description  text NOT NULL,
  content      text NOT NULL,
  participants jsonb NOT NULL DEFAULT '[]',
  tags         text[] NOT NULL DEFAULT '{}',
  location     text NOT NULL DEFAULT '',
  -- the catalogue parameters it was composed from (server only: intelligence briefs read them)
  params       jsonb NOT NULL DEFAULT '{}',
  alliance_id  bigint,
  country_id   bigint REFERENCES countries (id) ON DELETE CASCADE,
  dedupe_key   text,
  created_at   timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT news_items_personal_audience CHECK ((category = 'personal') = (country_id IS NOT NULL)),
  CONSTRAINT news_items_alliance_audience CHECK ((category = 'alliance') = (alliance_id IS NOT NULL))
);
CREATE UNIQUE INDEX news_items_dedupe ON news_items (dedupe_key) WHERE dedupe_key IS NOT NULL;
CREATE INDEX news_items_global ON news_items (id DESC) WHERE category = 'global';
CREATE INDEX news_items_alliance ON news_items (alliance_id, id DESC) WHERE category = 'alliance';
CREATE INDEX news_items_personal ON news_items (country_id, id DESC) WHERE category = 'personal';
CREATE INDEX news_items_created ON news_items (created_at);

-- Items a user marked read one by one.
CREATE TABLE news_reads (
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  news_id bigint NOT NULL REFERENCES news_items (id) ON DELETE CASCADE,
  read_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, news_id)
);
-- 'Mark All Read': every item with an id up to read_up_to counts as read.
CREATE TABLE news_read_marks (
  user_id    bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  read_up_to bigint NOT NULL
);
`;
