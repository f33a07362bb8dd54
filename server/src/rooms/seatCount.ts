import type { Presence } from "@colyseus/core";
import type { Redis } from "ioredis";

/**
 * The per-user count of room sessions (RoomSessions.reserve): takes a seat in a user's hash
 * unless the user already holds `cap` seats that still count. A seat counts while it was seen
 * within `staleMs` and its owning process's heartbeat key lives. A seat's field is its session
 * key, its value `<owner process key>:<seen at, epoch ms>` (a bare time, written before owners
 * were kept, has no owner).
 */
export interface SeatCount {
  /** True when the seat was taken; false at the cap (nothing written). */
  take(request: SeatRequest): Promise<boolean>;
  /**
   * Writes each seat's value and renews the lifetime of every hash they are in: the hosting
   * process's periodic refresh of the seats it holds (RoomSessions), so they keep counting.
   */
  refresh(seats: readonly SeatWrite[], ttlS: number): Promise<void>;
}

/** A seat as a refresh writes it. */
export interface SeatWrite {
  hash: string;
  field: string;
  value: string;
}

/**
 * Commands per Redis pipeline in a refresh. A process holding 10,000 seats sent 20,000
 * commands one after another every refresh, each its own socket write (about 10% of an idle
 * server's CPU at 10,000 clients, docs/performance.md "Stop 35"); a pipeline of a few hundred
 * is one write and one burst of replies, small enough not to hold the event loop.
 */
export const REFRESH_BATCH = 500;

export interface SeatRequest {
  /** the user's seat hash */
  hash: string;
  /** the new seat's field (its session key) */
  field: string;
  /** the process taking the seat: its seats always count */
  owner: string;
  now: number;
  cap: number;
  staleMs: number;
  /** the hash's time to live, refreshed at every seat taken (s) */
  ttlS: number;
  /** a process's heartbeat key is this prefix and its key */
  heartbeatPrefix: string;
}

/**
 * One Redis round trip, atomic: the count, the dead seats' removal and the new seat run in one
 * script, so two processes taking a user's last seat at once cannot both get it (nor, as with
 * the former HSET, EXPIRE, HGETALL and EXISTS sent one after the other, both see the other's
 * seat and both refuse). The heartbeat keys it reads are not in KEYS: it runs on one Redis
 * (not a cluster), as the rest of the presence does.
 */
const TAKE_SEAT_LUA = `
local hash, field, owner = KEYS[1], ARGV[1], ARGV[2]
local now, cap, staleMs, ttlS, prefix = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[7]
local seats = redis.call('HGETALL', hash)
local alive = { [owner] = true }
local held = 0
for i = 1, #seats, 2 do
  local value = seats[i + 1]
  local at = string.find(value, ':[^:]*$')
  local seatOwner, seenAt = '', tonumber(value)
  if at then seatOwner, seenAt = string.sub(value, 1, at - 1), tonumber(string.sub(value, at + 1)) end
  if seatOwner ~= '' and alive[seatOwner] == nil then alive[seatOwner] = redis.call('EXISTS', prefix .. seatOwner) == 1 end
  if seenAt == nil or now - seenAt > staleMs or (seatOwner ~= '' and not alive[seatOwner]) then
    redis.call('HDEL', hash, seats[i])
  else
    held = held + 1
  end
end
if held >= cap then return 0 end
redis.call('HSET', hash, field, owner .. ':' .. ARGV[3])
redis.call('EXPIRE', hash, ttlS)
return 1
`;

interface SeatCommands {
  takeRoomSeat(hash: string, field: string, owner: string, now: number, cap: number, staleMs: number, ttlS: number, heartbeatPrefix: string): Promise<number>;
}

/** The seat count on Redis: one script call (ioredis defineCommand: EVALSHA, EVAL on a miss). */
export class RedisSeatCount implements SeatCount {
  private readonly redis: Redis & SeatCommands;

  constructor(redis: Redis) {
    if (!("takeRoomSeat" in redis)) redis.defineCommand("takeRoomSeat", { numberOfKeys: 1, lua: TAKE_SEAT_LUA });
    this.redis = redis as Redis & SeatCommands;
  }

  async take(r: SeatRequest): Promise<boolean> {
    return (await this.redis.takeRoomSeat(r.hash, r.field, r.owner, r.now, r.cap, r.staleMs, r.ttlS, r.heartbeatPrefix)) === 1;
  }

  /** HSETs, then EXPIREs, as pipelines of REFRESH_BATCH commands; the first failed command fails the refresh. */
  async refresh(seats: readonly SeatWrite[], ttlS: number): Promise<void> {
    const hashes = [...new Set(seats.map((seat) => seat.hash))];
    for (let i = 0; i < seats.length; i += REFRESH_BATCH) {
      const pipeline = this.redis.pipeline();
      for (const seat of seats.slice(i, i + REFRESH_BATCH)) pipeline.hset(seat.hash, seat.field, seat.value);
      throwFirstError(await pipeline.exec());
    }
    for (let i = 0; i < hashes.length; i += REFRESH_BATCH) {
      const pipeline = this.redis.pipeline();
      for (const hash of hashes.slice(i, i + REFRESH_BATCH)) pipeline.expire(hash, ttlS);
      throwFirstError(await pipeline.exec());
    }
  }
}

function throwFirstError(results: Array<[Error | null, unknown]> | null): void {
  const failed = results?.find(([err]) => err !== null);
  if (failed) throw failed[0];
}

/**
 * The seat count on a presence without scripts (LocalPresence: one process, no Redis). The same
 * steps as the script, through the presence's calls; takes run one after another in this
 * process, which is every process there is, so the count is as atomic as the script's.
 */
export class PresenceSeatCount implements SeatCount {
  private last: Promise<unknown> = Promise.resolve();

  constructor(private readonly presence: Presence) {}

  take(r: SeatRequest): Promise<boolean> {
    const next = this.last.then(() => this.takeNow(r));
    this.last = next.catch(() => undefined);
    return next;
  }

  async refresh(seats: readonly SeatWrite[], ttlS: number): Promise<void> {
    for (const seat of seats) await this.presence.hset(seat.hash, seat.field, seat.value);
    for (const hash of new Set(seats.map((seat) => seat.hash))) await this.presence.expire(hash, ttlS);
  }

  private async takeNow(r: SeatRequest): Promise<boolean> {
    const seats = Object.entries((await this.presence.hgetall(r.hash)) ?? {});
    const alive = new Map<string, boolean>([[r.owner, true]]);
    let held = 0;
    for (const [field, value] of seats) {
      const seat = parseSeat(value);
      if (seat.owner !== "" && !alive.has(seat.owner)) alive.set(seat.owner, await this.presence.exists(r.heartbeatPrefix + seat.owner));
      if (!(r.now - seat.seenAt <= r.staleMs) || (seat.owner !== "" && !alive.get(seat.owner))) await this.presence.hdel(r.hash, field);
      else held += 1;
    }
    if (held >= r.cap) return false;
    await this.presence.hset(r.hash, r.field, `${r.owner}:${r.now}`);
    await this.presence.expire(r.hash, r.ttlS);
    return true;
  }
}

/** A seat's value as the count writes it; a bare time (written before owners were kept) has no owner. */
function parseSeat(value: string): { owner: string; seenAt: number } {
  const at = value.lastIndexOf(":");
  return at < 0 ? { owner: "", seenAt: Number(value) } : { owner: value.slice(0, at), seenAt: Number(value.slice(at + 1)) };
}
