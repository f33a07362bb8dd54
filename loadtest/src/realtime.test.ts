import { describe, expect, it } from "vitest";
import { ChatTracker, ClientTraffic } from "./realtime.js";

/** A room as the tracker needs it (it is told each line by the runner's message handler). */
const room = () => ({ onLeave: (() => {}) as any });

describe("ChatTracker", () => {
  it("records fan-out per (message, observer) and completes on the first other observer", async () => {
    let now = 1000;
    const chat = new ChatTracker("run1", "general", 10_000, () => now);
    chat.observe(0, room());
    chat.observe(1, room());
    const { seq, content } = chat.nextContent();
    expect(content).toMatch(/^load test lt:run1:1 t=\d+$/);
    const done = chat.track(seq, 0);
    now = 1040;
    chat.line(0, "general", content); // the sender's own room: not a fan-out receipt
    chat.line(1, "general", content);
    await expect(done).resolves.toEqual({ ok: true });
    chat.line(1, "general", content); // the same line again is not a second receipt
    expect(chat.receipts).toBe(1);
    expect(chat.delivered).toBe(1);
    expect(chat.fanout.summary().max).toBeCloseTo(40, 0);
    chat.close();
  });

  it("takes lines in any order, ignores other runs' lines and other channels", async () => {
    const chat = new ChatTracker("run2", "general", 10_000);
    chat.observe(5, room());
    const first = chat.nextContent();
    const second = chat.nextContent();
    const p1 = chat.track(first.seq, 0);
    const p2 = chat.track(second.seq, 1);
    chat.line(5, "general", "load test lt:other:1 t=1");
    chat.line(5, "trade", first.content);
    chat.line(5, "general", second.content);
    await expect(p2).resolves.toEqual({ ok: true });
    chat.line(5, "general", first.content);
    await expect(p1).resolves.toEqual({ ok: true });
    expect(chat.delivered).toBe(2);
    expect(chat.receipts).toBe(2);
    chat.close();
  });

  it("fails a line nobody sees within the time-out, or that the server refused", async () => {
    const chat = new ChatTracker("run3", "general", 30);
    chat.observe(1, room());
    const lost = chat.nextContent();
    await expect(chat.track(lost.seq, 0)).resolves.toMatchObject({ ok: false, status: "undelivered" });
    const refused = chat.nextContent();
    const pending = chat.track(refused.seq, 0);
    chat.fail(refused.seq, "chat/rate_limited: too fast");
    await expect(pending).resolves.toEqual({ ok: false, status: "rejected", message: "chat/rate_limited: too fast" });
    expect(chat.undelivered).toBe(1);
  });

  it("completes at once when no other observer exists", async () => {
    const chat = new ChatTracker("run4", "general", 10_000);
    chat.observe(0, room());
    await expect(chat.track(chat.nextContent().seq, 0)).resolves.toEqual({ ok: true });
  });
});

describe("ClientTraffic", () => {
  it("classifies frames by protocol code", () => {
    const t = new ClientTraffic(false);
    t.record(15, 100); // ROOM_STATE_PATCH
    t.record(15, 50);
    t.record(14, 2000); // ROOM_STATE
    t.record(13, 30); // ROOM_DATA
    expect(t).toMatchObject({ frames: 4, bytes: 2180, patches: 2, patchBytes: 150, fullStates: 1, fullStateBytes: 2000, messages: 1, decode: false, sampled: false });
  });
});
