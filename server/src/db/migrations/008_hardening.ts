/**
 * Uniqueness of names on their confusable-folded form (issue 15, finding 5): one key per user
 * name and per country name, `foldName()` of schema/src/rules/text.ts, computed by the server
 * (the fold lives in TypeScript, shared with the validators, so it is a column the
 * application fills rather than an expression index). "Land" and "Lаnd" (Cyrillic a) fold to
 * the same key, so the second registration violates the unique index and answers 409.
 *
 * Side tables rather than columns on users and countries: AI countries have no user, a rename
 * replaces one row, and the hot countries row stays as it is. Rows that existed before this
 * migration get their keys when the server starts (db/names.ts, backfillNameKeys).
 */
export const sql = /* sql */ `
CREATE TABLE username_keys (
  user_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  folded  text NOT NULL
);
CREATE UNIQUE INDEX username_keys_folded ON username_keys (folded);

CREATE TABLE country_name_keys (
  country_id bigint PRIMARY KEY REFERENCES countries (id) ON DELETE CASCADE,
  folded     text NOT NULL
);
CREATE UNIQUE INDEX country_name_keys_folded ON country_name_keys (folded);
`;
