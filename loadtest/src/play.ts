import { apiUrl, routes } from "@game/schema/routes";
import type {
  AllianceJson,
  AllianceStatusJson,
  ApplicationsJson,
  BattleReportsResponse,
  BrigadesResponse,
  DiplomaticRelationsJson,
  IntelligenceStatusJson,
  KnownIntelligenceResponse,
  ListedCountryJson,
  ListingJson,
  OwnCountryJson,
  RankingRowJson,
  StandingOrderJson,
  StoreItemJson,
  StoreJson,
  WarDeclarationJson,
} from "@game/schema/api";
import type { NoticePayload } from "@game/schema/messages";
import { AI_PROFILES, CHAT_RATE_LIMIT_MESSAGES, type AiIntent, type AiIntentKind, type AiPersonality, type AiView } from "@game/schema/rules";
import type { ActionOutcome } from "./outcome.js";
import { ALLIANCE_ROOM_APPETITE, AllianceRoomLink, nextRoomIntent, ROOM_INTENTS, type RoomIntentKind } from "./allianceRoom.js";
import { learnCountry, type Bot } from "./bots.js";
import { LatencyRecorder } from "./histogram.js";
import { errorMessageOf, type JsonHttpClient, type JsonResponse } from "./httpClient.js";
import {
  allianceFields,
  buildAiView,
  concernsOf,
  decideOnDemand,
  diplomacyFields,
  espionageFields,
  intentRequest,
  listingOffset,
  marketFields,
  marketItemsOf,
  militaryFields,
  personalityOf,
  roomRng,
  strategyRng,
  verdictOf,
  VIEW_CONCERNS,
  VIEW_PAGE,
  VIEW_ROUTES,
  type ConcernFields,
  type ConcernRead,
  type StrategyState,
  type ViewConcern,
} from "./strategy.js";

export type { StrategyState };

/**
 * The strategy driver's IO half: one `play` action of a bot looks (reads what it needs over
 * REST), asks `nextAiIntent` with its personality and dice, and acts through the route a
 * browser uses (strategy.ts maps the intent). What a player's screen would keep, the bot
 * keeps too: the own country comes back with every action's answer, and the countries around
 * it and its wars are read again only every SURROUNDINGS_TTL_MS.
 *
 * The optional parts of the view (brigades, espionage, market, alliance, diplomacy: the
 * VIEW_CONCERNS) are read when the decision looks at them, not before: the strategy runs on a
 * view whose unread concerns stop it at the first look (decideOnDemand), the driver reads that
 * concern and runs it again from the same dice, so the intent is the one a view with
 * everything read gives, and nothing the decision does not look at is read. A read is kept for CONCERN_TTL_MS, and dropped sooner when the bot's own intent
 * changed it or a live notice of the world room says something waits on the bot (an
 * application to its alliance, a proposal to it).
 *
 * Cost, in GET requests besides the intent itself: the own country and its store after a
 * refusal, an idle look or OWN_TTL_MS (2); the surroundings every SURROUNDINGS_TTL_MS (3);
 * then per concern, at most once per CONCERN_TTL_MS: military 1, espionage 2, market 1 per
 * item the personality trades (marketItemsOf: 1 to 3) plus 1 for a standing-order item,
 * alliance 2 (3 outside an alliance, with the list), diplomacy 1. Alliance and diplomacy are
 * looked at on every decision (what waits on the bot comes first), espionage and market only
 * when the personality's appetite roll for them passes, military only before an attack. A bot
 * playing more often than the lifetimes pays them once per lifetime; one playing rarely (10,000
 * bots at 40 calls/s play once in 250 s) reads alliance and diplomacy, 3 or 4 GETs, on each play.
 */

