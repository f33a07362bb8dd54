import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { CHAT_CHANNELS, CHAT_MAX_MENTIONS, CHAT_RATE_LIMIT_MESSAGES, CHAT_RATE_LIMIT_WINDOW_MS, chatSendsLeft, checkChannelAccess, parseChatCommand, parseMentions, splitMentions, visibleChannels, type ChatMember } from "./chat.js";
import { sendChatSchema } from "../messages/world.js";

const loner: ChatMember = { allianceId: null, allianceRole: null };
const member: ChatMember = { allianceId: 7, allianceRole: "member" };
const manager: ChatMember = { allianceId: 7, allianceRole: "manager" };
const owner: ChatMember = { allianceId: 7, allianceRole: "owner" };

describe("channel access (spec section 5: 'all' always, 'alliance' needs membership, 'leadership' hidden)", () => {
  it.each([
    ["no alliance", loner, ["general", "trade", "war"]],
    ["alliance member", member, ["general", "trade", "war", "alliance"]],
    ["alliance manager", manager, ["general", "trade", "war", "alliance", "leadership"]],
    ["alliance owner", owner, ["general", "trade", "war", "alliance", "leadership"]],
  ] as const)("%s sees %j", (_name, who, ids) => {
    expect(visibleChannels(who).map((c) => c.id)).toEqual(ids);
  });

  it.each([
    ["general", loner, null],
    ["alliance", loner, "chat/no_access"],
    ["leadership", member, "chat/no_access"],
    ["leadership", manager, null],
    ["alliance", member, null],
    ["nowhere", owner, "chat/unknown_channel"],
  ] as const)("posting to %s as %j -> %s", (channel, who, code) => {
    expect(checkChannelAccess(channel, who)?.code ?? null).toBe(code);
  });

  it("a role without an alliance is no leader", () => {
    expect(checkChannelAccess("leadership", { allianceId: null, allianceRole: "owner" })?.code).toBe("chat/no_access");
  });

  it("every access level has a channel and ids are unique", () => {
    expect(new Set(CHAT_CHANNELS.map((c) => c.accessLevel))).toEqual(new Set(["all", "alliance", "leadership"]));
    expect(new Set(CHAT_CHANNELS.map((c) => c.id)).size).toBe(CHAT_CHANNELS.length);
  });
});

describe("mentions are the words after an at-sign", () => {
  it.each([
    ["hello @alice and @bob", ["alice", "bob"]],
    ["@Alice @alice @ALICE", ["Alice"]],
    ["mail me at a@b.com", []],
    ["@carol, @dave.", ["carol", "dave"]],
    ["@", []],
    ["(@eve) @frank_1 @g-h", ["eve", "frank_1", "g-h"]],
  ])("%j -> %j", (content, mentions) => {
    expect(parseMentions(content)).toEqual(mentions);
  });

  it(`keeps at most ${CHAT_MAX_MENTIONS}`, () => {
    const text = Array.from({ length: 30 }, (_, i) => `@user${i}`).join(" ");
    expect(parseMentions(text)).toHaveLength(CHAT_MAX_MENTIONS);
  });

  it("property: every mention occurs in the text after an @", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        for (const m of parseMentions(text)) expect(text.toLowerCase()).toContain(`@${m.toLowerCase()}`);
      }),
    );
  });
});

describe("commands", () => {
  it.each([
    ["/who", "who", ""],
    ["/TIME", "time", ""],
    ["/ignore  Bob ", "ignore", "Bob"],
    ["/unignore bob", "unignore", "bob"],
    ["/dance now", null, "now"],
  ] as const)("%j -> %s(%j)", (text, command, argument) => {
    expect(parseChatCommand(text)).toMatchObject({ command, argument });
  });

  it("ordinary text is no command", () => {
    expect(parseChatCommand("hello /who")).toBeUndefined();
  });
});

