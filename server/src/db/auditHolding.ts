/**
 * Something that holds audited quantities outside the countries' rows: a market listing's
 * escrowed goods, an alliance treasury. `sql` answers one row with a column per quantity it
 * holds (numeric or bigint sums; missing columns count 0). A domain that escrows adds its
 * holding to AUDIT_HOLDINGS (audit.ts) in the same change that creates the table. A file of
 * its own, so a domain that declares a holding does not import the audit that reads it.
 */
export interface AuditHolding {
  name: string;
  sql: string;
}
