/**
 * How long (s) a process's heartbeat key outlives its last beat (rooms/sessions.ts): the seats of
 * a process whose key is gone stop counting. Also the Retry-After of the matchmaker's 429 at the
 * room-session cap (http/matchmaking.ts), so it lives beside both entry points, not in either.
 */
export const ROOM_PROCESS_HEARTBEAT_TTL_S = 10;