/** Own country older than this is read again (the turn tick adds turns behind the bot's back), ms. */
export const OWN_TTL_MS = 60_000;
/** The target list and wars are read again after this, ms (a player reopening the military screen). */
export const SURROUNDINGS_TTL_MS = 120_000;
/**
 * How long a concern's read is used, ms: a screen a player leaves open. The market moves
 * fastest (other bots list and buy); alliances and diplomacy are re-read at once on a live
 * notice (with rooms on), so their lifetime matters only for what nobody announces (a new
 * alliance to apply to, a proposal that expired).
 */
export const CONCERN_TTL_MS: Readonly<Record<ViewConcern, number>> = { military: 60_000, espionage: 60_000, market: 30_000, alliance: 60_000, diplomacy: 60_000 };
/** A failed alliance-room join is tried again after this, ms. */
export const ROOM_JOIN_RETRY_MS = 30_000;

/** The concern an intent of each kind changes: read again before the next decision. */
const CONCERN_OF_KIND: Partial<Record<AiIntentKind, ViewConcern>> = {
  attack: "military",
  spy_train: "espionage",
  spy_mission: "espionage",
  spy_operation: "espionage",
  market_list: "market",
  market_buy: "market",
  market_order: "market",
  alliance_create: "alliance",
  alliance_apply: "alliance",
  alliance_accept: "alliance",
  alliance_reject: "alliance",
  diplomacy_propose: "diplomacy",
  diplomacy_accept: "diplomacy",
  diplomacy_reject: "diplomacy",
};

/** Counts of the strategy over the whole action phase. */
export class StrategyStats {
  readonly personalities = new Map<AiPersonality, number>();
  /** latency of each read the views needed, by VIEW_ROUTES key */
  readonly viewReads = Object.fromEntries(Object.keys(VIEW_ROUTES).map((k) => [k, new LatencyRecorder()])) as Record<keyof typeof VIEW_ROUTES, LatencyRecorder>;
  /** reads answered with something other than 2xx */
  viewFailures = 0;
  /** plays where the strategy chose to wait (turns at its reserve, nothing affordable) */
  idle = 0;
  /** plays that asked the strategy (each may read several concerns) */
  decisions = 0;
  /** reads of each optional concern */
  readonly concernReads = Object.fromEntries(VIEW_CONCERNS.map((c) => [c, 0])) as Record<ViewConcern, number>;
  /** latency of the intent's own request (without the reads before it), by intent kind */
  readonly intentLatency = new Map<string, LatencyRecorder>();
  /** alliance rooms joined, and joins refused or failed */
  roomJoins = 0;
  roomJoinFailures = 0;
  /** room message to answer (done, error, or the chat line shown), by room intent kind */
  readonly roomLatency = Object.fromEntries(Object.keys(ROOM_INTENTS).map((k) => [k, new LatencyRecorder()])) as Record<RoomIntentKind, LatencyRecorder>;
  /** sequence of the alliance chat lines (`lt:<runId>:a<seq>`) */
  chatSeq = 0;
}

/** What the play action needs besides its bot. */
export interface StrategyContext {
  /** the run's seed: personalities and dice derive from it and the bot's index */
  seed: number;
  stats: StrategyStats;
  /** server origin for alliance rooms; absent: the run is REST only (--no-rooms) */
  roomOrigin?: string;
  /** the run's id, in the alliance chat lines */
  runId?: string;
  /** every concern's read lifetime, ms, instead of CONCERN_TTL_MS (a short test compresses time) */
  viewTtlMs?: number;
}

/** The bot's strategy state, created on its first play. */
export function strategyOf(bot: Bot, ctx: StrategyContext): StrategyState {
  if (!bot.strategy) {
    const personality = personalityOf(ctx.seed, bot.index);
    ctx.stats.personalities.set(personality, (ctx.stats.personalities.get(personality) ?? 0) + 1);
    bot.strategy = {
      personality,
      rng: strategyRng(ctx.seed, bot.index),
      roomRng: roomRng(ctx.seed, bot.index),
      ownAt: 0,
      ownStale: true,
      surroundingsAt: 0,
      concerns: {},
      roomRetryAt: 0,
      chatAnsweredAt: [],
      queue: Promise.resolve(),
    };
  }
  return bot.strategy;
}

