import fs from "node:fs";
import path from "node:path";
import { loginRequestSchema, registerRequestSchema, type RegisterRequest } from "@game/schema/api";
import { apiPattern, apiUrl, routes } from "@game/schema/routes";
import { mapLimit } from "./concurrency.js";
import { LatencyRecorder } from "./histogram.js";
import { errorMessageOf, type JsonHttpClient, type JsonResponse } from "./httpClient.js";
import type { AllianceRoomLink } from "./allianceRoom.js";
import type { StrategyState } from "./strategy.js";
import type { ClientTraffic, MeteredRoom } from "./realtime.js";

/** What a later run needs to act as the same player again (--reuse). */
export interface BotCredentials {
  email: string;
  username: string;
  password: string;
  countryName: string;
  countryId?: number;
  /** last access token; tried first on reuse, replaced by a login when refused */
  token?: string;
}

/** The credentials file a run writes and --reuse reads. */
export interface CredentialsFile {
  version: 1;
  /** the server these accounts live on */
  target: string;
  createdAt: string;
  bots: BotCredentials[];
}

/** One simulated player. Acts only on its own country. */
export interface Bot {
  index: number;
  credentials: BotCredentials;
  countryId: number;
  token: string;
  room?: MeteredRoom;
  traffic?: ClientTraffic;
  /** own-country numbers from the latest action answer (turns, points, labs, tech) */
  known: KnownCountry;
  /** how many builds it has sent: alternates farm and residence */
  builds: number;
  /** sequence number of its latest chat line, to pin a room "error" answer on it */
  lastChatSeq?: number;
  /** the strategy driver's memory (the play action), from its first play */
  strategy?: StrategyState;
  /** its alliance's room, while the strategy driver's bot is in an alliance and the run has rooms */
  allianceRoom?: AllianceRoomLink;
}

export interface KnownCountry {
  turns?: number;
  cash?: number;
  researchPoints?: number;
  researchLabs?: number;
  agriculturalTech?: number;
  governmentType?: string;
}

/** Updates `bot.known` from an own-country JSON object in an answer, if there is one. */
export function learnCountry(bot: Bot, country: unknown): void {
  if (!country || typeof country !== "object") return;
  const c = country as Record<string, unknown>;
  const num = (v: unknown) => (v === undefined || v === null || v === "" ? undefined : Number(v));
  const set = <K extends keyof KnownCountry>(key: K, value: KnownCountry[K] | undefined) => {
    if (value !== undefined && !(typeof value === "number" && Number.isNaN(value))) bot.known[key] = value;
  };
  set("turns", num(c.turns));
  set("cash", num(c.cash));
  set("researchPoints", num(c.research_points));
  set("researchLabs", num(c.research_labs));
  set("agriculturalTech", num(c.agricultural_tech));
  if (typeof c.government_type === "string") set("governmentType", c.government_type);
  else if (typeof c.governmentType === "string") set("governmentType", c.governmentType);
}

/**
 * Unique, valid registration data for bot `index` of run `runId` (usernames stay <= 20 chars).
 * The index is decimal: the server keeps usernames unique on their lookalike-folded form
 * (i/l/1, o/0, rn/m and vv/w read alike), and base-36 indexes collided there (42 of 500 bots
 * refused in the 60-minute soak); digits alone never fold together.
 */
export function newCredentials(runId: string, index: number): BotCredentials {
  const id = `lt${runId}${index}`;
  return {
    email: `${id}@loadtest.example.com`,
    username: id,
    password: `pw-${runId}-${index}`,
    countryName: `Loadtest ${runId} ${index}`,
  };
}

export function readCredentialsFile(file: string): CredentialsFile {
  const parsed = JSON.parse(fs.readFileSync(file, "utf8")) as CredentialsFile;
  if (parsed?.version !== 1 || !Array.isArray(parsed.bots)) throw new Error(`${file} is not a load-test credentials file`);
  return parsed;
}

export function writeCredentialsFile(file: string, data: CredentialsFile): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(data, null, 1), { mode: 0o600 });
}

/** Latency and failures of the setup steps (register, login, token check, join). */
export class SetupStats {
  readonly latency = { register: new LatencyRecorder(), login: new LatencyRecorder(), tokenCheck: new LatencyRecorder(), join: new LatencyRecorder() };
  readonly errors = new Map<string, number>();
  registered = 0;
  loggedIn = 0;
  reusedTokens = 0;

