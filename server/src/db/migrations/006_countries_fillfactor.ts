/**
 * Leave 30 % of each countries page free so the tick's UPDATE of turns and stored_turns can
 * write the new row version on the same page (a HOT update: no index entries written).
 * Measured with `npm run bench` (docs/performance.md): roughly halves the tick over 100,000
 * countries. Applies to pages written from now on; existing pages fill in as rows change.
 */
export const sql = /* sql */ `
ALTER TABLE countries SET (fillfactor = 70);
`;
