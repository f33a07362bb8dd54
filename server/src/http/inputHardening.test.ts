import "@colyseus/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pino from "pino";
import { AUTH_MESSAGES } from "@game/schema/api";
import { WorldMessage } from "@game/schema/messages";
import { startingCountry } from "@game/schema/rules";
import { backfillNameKeys } from "../db/names.js";
import { insertCountry } from "../db/countries.js";
import { newPlayer, registerPlayer, startTestServer, type TestServer } from "../test/harness.js";
import { eventually, joinWorld, type WorldTestClient } from "../test/worldClients.js";

let t: TestServer;
const clients: WorldTestClient[] = [];
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.leave()));
  await t?.close();
});

const count = async (sql: string, params: unknown[] = []) => (await t.server.database.pool.query(sql, params)).rows[0].n as number;

describe("finding 5: control characters are a clear 400, names are normalised and unique on their confusable fold", () => {
  it.each([
    ["country name", { countryName: "Null\u0000land" }, "Country name must not contain control characters"],
    ["username", { username: "nul\u0000user" }, "Username must not contain control characters"],
    ["password", { password: "secret\u0000123" }, "Password must not contain control characters"],
    ["email", { email: "nul\u0000@example.com" }, AUTH_MESSAGES.invalidEmail],
    ["country name with a zero-width space", { countryName: "Zero\u200Bland" }, "Country name must not contain invisible characters"],
    ["username with a bidi override", { username: "\u202Eevil" }, "Username must not contain text-direction characters"],
  ])("registration with U+0000 or an invisible character in the %s answers 400 and creates nothing", async (_field, patch, error) => {
    const users = await count("SELECT count(*)::int AS n FROM users");
    const res = await t.api("POST", "/auth/register", { ...newPlayer("ctl"), ...patch });
    expect(res).toMatchObject({ status: 400, body: { success: false, error } });
    expect(await count("SELECT count(*)::int AS n FROM users")).toBe(users);
  });

  it("a login with U+0000 answers 400, not 500", async () => {
    expect(await t.api("POST", "/auth/login", { email: "a@example.com", password: "secret\u0000" })).toMatchObject({
      status: 400,
      body: { success: false, error: "Password must not contain control characters" },
    });
  });

  it("REST chat with U+0000 answers 400 and stores nothing", async () => {
    const p = await registerPlayer(t, "chatnul");
    const before = await count("SELECT count(*)::int AS n FROM chat_messages");
    const res = await t.api("POST", "/chat/send", { channel: "general", content: "hello\u0000world" }, p.token);
    expect(res).toMatchObject({ status: 400, body: { success: false, error: "Message must not contain control characters" } });
    expect(await count("SELECT count(*)::int AS n FROM chat_messages")).toBe(before);
    // a message of several lines is still fine
    expect((await t.api("POST", "/chat/send", { channel: "general", content: "line one\nline two" }, p.token)).status).toBe(201);
  });

  it("room chat with U+0000 gets an 'error' message, stores nothing, and the room keeps working", async () => {
    const p = await registerPlayer(t, "roomnul");
    const client = await joinWorld(t.baseUrl, p.token);
    clients.push(client);
    const before = await count("SELECT count(*)::int AS n FROM chat_messages");
    client.room.send(WorldMessage.sendChat, { channel: "general", content: "hi\u0000there" });
    await eventually(() => client.received.get(WorldMessage.error)?.length === 1, "the refusal");
    expect(client.received.get(WorldMessage.error)![0]).toEqual({ code: "chat/invalid", message: "Message must not contain control characters" });
    expect(await count("SELECT count(*)::int AS n FROM chat_messages")).toBe(before);
    client.room.send(WorldMessage.sendChat, { channel: "general", content: "still here" });
    await eventually(async () => (await count("SELECT count(*)::int AS n FROM chat_messages")) === before + 1, "the next message stored");
  });

  it('"Land" and "Lаnd" (Cyrillic a) cannot both exist; nor can usernames that fold alike', async () => {
    const stamp = Date.now().toString(36);
    const first = await t.api("POST", "/auth/register", { ...newPlayer("land"), countryName: `Land ${stamp}`, username: `bob${stamp}` });
    expect(first.status).toBe(201);
    const cyrillic = await t.api("POST", "/auth/register", { ...newPlayer("landcy"), countryName: `Lаnd ${stamp}` });
    expect(cyrillic).toMatchObject({ status: 409, body: { success: false, error: AUTH_MESSAGES.countryNameTaken } });
    const fullWidth = await t.api("POST", "/auth/register", { ...newPlayer("fw"), countryName: `Ｌａｎｄ ${stamp}` });
    expect(fullWidth.status).toBe(409);
    const username = await t.api("POST", "/auth/register", { ...newPlayer("bob"), username: `bоb${stamp}` }); // Cyrillic о
    expect(username).toMatchObject({ status: 409, body: { success: false, error: AUTH_MESSAGES.usernameTaken } });
    const different = await t.api("POST", "/auth/register", { ...newPlayer("lend"), countryName: `Lend ${stamp}` });
    expect(different.status).toBe(201);
  });

  it("stores names NFKC-normalised", async () => {
    const stamp = Date.now().toString(36);
    const res = await t.api("POST", "/auth/register", { ...newPlayer("nfkc"), countryName: `Ｎｏｒｄ ${stamp}` });
    expect(res.status).toBe(201);
    expect(res.body.user.countryName).toBe(`Nord ${stamp}`);
  });

  it("parallel registrations of names that fold alike create exactly one", async () => {
    const stamp = Date.now().toString(36);
    const spellings = [`Race ${stamp}`, `Rасе ${stamp}`, `RACE ${stamp}`, `Ｒａｃｅ ${stamp}`, `Racé ${stamp}`, `Rаce ${stamp}`];
    const results = await Promise.all(spellings.map((countryName, i) => t.api("POST", "/auth/register", { ...newPlayer(`fold${i}x`), countryName })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(spellings.length - 1);
  });

  it("names created before the keys existed get them at start-up; the first of two lookalikes keeps the key", async () => {
    const stamp = Date.now().toString(36);
    const db = t.server.database.pool;
    // rows written as a script would: without uniqueness keys
    const client = await db.connect();
    try {
      const user = (await client.query("INSERT INTO users (email, username, password_hash) VALUES ($1, $2, 'x') RETURNING id", [`old${stamp}@example.com`, `old${stamp}`])).rows[0];
      await insertCountry(client, user.id, `Oldland ${stamp}`, startingCountry());
      await insertCountry(client, null as unknown as number, `Оldland ${stamp}`, startingCountry()); // Cyrillic О, an AI country
    } finally {
      client.release();
    }
    expect(await backfillNameKeys(db, pino({ level: "silent" }))).toBe(2); // the username and the first country
    const copy = await t.api("POST", "/auth/register", { ...newPlayer("copy"), countryName: `0ldland ${stamp}` });
    expect(copy).toMatchObject({ status: 409, body: { success: false, error: AUTH_MESSAGES.countryNameTaken } });
    expect(await backfillNameKeys(db, pino({ level: "silent" }))).toBe(0);
  });
});

describe("finding 9: ids are not coerced", () => {
  let p: Awaited<ReturnType<typeof registerPlayer>>;
  beforeAll(async () => {
    p = await registerPlayer(t, "ids");
  });

  it.each([["0x3"], ["%203%20"], ["3.0"], ["1e1"], ["+3"], ["-3"], ["0"]])("GET /country/%s answers 400 'Invalid id'", async (raw) => {
    expect(await t.api("GET", `/country/${raw}`, undefined, p.token)).toMatchObject({ status: 400, body: { success: false, error: "Invalid id" } });
  });

  it("the plain id still reads", async () => {
    expect((await t.api("GET", `/country/${p.countryId}`, undefined, p.token)).status).toBe(200);
    expect((await t.api("GET", `/buildings/costs/${p.countryId}`, undefined, p.token)).status).toBe(200);
  });

  it.each([
    ["hex", "0x10"],
    ["padded", "%205"],
    ["array", "5&limit=6"],
    ["fraction", "5.0"],
  ])("a %s query limit answers 400", async (_name, raw) => {
    const res = await t.api("GET", `/countries?limit=${raw}`, undefined, p.token);
    expect(res).toMatchObject({ status: 400, body: { success: false, error: "limit must be a whole number" } });
  });

  it("a repeated ?before= (an array) answers 400", async () => {
    expect(await t.api("GET", "/chat/messages/general?before=3&before=4", undefined, p.token)).toMatchObject({ status: 400, body: { success: false, error: "Invalid id" } });
  });

  it.each([
    ["a string", (id: number) => String(id)],
    ["an array", (id: number) => [id]],
    ["a padded string", (id: number) => ` ${id} `],
    ["a hex string", (id: number) => `0x${id.toString(16)}`],
    ["a fraction", (id: number) => id + 0.5],
  ])("a JSON countryId that is %s answers 400 and spends nothing", async (_name, make) => {
    const res = await t.api("POST", "/exploration/explore", { countryId: make(p.countryId), turnsToSpend: 1 }, p.token);
    expect(res).toMatchObject({ status: 400, body: { success: false, error: "Invalid id" } });
    const country = await t.api("GET", `/country/${p.countryId}`, undefined, p.token);
    expect(country.body.country.turns).toBe(startingCountry().turns);
  });
});
