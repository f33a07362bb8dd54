/**
 * Research: a level for each of the six research categories the country did not store yet, so
 * all eleven categories of the spec (document 3, section 9) can be researched. The five
 * original levels (agricultural, business, military, industrial, spy) are in 001.
 * Forward-only: never edit once released.
 */
export const sql = /* sql */ `
ALTER TABLE countries
  ADD COLUMN medical_tech            integer NOT NULL DEFAULT 0 CHECK (medical_tech >= 0),
  ADD COLUMN residential_tech        integer NOT NULL DEFAULT 0 CHECK (residential_tech >= 0),
  ADD COLUMN warfare_tech            integer NOT NULL DEFAULT 0 CHECK (warfare_tech >= 0),
  ADD COLUMN military_strategy_tech  integer NOT NULL DEFAULT 0 CHECK (military_strategy_tech >= 0),
  ADD COLUMN weapons_tech            integer NOT NULL DEFAULT 0 CHECK (weapons_tech >= 0),
  ADD COLUMN sdi_tech                integer NOT NULL DEFAULT 0 CHECK (sdi_tech >= 0);
`;
