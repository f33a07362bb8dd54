/**
 * Alliances and diplomacy: alliances and their members' roles, invitations, applications,
 * bonus points (a ledger) and purchased bonuses, warfare operations with participants, defense
 * requests with responses, diplomatic proposals and relations, daily alliance rank snapshots.
 *
 * Membership itself stays in countries.alliance_id (the one truth other domains read);
 * alliance_members holds what membership carries (role, joined_at, contributions) for the
 * country while countries.alliance_id names the same alliance. Both are written in one
 * transaction. Forward-only: never edit once released.
 */
export const sql = /* sql */ `
CREATE TABLE alliances (
  id                  bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name                text NOT NULL,
  -- foldName(name) (schema/src/rules/text.ts): "Iron Pact" and "Irоn Pact" (Cyrillic o) are one name
  name_key            text NOT NULL,
  tag                 text NOT NULL,
  description         text NOT NULL DEFAULT '',
  flag_background     text NOT NULL,
  flag_symbol         text NOT NULL,
  flag_symbol_color   text NOT NULL,
  -- spendable bonus points, and every point ever earned (rankings, history)
  bonus_points        bigint NOT NULL DEFAULT 0 CHECK (bonus_points >= 0),
  points_earned       bigint NOT NULL DEFAULT 0 CHECK (points_earned >= 0),
  -- what applicants are asked for (meetRequirements)
  min_networth        bigint NOT NULL DEFAULT 0 CHECK (min_networth >= 0),
  min_land            bigint NOT NULL DEFAULT 0 CHECK (min_land >= 0),
  accept_applications boolean NOT NULL DEFAULT true,
  founded_by          bigint REFERENCES countries (id) ON DELETE SET NULL,
  created_at          timestamptz NOT NULL DEFAULT now(),
  -- set when the last member leaves; the row stays for history, name and tag become free
  disbanded_at        timestamptz
);
CREATE UNIQUE INDEX alliances_name_key ON alliances (name_key) WHERE disbanded_at IS NULL;
CREATE UNIQUE INDEX alliances_tag_key ON alliances (upper(tag)) WHERE disbanded_at IS NULL;

CREATE INDEX countries_alliance ON countries (alliance_id) WHERE alliance_id IS NOT NULL;

CREATE TABLE alliance_members (
  country_id         bigint PRIMARY KEY REFERENCES countries (id) ON DELETE CASCADE,
  alliance_id        bigint NOT NULL REFERENCES alliances (id),
  role               text NOT NULL CHECK (role IN ('owner', 'manager', 'member')),
  joined_at          timestamptz NOT NULL DEFAULT now(),
  -- contributions: bonus points earned for the alliance, units committed to operations and
  -- defence, dollars of trade with other members
  points_contributed bigint NOT NULL DEFAULT 0,
  military_support   bigint NOT NULL DEFAULT 0,
  resources_shared   bigint NOT NULL DEFAULT 0,
  -- technology levels already credited as research milestones (one per research category)
  research_credited  integer[] NOT NULL DEFAULT '{}'
);
CREATE INDEX alliance_members_alliance ON alliance_members (alliance_id, role);
-- One owner per alliance, whatever races.
CREATE UNIQUE INDEX alliance_members_one_owner ON alliance_members (alliance_id) WHERE role = 'owner';

CREATE TABLE alliance_invitations (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  alliance_id       bigint NOT NULL REFERENCES alliances (id),
  target_country_id bigint NOT NULL REFERENCES countries (id) ON DELETE CASCADE,
  invited_by        bigint REFERENCES countries (id) ON DELETE SET NULL,
  invited_by_name   text NOT NULL,
  message           text NOT NULL DEFAULT '' CHECK (char_length(message) <= 200),
  status            text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'declined', 'cancelled', 'expired')),
  sent_at           timestamptz NOT NULL DEFAULT now(),
  expires_at        timestamptz NOT NULL,
  answered_at       timestamptz
);
CREATE UNIQUE INDEX alliance_invitations_one_pending ON alliance_invitations (alliance_id, target_country_id) WHERE status = 'pending';
CREATE INDEX alliance_invitations_target ON alliance_invitations (target_country_id) WHERE status = 'pending';
CREATE INDEX alliance_invitations_expiry ON alliance_invitations (expires_at) WHERE status = 'pending';

CREATE TABLE alliance_applications (
  id                   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  alliance_id          bigint NOT NULL REFERENCES alliances (id),
  applicant_country_id bigint NOT NULL REFERENCES countries (id) ON DELETE CASCADE,
  message              text NOT NULL DEFAULT '' CHECK (char_length(message) <= 200),
  status               text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'rejected', 'withdrawn', 'expired')),
  applied_at           timestamptz NOT NULL DEFAULT now(),
  expires_at           timestamptz NOT NULL,
  answered_at          timestamptz,
  answered_by          bigint REFERENCES countries (id) ON DELETE SET NULL
);
CREATE UNIQUE INDEX alliance_applications_one_pending ON alliance_applications (alliance_id, applicant_country_id) WHERE status = 'pending';
CREATE INDEX alliance_applications_applicant ON alliance_applications (applicant_country_id) WHERE status = 'pending';
CREATE INDEX alliance_applications_expiry ON alliance_applications (expires_at) WHERE status = 'pending';

-- Every point earned, once: (alliance, source, ref) is unique, so crediting the same activity
-- twice (a retried tick, a replayed event) adds nothing.
CREATE TABLE alliance_point_ledger (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  alliance_id bigint NOT NULL REFERENCES alliances (id),
  country_id  bigint REFERENCES countries (id) ON DELETE SET NULL,
  source      text NOT NULL,
  ref         text NOT NULL,
  points      integer NOT NULL CHECK (points > 0),
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (alliance_id, source, ref)
);

CREATE TABLE alliance_bonus_purchases (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  alliance_id       bigint NOT NULL REFERENCES alliances (id),
  bonus_id          text NOT NULL,
  level             integer NOT NULL CHECK (level >= 1),
  cost              integer NOT NULL CHECK (cost >= 0),
  purchased_at      timestamptz NOT NULL DEFAULT now(),
  -- null for permanent bonuses
  expires_at        timestamptz,
  purchased_by      bigint REFERENCES countries (id) ON DELETE SET NULL,
  purchased_by_name text NOT NULL,
  -- a temporary bonus's end was announced to the alliance (by the tick, once)
  end_announced     boolean NOT NULL DEFAULT false
);
CREATE INDEX alliance_bonus_ending ON alliance_bonus_purchases (expires_at) WHERE expires_at IS NOT NULL AND NOT end_announced;
-- A permanent level is bought once.
CREATE UNIQUE INDEX alliance_bonus_permanent_level ON alliance_bonus_purchases (alliance_id, bonus_id, level) WHERE expires_at IS NULL;
CREATE INDEX alliance_bonus_by_alliance ON alliance_bonus_purchases (alliance_id, bonus_id, purchased_at DESC);

CREATE TABLE alliance_operations (
  id                      bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  alliance_id             bigint NOT NULL REFERENCES alliances (id),
  name                    text NOT NULL,
  description             text NOT NULL DEFAULT '',
  operation_type          text NOT NULL CHECK (operation_type IN ('coordinated_attack', 'defensive_support', 'reconnaissance', 'blockade')),
  target_country_id       bigint REFERENCES countries (id) ON DELETE SET NULL,
  target_name             text NOT NULL,
  target_alliance_name    text NOT NULL DEFAULT '',
  initiator_id            bigint REFERENCES countries (id) ON DELETE SET NULL,
  initiator_name          text NOT NULL,
  status                  text NOT NULL DEFAULT 'planning' CHECK (status IN ('planning', 'active', 'completed', 'cancelled')),
  scheduled_for           timestamptz NOT NULL,
  min_participants        integer NOT NULL CHECK (min_participants >= 1),
  max_participants        integer NOT NULL CHECK (max_participants >= min_participants),
  min_total_force         bigint NOT NULL CHECK (min_total_force >= 0),
  reward_bonus_points     integer NOT NULL DEFAULT 0,
  reward_military_support bigint NOT NULL DEFAULT 0,
  reward_experience       integer NOT NULL DEFAULT 0,
  created_at              timestamptz NOT NULL DEFAULT now(),
  closed_at               timestamptz,
  -- what the launch did (attacks and their reports), for the War History
  outcome                 jsonb,
  seed                    bigint
);
CREATE INDEX alliance_operations_by_alliance ON alliance_operations (alliance_id, id DESC);
CREATE INDEX alliance_operations_open ON alliance_operations (scheduled_for) WHERE status IN ('planning', 'active');

CREATE TABLE alliance_operation_participants (
  operation_id bigint NOT NULL REFERENCES alliance_operations (id) ON DELETE CASCADE,
  country_id   bigint NOT NULL REFERENCES countries (id) ON DELETE CASCADE,
  country_name text NOT NULL,
  role         text NOT NULL,
  status       text NOT NULL DEFAULT 'invited' CHECK (status IN ('invited', 'confirmed', 'declined')),
  joined_at    timestamptz,
  troops       bigint NOT NULL DEFAULT 0 CHECK (troops >= 0),
  jets         bigint NOT NULL DEFAULT 0 CHECK (jets >= 0),
  tanks        bigint NOT NULL DEFAULT 0 CHECK (tanks >= 0),
  turrets      bigint NOT NULL DEFAULT 0 CHECK (turrets >= 0),
  is_commander boolean NOT NULL DEFAULT false,
  PRIMARY KEY (operation_id, country_id)
);

CREATE TABLE alliance_defense_requests (
  id                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  alliance_id       bigint NOT NULL REFERENCES alliances (id),
  requester_id      bigint NOT NULL REFERENCES countries (id) ON DELETE CASCADE,
  requester_name    text NOT NULL,
  attacker_id       bigint REFERENCES countries (id) ON DELETE SET NULL,
  attacker_name     text NOT NULL DEFAULT '',
  attack_type       text NOT NULL DEFAULT '',
  urgency           text NOT NULL CHECK (urgency IN ('critical', 'high', 'medium', 'low')),
  need_military     boolean NOT NULL DEFAULT false,
  need_intelligence boolean NOT NULL DEFAULT false,
  need_resources    boolean NOT NULL DEFAULT false,
  message           text NOT NULL DEFAULT '',
  requested_at      timestamptz NOT NULL DEFAULT now(),
  expires_at        timestamptz NOT NULL,
  -- the battle that raised it (automatic requests): one request per battle
  battle_ref        text UNIQUE
);
CREATE INDEX alliance_defense_by_alliance ON alliance_defense_requests (alliance_id, expires_at DESC);
CREATE INDEX alliance_defense_by_requester ON alliance_defense_requests (requester_id, expires_at DESC);

CREATE TABLE alliance_defense_responses (
  request_id            bigint NOT NULL REFERENCES alliance_defense_requests (id) ON DELETE CASCADE,
  responder_id          bigint NOT NULL REFERENCES countries (id) ON DELETE CASCADE,
  responder_name        text NOT NULL,
  response_type         text NOT NULL CHECK (response_type IN ('military_support', 'intelligence', 'declined')),
  response_at           timestamptz NOT NULL DEFAULT now(),
  troops                bigint NOT NULL DEFAULT 0 CHECK (troops >= 0),
  jets                  bigint NOT NULL DEFAULT 0 CHECK (jets >= 0),
  tanks                 bigint NOT NULL DEFAULT 0 CHECK (tanks >= 0),
  -- military support defends the requester until then
  commitment_expires_at timestamptz,
  -- intelligence: the shared report, when there is one
  report_id             bigint,
  PRIMARY KEY (request_id, responder_id)
);
CREATE INDEX alliance_defense_commitments ON alliance_defense_responses (commitment_expires_at) WHERE response_type = 'military_support';

CREATE TABLE alliance_rank_snapshots (
  day         date NOT NULL,
  alliance_id bigint NOT NULL REFERENCES alliances (id),
  rank        integer NOT NULL,
  PRIMARY KEY (day, alliance_id)
);

CREATE TABLE diplomatic_proposals (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  from_country_id bigint NOT NULL REFERENCES countries (id) ON DELETE CASCADE,
  to_country_id   bigint NOT NULL REFERENCES countries (id) ON DELETE CASCADE,
  relation_type   text NOT NULL CHECK (relation_type IN ('defensive', 'offensive', 'intelligence', 'research', 'trade')),
  message         text NOT NULL DEFAULT '' CHECK (char_length(message) <= 200),
  status          text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'rejected', 'cancelled', 'expired')),
  proposed_at     timestamptz NOT NULL DEFAULT now(),
  expires_at      timestamptz NOT NULL,
  answered_at     timestamptz,
  CONSTRAINT diplomatic_proposals_not_self CHECK (from_country_id <> to_country_id)
);
CREATE UNIQUE INDEX diplomatic_proposals_one_pending ON diplomatic_proposals (from_country_id, to_country_id, relation_type) WHERE status = 'pending';
CREATE INDEX diplomatic_proposals_to ON diplomatic_proposals (to_country_id) WHERE status = 'pending';
CREATE INDEX diplomatic_proposals_expiry ON diplomatic_proposals (expires_at) WHERE status = 'pending';

CREATE TABLE diplomatic_relations (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  relation_type    text NOT NULL CHECK (relation_type IN ('defensive', 'offensive', 'intelligence', 'research', 'trade')),
  -- the proposer (for a one-sided agreement, its only holder and payer)
  from_country_id  bigint NOT NULL REFERENCES countries (id) ON DELETE CASCADE,
  to_country_id    bigint NOT NULL REFERENCES countries (id) ON DELETE CASCADE,
  proposal_id      bigint REFERENCES diplomatic_proposals (id),
  established_at   timestamptz NOT NULL DEFAULT now(),
  can_cancel_after timestamptz NOT NULL,
  daily_cost       integer NOT NULL CHECK (daily_cost >= 0),
  -- dollars paid so far, by every payer together
  total_paid       bigint NOT NULL DEFAULT 0,
  status           text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'cancelled', 'expired')),
  ended_at         timestamptz,
  ended_by         bigint REFERENCES countries (id) ON DELETE SET NULL,
  last_activity    timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT diplomatic_relations_not_self CHECK (from_country_id <> to_country_id)
);
-- One active relation of a type per pair, whichever side proposed it.
CREATE UNIQUE INDEX diplomatic_relations_one_active ON diplomatic_relations
  (LEAST(from_country_id, to_country_id), GREATEST(from_country_id, to_country_id), relation_type) WHERE status = 'active';
CREATE INDEX diplomatic_relations_from ON diplomatic_relations (from_country_id) WHERE status = 'active';
CREATE INDEX diplomatic_relations_to ON diplomatic_relations (to_country_id) WHERE status = 'active';
`;