/**
 * A live notice from the world room to `bot` (WorldMessage.notice): an application to its
 * alliance, its own accepted, a proposal to it... The screen it concerns is read again before
 * the next decision, as the browser reloads the panel a notice points at.
 */
export function noticeArrived(bot: Bot, notice: Pick<NoticePayload, "kind">): void {
  const concerns = bot.strategy?.concerns;
  if (!concerns || typeof notice?.kind !== "string") return;
  if (notice.kind.startsWith("alliance_")) delete concerns.alliance;
  if (notice.kind.startsWith("diplomacy_")) delete concerns.diplomacy;
}

/** One look-decide-act of `bot`; waits for its previous play first. Never throws. */
export function playStrategy(bot: Bot, http: JsonHttpClient, ctx: StrategyContext): Promise<ActionOutcome> {
  const state = strategyOf(bot, ctx);
  const run = state.queue.then(() => playOnce(bot, state, http, ctx));
  state.queue = run.catch(() => undefined);
  return run.catch((err: Error) => ({ ok: false, status: "exception", message: err.message }));
}

async function timedGet(http: JsonHttpClient, path: string, route: string, token: string, recorder: LatencyRecorder): Promise<JsonResponse> {
  const start = performance.now();
  const res = await http.request("GET", path, { token, route });
  recorder.record(performance.now() - start);
  return res;
}

function viewFailure(ctx: StrategyContext, res: JsonResponse): ActionOutcome {
  ctx.stats.viewFailures++;
  return { ok: false, status: res.status || (res.failure === "timeout" ? "timeout" : "network"), kind: "view", message: errorMessageOf(res) };
}

/** GETs `key`'s route (with `path` filled in) for `bot`: the answer's body, or the failed response. */
async function read<T>(bot: Bot, http: JsonHttpClient, ctx: StrategyContext, key: keyof typeof VIEW_ROUTES, path: string): Promise<Answer<T>> {
  const res = await timedGet(http, path, VIEW_ROUTES[key].route, bot.token, ctx.stats.viewReads[key]);
  return res.status === 200 ? { body: res.body as T } : { failed: res };
}

type Answer<T> = { body: T } | { failed: JsonResponse };

/** The bodies of `answers`, or the first failed response among them. */
function bodiesOf<T>(answers: ReadonlyArray<Answer<T>>): T[] | JsonResponse {
  const bodies: T[] = [];
  for (const a of answers) {
    if ("failed" in a) return a.failed;
    bodies.push(a.body);
  }
  return bodies;
}