describe("sendChat payload", () => {
  it("trims and accepts 1..500 characters", () => {
    expect(sendChatSchema.parse({ channel: "general", content: "  hi  " })).toEqual({ channel: "general", content: "hi" });
    expect(sendChatSchema.safeParse({ channel: "general", content: "x".repeat(500) }).success).toBe(true);
  });

  it.each([
    ["empty after trim", { channel: "general", content: "   " }, "Message cannot be empty"],
    ["too long", { channel: "general", content: "x".repeat(501) }, "Message must be at most 500 characters"],
    ["unknown channel", { channel: "secret", content: "hi" }, "Unknown chat channel"],
    ["content not a string", { channel: "general", content: 5 }, "Message cannot be empty"],
    ["missing channel", { content: "hi" }, "Unknown chat channel"],
  ])("refuses %s", (_name, payload, message) => {
    const result = sendChatSchema.safeParse(payload);
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]!.message).toBe(message);
  });
});

describe("splitMentions: highlighting the mentions a message carries", () => {
  const text = (t: string) => ({ kind: "text", text: t });
  const at = (name: string, start: number) => ({ kind: "mention", name, start });
  it.each([
    ["no mentions", "hello there", [], [text("hello there")]],
    ["one mention", "hi @Ann!", ["Ann"], [text("hi "), at("Ann", 3), text("!")]],
    ["case-insensitive match, typed case kept", "@ANN and @bob", ["ann", "Bob"], [at("ANN", 0), text(" and "), at("bob", 9)]],
    ["an at-name not in the list stays text", "@ann @zed", ["ann"], [at("ann", 0), text(" @zed")]],
    ["not inside an e-mail address", "mail me@ann.org, @ann.", ["ann"], [text("mail me@ann.org, "), at("ann", 17), text(".")]],
    ["empty content", "", [], []],
  ] as const)("%s", (_name, content, mentions, segments) => {
    expect(splitMentions(content, mentions)).toEqual(segments);
  });

  it("highlights exactly what parseMentions found, and loses no text", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("@ann", "@Bob_2", "x@y.z", " ", "hi", ".", "@", "@-", "é"), { maxLength: 20 }), (parts) => {
        const content = parts.join("");
        const segments = splitMentions(content, parseMentions(content));
        expect(segments.map((s) => (s.kind === "text" ? s.text : `@${s.name}`)).join("")).toBe(content);
        const found = new Set(parseMentions(content).map((m) => m.toLowerCase()));
        for (const s of segments) if (s.kind === "mention") expect(found.has(s.name.toLowerCase())).toBe(true);
      }),
    );
  });
});

describe("chatSendsLeft: a sender's own view of the chat budget", () => {
  it("counts the answers of the last 10 s against the five lines", () => {
    expect(chatSendsLeft([], 0)).toBe(CHAT_RATE_LIMIT_MESSAGES);
    expect(chatSendsLeft([1_000, 2_000], 5_000)).toBe(3);
    expect(chatSendsLeft([1_000, 2_000, 3_000, 4_000, 5_000], 10_999)).toBe(0);
    expect(chatSendsLeft([1_000, 2_000, 3_000, 4_000, 5_000], 11_000)).toBe(1);
  });

  it("a sender that waits for it is never refused by the server's fixed window, however late each answer comes", () => {
    // The server (rate-limiter-flexible, fixed window) opens a window at the first line it
    // handles and takes a point per line; a line is handled between its send and its answer.
    fc.assert(
      fc.property(fc.array(fc.record({ think: fc.nat(3_000), handledAfter: fc.nat(2_000), answeredAfter: fc.nat(2_000) }), { minLength: 1, maxLength: 40 }), (lines) => {
        let now = 0;
        const answeredAt: number[] = [];
        let windowStart = -Infinity;
        let taken = 0;
        for (const line of lines) {
          now += line.think;
          while (chatSendsLeft(answeredAt, now) === 0) now += 1;
          const handled = now + line.handledAfter;
          if (handled >= windowStart + CHAT_RATE_LIMIT_WINDOW_MS) [windowStart, taken] = [handled, 0];
          taken++;
          if (taken > CHAT_RATE_LIMIT_MESSAGES) return false;
          now = handled + line.answeredAfter;
          answeredAt.push(now);
        }
        return true;
      }),
    );
  });
});
