/**
 * The Government Store's demand (issue 27, sixth stop): how much of each item the store still
 * buys from a country, kept like its stock (market_store_stock) as one instant per item, when
 * the demand is whole again; no row: whole. Selling moves it later, the rules
 * (computeStoreDemand) refill it linearly over a day. Written only under the country's row lock,
 * in the sale's own transaction.
 * Forward-only: never edit once released.
 */
export const sql = /* sql */ `
CREATE TABLE market_store_demand (
  country_id  bigint NOT NULL REFERENCES countries (id) ON DELETE CASCADE,
  item_type   text NOT NULL,
  full_at     timestamptz NOT NULL,
  PRIMARY KEY (country_id, item_type)
);
`;
