/**
 * A deleted account keeps the other side's history (issue 28): battle reports stay for the
 * side that remains, and a spy's missions and reports stay when their target is deleted. The
 * deleted country's id becomes NULL (a former country); its name stays in the row's name
 * snapshot (attacker_name, defender_name, target_name). Before, ON DELETE CASCADE erased them:
 * the attacker's report answered 404 after the defender deleted its account.
 * Forward-only: never edit once released.
 */
export const sql = /* sql */ `
ALTER TABLE battles ALTER COLUMN attacker_id DROP NOT NULL, ALTER COLUMN defender_id DROP NOT NULL;
ALTER TABLE battles DROP CONSTRAINT battles_attacker_id_fkey,
  ADD CONSTRAINT battles_attacker_id_fkey FOREIGN KEY (attacker_id) REFERENCES countries (id) ON DELETE SET NULL;
ALTER TABLE battles DROP CONSTRAINT battles_defender_id_fkey,
  ADD CONSTRAINT battles_defender_id_fkey FOREIGN KEY (defender_id) REFERENCES countries (id) ON DELETE SET NULL;

ALTER TABLE spy_missions ALTER COLUMN target_id DROP NOT NULL;
ALTER TABLE spy_missions DROP CONSTRAINT spy_missions_target_id_fkey,
  ADD CONSTRAINT spy_missions_target_id_fkey FOREIGN KEY (target_id) REFERENCES countries (id) ON DELETE SET NULL;

ALTER TABLE spy_reports ALTER COLUMN target_id DROP NOT NULL;
ALTER TABLE spy_reports DROP CONSTRAINT spy_reports_target_id_fkey,
  ADD CONSTRAINT spy_reports_target_id_fkey FOREIGN KEY (target_id) REFERENCES countries (id) ON DELETE SET NULL;
`;
