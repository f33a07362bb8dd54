import "@colyseus/testing";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { WORLD_ROOM } from "@game/schema/messages";
import { registerPlayer, startTestServer } from "../test/harness.js";
import { joinWorld } from "../test/worldClients.js";

/**
 * Issue 28: a SIGTERM while a matchmaking seat was reserved and never used made a process take
 * over 9 s to exit: Colyseus disposes a room only once its reservations are gone (15 s), so the
 * shutdown's room step ran into its bound. GameRoom.onBeforeShutdown drops unused seats first.
 * (drain.test.ts checks the same through main.ts and SIGTERM in a child process.)
 */
describe("issue 28: shutdown with a seat reserved and never used", () => {
  it("the rooms close by themselves, not cut by the shutdown's bound", async () => {
    const lines: string[] = [];
    const t = await startTestServer({ logger: pino({ level: "warn" }, { write: (line: string) => void lines.push(line) }) });
    let closed = false;
    try {
      const [a, b] = [await registerPlayer(t, "seatA"), await registerPlayer(t, "seatB")];
      const client = await joinWorld(t.baseUrl, a.token);
      let leftWith: number | undefined;
      client.room.onLeave((code: number) => (leftWith = code));
      const reserved = await fetch(`${t.baseUrl}/matchmake/joinOrCreate/${WORLD_ROOM}`, {
        method: "POST",
        headers: { authorization: `Bearer ${b.token}`, "content-type": "application/json" },
        body: "{}",
      });
      expect(reserved.status).toBe(200);
      expect(((await reserved.json()) as { roomId?: string }).roomId).toBe(client.room.roomId);
      await t.close();
      closed = true;
      expect(leftWith).toBe(4001);
      expect(lines.join("")).not.toMatch(/rooms still closing after the shutdown bound/);
    } finally {
      if (!closed) await t.close();
    }
  }, 120_000);
});