/** Reads one concern over its routes (VIEW_ROUTES); the failed response, if a read failed. */
async function readConcern(concern: ViewConcern, bot: Bot, state: StrategyState, http: JsonHttpClient, ctx: StrategyContext): Promise<ConcernRead | JsonResponse> {
  ctx.stats.concernReads[concern]++;
  const at = performance.now();
  const id = bot.countryId;
  switch (concern) {
    case "military": {
      const readAt = Date.now();
      const [res, defeats] = await Promise.all([
        read<BrigadesResponse>(bot, http, ctx, "brigades", apiUrl(routes.brigades, { params: { countryId: id } })),
        read<BattleReportsResponse>(bot, http, ctx, "battleReports", apiUrl(routes.battleReports, { query: { role: "attacker", outcome: "defeat", limit: 100 } })),
      ]);
      if ("failed" in res) return res.failed;
      if ("failed" in defeats) return defeats.failed;
      const fields = militaryFields(res.body, defeats.body, readAt);
      return { at, fields: () => fields };
    }
    case "espionage": {
      const readAt = Date.now();
      const [status, known] = await Promise.all([
        read<{ status: IntelligenceStatusJson }>(bot, http, ctx, "intelStatus", apiUrl(routes.intelligenceStatus, { params: { countryId: id } })),
        read<KnownIntelligenceResponse>(bot, http, ctx, "intelKnown", apiUrl(routes.knownIntelligence)),
      ]);
      if ("failed" in status) return status.failed;
      if ("failed" in known) return known.failed;
      return { at, fields: (now) => espionageFields(status.body.status, known.body.known, readAt, now) };
    }
    case "market": {
      const orderItem = AI_PROFILES[state.personality].standingOrderItem;
      const [books, orders] = await Promise.all([
        Promise.all(marketItemsOf(state.personality).map((item) => read<{ data: ListingJson[] }>(bot, http, ctx, "listings", apiUrl(routes.marketListings, { query: { itemType: item } })))),
        orderItem ? read<{ data: StandingOrderJson[] }>(bot, http, ctx, "orders", apiUrl(routes.ownStandingOrders, { params: { countryId: id } })) : Promise.resolve(null),
      ]);
      const listed = bodiesOf(books);
      if (!Array.isArray(listed)) return listed;
      if (orders && "failed" in orders) return orders.failed;
      const fields = marketFields(
        listed.map((b) => b.data),
        orders ? orders.body.data : null,
      );
      return { at, fields: () => fields };
    }
    case "alliance": {
      const [status, applications] = await Promise.all([
        read<{ data: AllianceStatusJson }>(bot, http, ctx, "allianceStatus", apiUrl(routes.allianceStatus, { params: { countryId: id } })),
        read<{ data: ApplicationsJson }>(bot, http, ctx, "applications", apiUrl(routes.allianceApplications)),
      ]);
      if ("failed" in status) return status.failed;
      if ("failed" in applications) return applications.failed;
      // the list only matters outside an alliance (where to apply)
      const list = status.body.data.alliance === null ? await read<{ data: AllianceJson[] }>(bot, http, ctx, "alliances", apiUrl(routes.allianceList)) : null;
      if (list && "failed" in list) return list.failed;
      const fields = allianceFields(status.body.data, applications.body.data, list ? list.body.data : null);
      return { at, fields: () => fields };
    }
    case "diplomacy": {
      const res = await read<{ data: DiplomaticRelationsJson }>(bot, http, ctx, "relations", apiUrl(routes.diplomaticRelations, { params: { countryId: id } }));
      if ("failed" in res) return res.failed;
      const fields = diplomacyFields(res.body.data);
      return { at, fields: () => fields };
    }
    default: {
      const unknown: never = concern;
      throw new Error(`unknown view concern ${String(unknown)}`);
    }
  }
}

/** A view read that did not answer 2xx, thrown out of decideOnDemand's `read`. */
class ViewReadFailed extends Error {
  constructor(readonly res: JsonResponse) {
    super("view read failed");
  }
}

/**
 * The strategy's intent on `base` with the concerns it looks at read on demand
 * (decideOnDemand): concerns read within their lifetime are used as they are, the others are
 * read when the decision looks at them. Keeps the dice it used.
 */
async function decide(bot: Bot, state: StrategyState, base: AiView, http: JsonHttpClient, ctx: StrategyContext): Promise<{ intent: AiIntent | null } | { failed: JsonResponse }> {
  const now = performance.now();
  const loaded: Partial<Record<ViewConcern, ConcernFields>> = {};
  for (const concern of concernsOf(state.personality)) {
    const r = state.concerns[concern];
    if (r && now - r.at < (ctx.viewTtlMs ?? CONCERN_TTL_MS[concern])) loaded[concern] = r.fields(base.now);
  }
  try {
    const decision = await decideOnDemand({
      base,
      personality: state.personality,
      rng: state.rng,
      loaded,
      read: async (concern) => {
        const read = await readConcern(concern, bot, state, http, ctx);
        if (!("fields" in read)) throw new ViewReadFailed(read);
        state.concerns[concern] = read;
        return read.fields(base.now);
      },
    });
    state.rng = decision.rng;
    return { intent: decision.intent };
  } catch (err) {
    if (err instanceof ViewReadFailed) return { failed: err.res };
    throw err;
  }
}

