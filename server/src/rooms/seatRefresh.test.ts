import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LocalPresence } from "@colyseus/core";
import { Redis } from "ioredis";
import { TEST_REDIS_URL } from "../test/harness.js";
import { PresenceSeatCount, REFRESH_BATCH, RedisSeatCount, type SeatCount, type SeatWrite } from "./seatCount.js";

/**
 * The periodic refresh of the seats a process holds (RoomSessions every 20 s): every seat's
 * value written and every user's hash kept alive, on Redis (pipelines of REFRESH_BATCH) and on
 * the one-process presence. Keys carry a prefix of their own, so the database is shared safely.
 */
const PREFIX = `seat-refresh-test:${crypto.randomBytes(4).toString("hex")}:`;
let redis: Redis;

beforeAll(() => {
  redis = new Redis(`${TEST_REDIS_URL}/0`);
});

afterAll(async () => {
  const keys = await redis.keys(`${PREFIX}*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

/** Seats of `users` users, `perUser` each, valued `value`. */
function seatsOf(tag: string, users: number, perUser: number, value: string): SeatWrite[] {
  const seats: SeatWrite[] = [];
  for (let u = 0; u < users; u++) for (let s = 0; s < perUser; s++) seats.push({ hash: `${PREFIX}${tag}:user:${u}`, field: `session-${u}-${s}`, value });
  return seats;
}

describe("a seat refresh on Redis", () => {
  const count = (): SeatCount => new RedisSeatCount(redis);

  it("writes every seat and renews every hash, across several pipelines", async () => {
    const seats = seatsOf("many", Math.ceil((REFRESH_BATCH * 2.4) / 2), 2, "process-a:1000");
    expect(seats.length).toBeGreaterThan(REFRESH_BATCH * 2);
    await count().refresh(seats, 120);
    const later = seats.map((seat) => ({ ...seat, value: "process-a:2000" }));
    await count().refresh(later, 120);
    for (const seat of [later[0]!, later[REFRESH_BATCH]!, later[later.length - 1]!]) expect(await redis.hget(seat.hash, seat.field)).toBe("process-a:2000");
    const hashes = [...new Set(seats.map((s) => s.hash))];
    const fields = await Promise.all(hashes.map((hash) => redis.hlen(hash)));
    expect(fields.every((n) => n === 2)).toBe(true);
    const ttls = await Promise.all([hashes[0]!, hashes[hashes.length - 1]!].map((hash) => redis.ttl(hash)));
    for (const ttl of ttls) expect(ttl).toBeGreaterThan(100);
  });

  it("fails when a command of a pipeline fails", async () => {
    const hash = `${PREFIX}wrongtype`;
    await redis.set(hash, "not a hash");
    await expect(count().refresh([{ hash, field: "s", value: "v" }], 60)).rejects.toThrow(/WRONGTYPE/);
  });
});

describe("a seat refresh on the one-process presence", () => {
  it("writes every seat and renews every hash", async () => {
    const presence = new LocalPresence();
    const seats = seatsOf("local", 3, 2, "process-b:5");
    await new PresenceSeatCount(presence).refresh(seats, 120);
    for (const seat of seats) expect(await presence.hget(seat.hash, seat.field)).toBe("process-b:5");
    expect(await presence.hlen(seats[0]!.hash)).toBe(2);
    presence.shutdown();
  });
});
