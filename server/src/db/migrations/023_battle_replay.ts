/**
 * Battle replays (issue 30): what the rules were given for each battle (both sides as they
 * fought, the order), stored beside the seed, so the server can run the same pure rules again
 * and show the battle step by step. Null for battles fought before this migration: those
 * cannot be replayed. A news item about a battle names it (params.battleId), so the news
 * screen can open its replay. Forward-only: never edit once released.
 */
export const sql = /* sql */ `
ALTER TABLE battles ADD COLUMN replay_input jsonb;
ALTER TABLE news_items ADD COLUMN battle_id bigint GENERATED ALWAYS AS ((params->>'battleId')::bigint) STORED;
`;
