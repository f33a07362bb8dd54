/** Turn history: the last results of each country's turn-spending actions. */
export const sql = /* sql */ `
CREATE TABLE turn_results (
  id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  country_id  bigint NOT NULL REFERENCES countries (id) ON DELETE CASCADE,
  action_type text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  result      jsonb NOT NULL
);
CREATE INDEX turn_results_by_country ON turn_results (country_id, id DESC);
`;
