/**
 * A deleted account keeps the other side's history of wars and strikes too (issue 28, after
 * migration 022 did it for battles and spy records): a war declared on or by the deleted
 * country stays in the other side's list, and an attacker's strikes against it stay in its
 * strike list. The deleted country's id becomes NULL (a former country); the deletion writes
 * its name into the row first (declarer_former_name, target_former_name: NULL while the
 * country exists, whose live name is read then; countries are never renamed). Before, ON
 * DELETE CASCADE erased them. A war ended because its other side left the world says so
 * (end_reason 'country_deleted').
 * Forward-only: never edit once released.
 */
export const sql = /* sql */ `
ALTER TABLE war_declarations ADD COLUMN declarer_former_name text, ADD COLUMN target_former_name text;
ALTER TABLE war_declarations ALTER COLUMN declarer_id DROP NOT NULL, ALTER COLUMN target_id DROP NOT NULL;
ALTER TABLE war_declarations DROP CONSTRAINT war_declarations_declarer_id_fkey,
  ADD CONSTRAINT war_declarations_declarer_id_fkey FOREIGN KEY (declarer_id) REFERENCES countries (id) ON DELETE SET NULL;
ALTER TABLE war_declarations DROP CONSTRAINT war_declarations_target_id_fkey,
  ADD CONSTRAINT war_declarations_target_id_fkey FOREIGN KEY (target_id) REFERENCES countries (id) ON DELETE SET NULL;
ALTER TABLE war_declarations DROP CONSTRAINT war_declarations_end_reason_check,
  ADD CONSTRAINT war_declarations_end_reason_check CHECK (end_reason IN ('declared_peace', 'bankrupt', 'season_end', 'country_deleted'));

ALTER TABLE strikes ADD COLUMN target_former_name text;
ALTER TABLE strikes ALTER COLUMN target_id DROP NOT NULL;
ALTER TABLE strikes DROP CONSTRAINT strikes_target_id_fkey,
  ADD CONSTRAINT strikes_target_id_fkey FOREIGN KEY (target_id) REFERENCES countries (id) ON DELETE SET NULL;
`;
