/**
 * The action path (issue 16): a country's economy bonus inputs as one function, so a game action
 * reads them with its row lock, and an optimistic write checks them, on a plan PL/pgSQL keeps
 * per connection instead of parsing and planning the query in every statement (as an inline
 * subquery it halved the statement's throughput under pgbench). Everything the bonuses depend
 * on, as JSON text in a fixed order: the alliance's bonus purchases and the relations the
 * country holds, times in epoch milliseconds (services/allianceEffects.ts reads it).
 *
 * Also: migrations 009 and 012 both created the same partial index on countries (alliance_id);
 * every write of a country that is not HOT (a networth change moves it in the ranking index)
 * evaluated both. One is enough.
 * Forward-only: never edit once released.
 */
export const sql = /* sql */ `
CREATE FUNCTION economy_bonus_inputs(country bigint) RETURNS text LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
    SELECT coalesce(json_agg(json_build_array(b.bonus_id, b.level, floor(extract(epoch FROM b.purchased_at) * 1000)::bigint,
                                              floor(extract(epoch FROM b.expires_at) * 1000)::bigint, b.relation_type)
                             ORDER BY b.bonus_id, b.purchased_at, b.relation_type)::text, '[]')
      FROM (SELECT p.bonus_id, p.level, p.purchased_at, p.expires_at, NULL::text AS relation_type
              FROM countries c JOIN alliance_bonus_purchases p ON p.alliance_id = c.alliance_id
             WHERE c.id = country
            UNION ALL
            SELECT NULL, NULL, NULL, NULL, r.relation_type
              FROM diplomatic_relations r
             WHERE r.status = 'active' AND (r.from_country_id = country OR (r.to_country_id = country AND r.relation_type <> 'trade'))) b);
END
$$;

DROP INDEX IF EXISTS countries_alliance_members;
`;
