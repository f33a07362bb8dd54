/**
 * The real-time world: seasons, global chat, chat ignore lists, who is online, daily ranking
 * snapshots. Forward-only: never edit once released.
 */
export const sql = /* sql */ `
CREATE TABLE seasons (
  id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name       text NOT NULL,
  starts_at  timestamptz NOT NULL,
  ends_at    timestamptz NOT NULL,
  is_active  boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT seasons_ends_after_start CHECK (ends_at > starts_at)
);
-- At most one active season at a time.
CREATE UNIQUE INDEX seasons_one_active ON seasons (is_active) WHERE is_active;
-- A fresh world starts in its first season (90 days: docs/rules.md, "Seasons").
INSERT INTO seasons (name, starts_at, ends_at, is_active)
VALUES ('Season 1', now(), now() + interval '90 days', true);

-- Global chat. alliance_scope is the alliance id for the alliance and leadership channels
-- (their messages belong to one alliance) and 0 for the open channels, so one index pages
-- every channel newest first.
CREATE TABLE chat_messages (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  channel           text NOT NULL,
  alliance_scope    bigint NOT NULL DEFAULT 0,
  type              text NOT NULL DEFAULT 'message',
  sender_user_id    bigint REFERENCES users (id) ON DELETE SET NULL,
  sender_country_id bigint REFERENCES countries (id) ON DELETE SET NULL,
  sender_name       text NOT NULL,
  sender_role       text NOT NULL DEFAULT 'member',
  alliance_tag      text NOT NULL DEFAULT '',
  content           text NOT NULL CHECK (char_length(content) BETWEEN 1 AND 500),
  mentions          text[] NOT NULL DEFAULT '{}',
  is_edited         boolean NOT NULL DEFAULT false,
  created_at        timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chat_messages_page ON chat_messages (channel, alliance_scope, id DESC);

-- /ignore: whose messages a user does not want to see.
CREATE TABLE chat_ignores (
  user_id         bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  ignored_user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, ignored_user_id),
  CONSTRAINT chat_ignores_not_self CHECK (user_id <> ignored_user_id)
);

-- One row per client joined to a world room, in any process. Rooms refresh seen_at on a
-- heartbeat; rows not seen for a while (a crashed process) no longer count as online.
CREATE TABLE online_sessions (
  session_id   text PRIMARY KEY,
  user_id      bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  room_id      text NOT NULL,
  connected_at timestamptz NOT NULL DEFAULT now(),
  seen_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX online_sessions_user ON online_sessions (user_id);
CREATE INDEX online_sessions_room ON online_sessions (room_id);

-- Each country's rank at the first ranking of the UTC day: the base of change and trend.
CREATE TABLE ranking_snapshots (
  taken_on   date NOT NULL,
  country_id bigint NOT NULL REFERENCES countries (id) ON DELETE CASCADE,
  rank       integer NOT NULL,
  networth   bigint NOT NULL,
  PRIMARY KEY (taken_on, country_id)
);
`;
