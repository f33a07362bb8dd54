/**
 * Battle replays (issue 30): what the rules were given for each battle (both sides as they
 * fought, the order), stored beside the seed, so the server can run the same pure rules again
 * and show the battle step by step. Null for battles fought before this migration: those
 * cannot be replayed. Forward-only: never edit once released.
 */
export const sql = /* sql */ `
ALTER TABLE battles ADD COLUMN replay_input jsonb;
`;
