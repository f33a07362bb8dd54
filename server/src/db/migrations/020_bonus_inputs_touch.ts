/**
 * A country's bonus inputs move its row (issue 16, the action path). economy_bonus_inputs
 * (018) reads the country's alliance bonus purchases and its active diplomatic relations; an
 * optimistic action (services/actions.ts) used to guard its write by calling it again and
 * comparing, which was about a fifth of Postgres's work on the write. Instead, whatever
 * changes those inputs now touches the rows of the countries they apply to (a no-op UPDATE:
 * a new row version, so a new xmin), and the write's version guard covers the bonuses too.
 * touch_countries locks the rows in ascending id order, the order every action locks in.
 * Forward-only: never edit once released.
 */
export const sql = /* sql */ `
CREATE FUNCTION touch_countries(ids bigint[]) RETURNS void LANGUAGE sql AS $$
  UPDATE countries SET alliance_id = alliance_id
   WHERE id IN (SELECT id FROM countries WHERE id = ANY (ids) ORDER BY id FOR UPDATE);
$$;

CREATE FUNCTION touch_alliance_members_of_purchase() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  alliances bigint[] := ARRAY[]::bigint[];
BEGIN
  IF TG_OP <> 'INSERT' THEN alliances := alliances || OLD.alliance_id; END IF;
  IF TG_OP <> 'DELETE' THEN alliances := alliances || NEW.alliance_id; END IF;
  PERFORM touch_countries(ARRAY(SELECT id FROM countries WHERE alliance_id = ANY (alliances)));
  RETURN NULL;
END
$$;

CREATE FUNCTION touch_parties_of_relation() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  parties bigint[] := ARRAY[]::bigint[];
BEGIN
  IF TG_OP <> 'INSERT' THEN parties := parties || OLD.from_country_id || OLD.to_country_id; END IF;
  IF TG_OP <> 'DELETE' THEN parties := parties || NEW.from_country_id || NEW.to_country_id; END IF;
  PERFORM touch_countries(parties);
  RETURN NULL;
END
$$;

CREATE TRIGGER alliance_bonus_purchases_touch AFTER INSERT OR DELETE OR UPDATE OF alliance_id, bonus_id, level, purchased_at, expires_at
  ON alliance_bonus_purchases FOR EACH ROW EXECUTE FUNCTION touch_alliance_members_of_purchase();
CREATE TRIGGER diplomatic_relations_touch AFTER INSERT OR DELETE OR UPDATE OF relation_type, from_country_id, to_country_id, status
  ON diplomatic_relations FOR EACH ROW EXECUTE FUNCTION touch_parties_of_relation();
`;