/**
 * The bot's alliance room, joined (or left) to match the alliance its own country shows; null
 * without rooms, outside an alliance, or while a failed join waits to be tried again.
 */
async function allianceRoomOf(bot: Bot, state: StrategyState, ctx: StrategyContext): Promise<AllianceRoomLink | null> {
  const allianceId = state.own?.alliance_id ?? null;
  const current = bot.allianceRoom;
  if (current && (!current.open || current.allianceId !== allianceId)) {
    bot.allianceRoom = undefined;
    await current.leave();
  }
  if (!ctx.roomOrigin || allianceId === null) return null;
  if (bot.allianceRoom) return bot.allianceRoom;
  if (performance.now() < state.roomRetryAt) return null;
  try {
    bot.allianceRoom = await AllianceRoomLink.join(ctx.roomOrigin, bot.token, allianceId);
    ctx.stats.roomJoins++;
    return bot.allianceRoom;
  } catch {
    // not (yet) a member as the server sees it, or the room could not be reached
    ctx.stats.roomJoinFailures++;
    state.roomRetryAt = performance.now() + ROOM_JOIN_RETRY_MS;
    return null;
  }
}

/** One alliance-room message (allianceRoom.ts nextRoomIntent) and its answer; null when it has none to send now. */
async function playRoom(bot: Bot, state: StrategyState, link: AllianceRoomLink, view: AiView, ctx: StrategyContext): Promise<ActionOutcome | null> {
  const { role, operations } = link.look(bot.countryId);
  const c = view.country;
  const intent = nextRoomIntent(
    {
      countryId: bot.countryId,
      allianceId: link.allianceId,
      role: role ?? state.concerns.alliance?.fields(view.now).alliance?.role ?? "member",
      units: { troops: c.troops, jets: c.jets, tanks: c.tanks, turrets: c.turrets },
      operations,
      targets: view.targets,
      now: view.now,
      chatContent: `alliance chat lt:${ctx.runId ?? "run"}:a${ctx.stats.chatSeq + 1}`,
      chatAnsweredAt: state.chatAnsweredAt,
      clockMs: performance.now(),
    },
    state.roomRng,
  );
  if (!intent) return null;
  if (intent.kind === "alliance_chat") ctx.stats.chatSeq++;
  const start = performance.now();
  const outcome = await link.send(intent);
  const end = performance.now();
  ctx.stats.roomLatency[intent.kind].record(end - start);
  // refused or not, the server took a point of the chat budget when it handled the line
  if (intent.kind === "alliance_chat") state.chatAnsweredAt = [...state.chatAnsweredAt, end].slice(-CHAT_RATE_LIMIT_MESSAGES);
  if (outcome.verdict === "ok") return { ok: true, status: "done", kind: intent.kind };
  return { ok: false, refused: outcome.verdict === "refused", status: outcome.code ?? "error", kind: intent.kind, message: `${outcome.code ? `${outcome.code}: ` : ""}${outcome.message ?? ""}` };
}