  fail(step: string, detail: string): void {
    const key = `${step}: ${detail}`.slice(0, 240);
    this.errors.set(key, (this.errors.get(key) ?? 0) + 1);
  }
}

function describe(res: JsonResponse): string {
  return res.status ? `${res.status} ${errorMessageOf(res)}` : errorMessageOf(res);
}

async function timed<T>(recorder: LatencyRecorder, work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  try {
    return await work();
  } finally {
    recorder.record(performance.now() - start);
  }
}

async function register(http: JsonHttpClient, creds: BotCredentials, stats: SetupStats): Promise<{ token: string; countryId: number } | undefined> {
  const body: RegisterRequest = registerRequestSchema.parse({
    email: creds.email,
    username: creds.username,
    password: creds.password,
    countryName: creds.countryName,
    governmentType: "monarchy",
    startingResources: {},
  });
  const res = await timed(stats.latency.register, () => http.request("POST", apiUrl(routes.register), { body, route: apiPattern(routes.register) }));
  if (res.status !== 201 || !res.body?.token) {
    // The server limits registrations per address (RATE_LIMIT_REGISTER_PER_HOUR, default 10).
    stats.fail("register", res.status === 429 ? `${describe(res)} (start the server with RATE_LIMIT_REGISTER_PER_HOUR=0)` : describe(res));
    return undefined;
  }
  stats.registered++;
  return { token: res.body.token, countryId: Number(res.body.user?.countryId) };
}

async function login(http: JsonHttpClient, creds: BotCredentials, stats: SetupStats): Promise<{ token: string; countryId: number } | "unknown" | undefined> {
  const body = loginRequestSchema.parse({ email: creds.email, password: creds.password });
  const res = await timed(stats.latency.login, () => http.request("POST", apiUrl(routes.login), { body, route: apiPattern(routes.login) }));
  if (res.status === 401) return "unknown";
  if (res.status !== 200 || !res.body?.token) {
    stats.fail("login", describe(res));
    return undefined;
  }
  stats.loggedIn++;
  return { token: res.body.token, countryId: Number(res.body.user?.countryId) };
}

/** A saved token still good? Answers the country id, or undefined. */
async function checkToken(http: JsonHttpClient, token: string, stats: SetupStats): Promise<number | undefined> {
  const res = await timed(stats.latency.tokenCheck, () => http.request("GET", apiUrl(routes.me), { token, route: apiPattern(routes.me) }));
  if (res.status !== 200) return undefined;
  const id = Number(res.body?.user?.countryId);
  return Number.isInteger(id) && id > 0 ? id : undefined;
}

/**
 * Makes every credential a ready bot: a saved token that still works is kept, otherwise it
 * logs in, and an account the server does not know (a fresh database) is registered again.
 * Fresh credentials are registered directly (registration answers a token). Argon2 hashing
 * costs the server ~50-100 ms of CPU per call, hence the bounded concurrency.
 * Bots that fail setup are left out (and counted in `stats`).
 */
export async function prepareBots(http: JsonHttpClient, credentials: readonly BotCredentials[], options: { concurrency: number; stats: SetupStats; onReady?: (ready: number) => void }): Promise<Bot[]> {
  let ready = 0;
  const results = await mapLimit(credentials, options.concurrency, async (creds, index): Promise<Bot | undefined> => {
    let session: { token: string; countryId: number } | undefined;
    if (creds.token) {
      const countryId = await checkToken(http, creds.token, options.stats);
      if (countryId) {
        session = { token: creds.token, countryId };
        options.stats.reusedTokens++;
      }
    }
    if (!session && creds.countryId !== undefined) {
      const attempt = await login(http, creds, options.stats);
      session = attempt === "unknown" ? await register(http, creds, options.stats) : attempt;
    } else if (!session) {
      session = await register(http, creds, options.stats);
    }
    if (!session || !(session.countryId > 0)) return undefined;
    creds.token = session.token;
    creds.countryId = session.countryId;
    options.onReady?.(++ready);
    return { index, credentials: creds, countryId: session.countryId, token: session.token, known: {}, builds: 0 };
  });
  const bots: Bot[] = [];
  for (const r of results) {
    if (r instanceof Error) options.stats.fail("setup", r.message);
    else if (r) bots.push(r);
  }
  // dense indexes: bot i is bots[i]
  bots.forEach((bot, i) => (bot.index = i));
  return bots;
}