async function playOnce(bot: Bot, state: StrategyState, http: JsonHttpClient, ctx: StrategyContext): Promise<ActionOutcome> {
  const reads = ctx.stats.viewReads;
  const now = performance.now();
  if (!state.own || state.ownStale || now - state.ownAt > OWN_TTL_MS) {
    const res = await timedGet(http, apiUrl(routes.country, { params: { id: bot.countryId } }), VIEW_ROUTES.country.route, bot.token, reads.country);
    if (res.status !== 200 || res.body?.message !== "Own country") return viewFailure(ctx, res);
    state.own = res.body.country as OwnCountryJson;
    const storeRes = await timedGet(http, apiUrl(routes.store, { params: { countryId: bot.countryId } }), VIEW_ROUTES.store.route, bot.token, reads.store);
    if (storeRes.status !== 200) return viewFailure(ctx, storeRes);
    state.store = ((storeRes.body?.data as StoreJson | undefined)?.items ?? []) as StoreItemJson[];
    state.ownAt = now;
    state.ownStale = false;
  }
  if (!state.listed || !state.wars || now - state.surroundingsAt > SURROUNDINGS_TTL_MS) {
    const [rankRes, warsRes] = await Promise.all([
      timedGet(http, apiUrl(routes.networthRankings, { query: { limit: 1 } }), VIEW_ROUTES.rank.route, bot.token, reads.rank),
      timedGet(http, apiUrl(routes.warDeclarations), VIEW_ROUTES.wars.route, bot.token, reads.wars),
    ]);
    if (rankRes.status !== 200) return viewFailure(ctx, rankRes);
    if (warsRes.status !== 200) return viewFailure(ctx, warsRes);
    // The spec appends the caller's own row when it is not in the top list.
    const rows = (rankRes.body?.data ?? []) as RankingRowJson[];
    const rank = Number(rows.find((r) => r.countryId === bot.countryId)?.rank ?? 1);
    const path = apiUrl(routes.countries, { query: { limit: VIEW_PAGE, offset: listingOffset(rank) } });
    const listRes = await timedGet(http, path, VIEW_ROUTES.countries.route, bot.token, reads.countries);
    if (listRes.status !== 200) return viewFailure(ctx, listRes);
    state.listed = (listRes.body?.countries ?? []) as ListedCountryJson[];
    state.wars = (warsRes.body?.declarations ?? []) as WarDeclarationJson[];
    state.surroundingsAt = now;
  }

  const base = buildAiView({ own: state.own, listed: state.listed, wars: state.wars, store: state.store ?? [], now: Date.now() });
  // A member with the alliance room open sometimes uses it instead of taking a strategy step.
  const room = await allianceRoomOf(bot, state, ctx);
  if (room && state.roomRng.next() < ALLIANCE_ROOM_APPETITE) {
    const played = await playRoom(bot, state, room, base, ctx);
    if (played) return played;
  }

  ctx.stats.decisions++;
  const decision = await decide(bot, state, base, http, ctx);
  if ("failed" in decision) return viewFailure(ctx, decision.failed);
  const intent = decision.intent;
  if (!intent) {
    // Nothing to do until the tick brings turns: look at the country again next time.
    state.ownStale = true;
    ctx.stats.idle++;
    return { ok: true, status: "idle", kind: "idle" };
  }
  const request = intentRequest(bot.countryId, intent);
  const start = performance.now();
  const res = await http.request(request.method, request.path, { body: request.body, token: bot.token, route: request.route });
  let recorder = ctx.stats.intentLatency.get(intent.kind);
  if (!recorder) ctx.stats.intentLatency.set(intent.kind, (recorder = new LatencyRecorder()));
  recorder.record(performance.now() - start);
  // whatever the answer, what the intent acted on is read again before it counts on it
  const changed = CONCERN_OF_KIND[intent.kind];
  if (changed) delete state.concerns[changed];

  const verdict = verdictOf(res);
  if (verdict === "ok") {
    const country = res.body?.country as OwnCountryJson | undefined;
    if (country && typeof country === "object") {
      state.own = country;
      state.ownAt = performance.now();
      learnCountry(bot, country);
    } else {
      state.ownStale = true;
    }
    const consumed = Number(res.body?.turnResult?.turnsConsumed);
    return { ok: true, status: res.status, kind: intent.kind, ...(Number.isFinite(consumed) ? { turnsConsumed: consumed } : {}) };
  }
  // The world moved (or something broke): look again before the next decision; a refused
  // attack also means the target list is out of date.
  state.ownStale = true;
  if (intent.kind === "attack") state.surroundingsAt = 0;
  const status = res.status || (res.failure === "timeout" ? "timeout" : "network");
  const code = (res.body as { code?: unknown } | undefined)?.code;
  const message = `${typeof code === "string" ? `${code}: ` : ""}${errorMessageOf(res)}`;
  return { ok: false, refused: verdict === "refused", status, kind: intent.kind, message };
}
