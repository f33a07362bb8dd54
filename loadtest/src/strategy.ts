import {
  attackLaunchRequestSchema,
  buyListingRequestSchema,
  createAllianceSchema,
  createListingRequestSchema,
  createStandingOrderRequestSchema,
  ownRecordRequestSchema,
  bonusPurchaseSchema,
  joinAllianceSchema,
  missionRequestSchema,
  proposalSchema,
  spyExecuteRequestSchema,
  spyTrainRequestSchema,
  constructBatchRequestSchema,
  countryStateFromOwnJson,
  exploreRequestSchema,
  processProductionRequestSchema,
  researchAllocateRequestSchema,
  researchGenerateRequestSchema,
  storeTradeRequestSchema,
  type AllianceJson,
  type AllianceStatusJson,
  type ApplicationsJson,
  type BattleReportsResponse,
  type BrigadesResponse,
  type DiplomaticRelationsJson,
  type IntelligenceStatusJson,
  type KnownIntelligenceResponse,
  type ListedCountryJson,
  type ListingJson,
  type OwnCountryJson,
  type StandingOrderJson,
  type PublicCountryJson,
  type StoreItemJson,
  type WarDeclarationJson,
} from "@game/schema/api";
import {
  AI_MARKET_ITEMS,
  AI_PERSONALITIES,
  AI_REPELLED_MEMORY_HOURS,
  AI_PROFILES,
  nextAiIntent,
  Rng,
  selectAiTargets,
  type AiArmyUnit,
  type AiIntent,
  type AiIntentKind,
  type AiListing,
  type AiPersonality,
  type AiTarget,
  type AiView,
  type BrigadeRecord,
  type MarketItemType,
  type MissionTypeId,
} from "@game/schema/rules";
import type { JsonResponse } from "./httpClient.js";
import { apiPattern, routes, type AnyRoute } from "@game/schema/routes";

/**
 * The strategy driver's pure half ("one strategy code, two drivers", issue 14): the server
 * plays AI countries with `nextAiIntent` through its service functions
 * (server/src/services/ai.ts); the load tester plays its bots with the same function through
 * the REST routes a player's browser calls. This file builds the AiView from REST answers and
 * turns an intent into the request. The IO half is play.ts.
 *
 * A new AiIntent kind fails to compile until it has an entry in INTENT_ROUTES and a case in
 * intentRequest (the `never` check at the end of the switch).
 */

/** A REST route as the server's metrics label it. */
export interface StrategyRoute {
  method: "GET" | "POST";
  route: string;
}

/** A catalogue entry as the tester counts its requests: its method and the pattern the server's metrics name. */
export function routeRef<E extends AnyRoute & { method: "GET" | "POST" }>(entry: E): { method: E["method"]; route: string; entry: E } {
  return { method: entry.method, route: apiPattern(entry), entry };
}

/** Route and the server's `game_actions_total` label of each intent kind. */
export const INTENT_ROUTES: { readonly [K in AiIntentKind]: StrategyRoute & { serverAction: string } } = {
  explore: { ...routeRef(routes.explore), serverAction: "explore" },
  build: { ...routeRef(routes.constructBatch), serverAction: "construct" },
  research_generate: { ...routeRef(routes.researchGenerate), serverAction: "research" },
  research_allocate: { ...routeRef(routes.researchAllocate), serverAction: "research_allocate" },
  produce: { ...routeRef(routes.processProduction), serverAction: "production" },
  store_sell: { ...routeRef(routes.storeSell), serverAction: "market_store_sell" },
  store_buy: { ...routeRef(routes.storeBuy), serverAction: "market_store_buy" },
  attack: { ...routeRef(routes.attackLaunch), serverAction: "attack" },
  spy_train: { ...routeRef(routes.spyTrain), serverAction: "espionage.train" },
  spy_mission: { ...routeRef(routes.mission), serverAction: "espionage.mission" },
  spy_operation: { ...routeRef(routes.spyExecute), serverAction: "espionage.operation" },
  market_list: { ...routeRef(routes.createListing), serverAction: "market_list" },
  market_buy: { ...routeRef(routes.buyListing), serverAction: "market_buy" },
  market_order: { ...routeRef(routes.createStandingOrder), serverAction: "market_order_create" },
  market_cancel_order: { ...routeRef(routes.controlStandingOrder), serverAction: "market_order_cancel" },
  alliance_bonus: { ...routeRef(routes.purchaseBonus), serverAction: "alliance.bonus" },
  alliance_create: { ...routeRef(routes.createAlliance), serverAction: "alliance.create" },
  alliance_apply: { ...routeRef(routes.joinAlliance), serverAction: "alliance.apply" },
  alliance_accept: { ...routeRef(routes.acceptApplication), serverAction: "alliance.application.accept" },
  alliance_reject: { ...routeRef(routes.rejectApplication), serverAction: "alliance.application.reject" },
  diplomacy_propose: { ...routeRef(routes.propose), serverAction: "diplomacy.propose" },
  diplomacy_accept: { ...routeRef(routes.acceptProposal), serverAction: "diplomacy.accept" },
  diplomacy_reject: { ...routeRef(routes.rejectProposal), serverAction: "diplomacy.reject" },
};

/**
 * What the driver reads to build a view (the own country comes with every action's answer
 * too): the required fields, then each optional concern's routes (VIEW_CONCERNS).
 */
export const VIEW_ROUTES = {
  country: routeRef(routes.country),
  rank: routeRef(routes.networthRankings),
  countries: routeRef(routes.countries),
  wars: routeRef(routes.warDeclarations),
  store: routeRef(routes.store),
  // military
  brigades: routeRef(routes.brigades),
  battleReports: routeRef(routes.battleReports),
  // espionage
  intelStatus: routeRef(routes.intelligenceStatus),
  intelKnown: routeRef(routes.knownIntelligence),
  // market
  listings: routeRef(routes.marketListings),
  orders: routeRef(routes.ownStandingOrders),
  // alliance
  allianceStatus: routeRef(routes.allianceStatus),
  applications: routeRef(routes.allianceApplications),
  alliances: routeRef(routes.allianceList),
  // diplomacy
  relations: routeRef(routes.diplomaticRelations),
} as const satisfies Record<string, StrategyRoute>;

/** One intent as the request a player's browser sends. */
export interface IntentRequest extends StrategyRoute {
  /** path with the query, under the server origin */
  path: string;
  body: unknown;
  /** the server's game_actions_total label of a committed one */
  serverAction: string;
}

function post(kind: AiIntentKind, body: unknown, params: Record<string, number | string> = {}): IntentRequest {
  const { method, route, serverAction } = INTENT_ROUTES[kind];
  const path = route.replace(/:(\w+)/g, (_, name: string) => String(params[name]));
  return { method, route, path, body, serverAction };
}

/**
 * The request `intent` becomes for `countryId`; bodies go through the shared validators, so
 * a body the server would refuse as malformed throws here instead.
 */
export function intentRequest(countryId: number, intent: AiIntent): IntentRequest {
  switch (intent.kind) {
    case "explore":
      return post(intent.kind, exploreRequestSchema.parse({ countryId, turnsToSpend: intent.turns }));
    case "build":
      // the build screen's one all-or-nothing call for every ordered type (client/src/api/endpoints.ts)
      return post(intent.kind, constructBatchRequestSchema.parse({ countryId, orders: intent.order }));
    case "research_generate":
      return post(intent.kind, researchGenerateRequestSchema.parse({ countryId }));
    case "research_allocate":
      return post(intent.kind, researchAllocateRequestSchema.parse({ countryId, allocations: intent.allocations }));
    case "produce":
      return post(intent.kind, processProductionRequestSchema.parse({ countryId, turnsToProcess: intent.turns }));
    case "store_sell":
    case "store_buy":
      return post(intent.kind, storeTradeRequestSchema.parse({ countryId, itemId: intent.item, quantity: intent.quantity }));
    case "attack":
      return post(intent.kind, attackLaunchRequestSchema.parse({ countryId, targetCountryId: intent.targetId, attackType: intent.attackType, units: intent.units }));
    case "spy_train":
      return post(intent.kind, spyTrainRequestSchema.parse({ countryId, quantity: intent.quantity }));
    case "spy_mission":
      return post(intent.kind, missionRequestSchema.parse({ type: intent.missionType, targetCountryId: intent.targetId, spiesUsed: intent.spiesUsed }));
    case "spy_operation":
      return post(intent.kind, spyExecuteRequestSchema.parse({ operationType: intent.operationType, targetCountryId: intent.targetId, spiesUsed: intent.spiesUsed }));
    case "market_list":
      return post(intent.kind, createListingRequestSchema.parse({ countryId, itemType: intent.item, quantity: intent.quantity, pricePerUnit: intent.pricePerUnit }));
    case "market_buy":
      return post(intent.kind, buyListingRequestSchema.parse({ countryId, quantity: intent.quantity }), { id: intent.listingId });
    case "market_order":
      return post(intent.kind, createStandingOrderRequestSchema.parse({ countryId, itemType: intent.item, quantity: intent.quantity, maxPrice: intent.maxPrice, priority: intent.priority, autoRenew: false }));
    case "market_cancel_order":
      return post(intent.kind, ownRecordRequestSchema.parse({ countryId }), { id: intent.orderId, control: "cancel" });
    case "alliance_bonus":
      return post(intent.kind, bonusPurchaseSchema.parse({ bonusId: intent.bonusId }));
    case "alliance_create":
      return post(intent.kind, createAllianceSchema.parse({ name: intent.name, tag: intent.tag, description: intent.description, flag: intent.flag }));
    case "alliance_apply":
      return post(intent.kind, joinAllianceSchema.parse({ allianceId: intent.allianceId, message: intent.message }));
    case "alliance_accept":
    case "alliance_reject":
      return post(intent.kind, {}, { id: intent.applicationId });
    case "diplomacy_propose":
      return post(intent.kind, proposalSchema.parse({ toCountryId: intent.toCountryId, relationType: intent.relationType, message: intent.message }));
    case "diplomacy_accept":
    case "diplomacy_reject":
      return post(intent.kind, {}, { id: intent.proposalId });
    default:
      return unmapped(intent);
  }
}

/** Compile-time exhaustiveness: a kind added to AiIntent and not mapped above lands here. */
function unmapped(intent: never): never {
  throw new Error(`No REST mapping for AI intent ${JSON.stringify(intent)}`);
}

// --- the view -----------------------------------------------------------------------------

/** Countries read around the own rank from GET /api/countries (half above, half below). */
export const VIEW_PAGE = 60;

/** The attack rules' public facts of a country from its public (or own) JSON view. */
export function targetFactsOf(json: PublicCountryJson): AiTarget {
  const protectedUntil = Date.parse(json.protected_until);
  return {
    id: Number(json.id),
    networth: Number(json.networth),
    land: Number(json.land),
    protectedUntil: Number.isFinite(protectedUntil) ? protectedUntil : 0,
    gdiMember: Boolean(json.gdi_protection),
    isEliminated: Boolean(json.is_eliminated),
    allianceId: json.alliance_id ?? null,
  };
}

/** Offset of the GET /api/countries page centred on 1-based `rank` (the listing is by networth, descending). */
export function listingOffset(rank: number, page = VIEW_PAGE): number {
  return Math.max(0, Math.floor(rank) - 1 - Math.floor(page / 2));
}

/**
 * The AiView a bot sees, built from REST answers the way the server builds it from rows:
 * its own country (GET /api/country/:id or the last action's `country`), the countries listed
 * around its networth (GET /api/countries page) reduced by the server's selectAiTargets
 * (40%..120% of its networth, most land per networth first, at most 20), and the wars it
 * declared that have not ended (GET /api/war/declarations), and its store's stock and demand
 * (what it still buys; GET /api/market/store/:countryId). The land targets lost today is not
 * read (the server's view has it from battles); a bot may pick a capped target, which the
 * combat rules then answer.
 */
export function buildAiView(input: { own: OwnCountryJson; listed: readonly PublicCountryJson[]; wars: readonly WarDeclarationJson[]; store: readonly StoreItemJson[]; now: number }): AiView {
  const stockOf = (item: AiArmyUnit) => input.store.find((i) => i.id === item)?.stock ?? 0;
  const demandOf = (item: AiArmyUnit | "food") => input.store.find((i) => i.id === item)?.demand ?? 0;
  const self = targetFactsOf(input.own);
  return {
    countryId: self.id,
    country: countryStateFromOwnJson(input.own),
    self,
    targets: selectAiTargets(input.listed.map(targetFactsOf), self),
    atWarWith: new Set(input.wars.flatMap((w) => (w.isDeclarer && w.endedAt === null && w.targetId !== null ? [w.targetId] : []))),
    now: input.now,
    storeStock: { troops: stockOf("troops"), turrets: stockOf("turrets"), tanks: stockOf("tanks") },
    storeDemand: { troops: demandOf("troops"), turrets: demandOf("turrets"), tanks: demandOf("tanks"), food: demandOf("food") },
  };
}

// --- the optional concerns ------------------------------------------------------------------

/**
 * The optional parts of AiView, by the screen a player would open to see them. Each is read
 * over the routes its AiView fields name (VIEW_ROUTES) and only for a personality whose
 * strategy consults it (as the server's aiView flags them: attacking, spying, trading,
 * social).
 */
export const VIEW_CONCERNS = ["military", "espionage", "market", "alliance", "diplomacy"] as const;
export type ViewConcern = (typeof VIEW_CONCERNS)[number];

/** The AiView fields each concern fills. */
export const CONCERN_FIELDS = {
  military: ["brigades", "repelledBy"],
  espionage: ["espionage", "scouted", "knownForces"],
  market: ["listings", "ownListings", "orderItems"],
  alliance: ["alliance", "openAlliances", "appliedTo"],
  diplomacy: ["diplomacy"],
} as const satisfies Record<ViewConcern, readonly (keyof AiView)[]>;

/** What a concern puts into the view. */
export type ConcernFields = Partial<Pick<AiView, (typeof CONCERN_FIELDS)[ViewConcern][number]>>;

/** The concerns `personality`'s strategy consults (the server's aiView reads the same for it). */
export function concernsOf(personality: AiPersonality): ViewConcern[] {
  const p = AI_PROFILES[personality];
  const out: ViewConcern[] = [];
  if (p.attackAppetite > 0) out.push("military");
  if (p.spyAppetite > 0) out.push("espionage");
  if (p.marketAppetite > 0) out.push("market");
  if (p.allianceAppetite > 0 || p.diplomacyAppetite > 0) out.push("alliance", "diplomacy");
  return out;
}

/**
 * The market items whose book a personality reads: food (every AI buys food when short) and
 * what it buys or sells, in AI_MARKET_ITEMS order. The server's view has the cheapest listing
 * of every AI_MARKET_ITEMS item; the strategy looks only at these (a trader's spy target, the
 * seller of the first listing, is a food or oil seller here, and any item's on the server
 * when there is neither).
 */
export function marketItemsOf(personality: AiPersonality): MarketItemType[] {
  const p = AI_PROFILES[personality];
  return AI_MARKET_ITEMS.filter((item) => item === "food" || p.marketBuys.includes(item) || p.marketSells.includes(item));
}

const msOf = (iso: string | null): number | null => (iso === null ? null : Date.parse(iso));

/**
 * Its brigades from GET /military/brigades/:countryId (the slot is the brigade id). The answer
 * gives each brigade's readiness at `readAt`; the rules add recovery from there, which counts
 * the hour already begun as not yet begun (a brigade looks ready a little later than it is).
 * And the countries that threw back its attacks in the last AI_REPELLED_MEMORY_HOURS, from its
 * own reports (GET /battle-reports?role=attacker&outcome=defeat, newest first).
 */
export function militaryFields(res: BrigadesResponse, defeats: BattleReportsResponse, readAt: number): ConcernFields {
  const since = readAt - AI_REPELLED_MEMORY_HOURS * 3_600_000;
  const repelledBy = new Set(defeats.reports.flatMap((r) => (r.defenderCountryId !== null && Date.parse(r.timestamp) > since ? [r.defenderCountryId] : [])));
  const brigades: BrigadeRecord[] = res.brigades.map((b) => ({
    slot: b.id,
    readiness: b.readiness,
    readinessAt: readAt,
    deployedUntil: msOf(b.deployedUntil),
    rehabUntil: msOf(b.rehabUntil),
    lastDeployed: msOf(b.lastDeployed),
  }));
  return { brigades, repelledBy };
}

/**
 * Its spy counters from GET /intelligence/status/:countryId, as they stand at `now` (a read at
 * `readAt` of cooldowns left in ms, and of today's counts, which start again at `resetAt`), and
 * the countries it holds fresh military intelligence on from GET /intelligence/known (its own
 * reports and those shared with its alliance: what the attack screen shows a player), with
 * the forces each report estimates.
 */
export function espionageFields(status: IntelligenceStatusJson, known: KnownIntelligenceResponse["known"], readAt: number, now: number): ConcernFields {
  const newDay = now >= status.resetAt;
  const cooldowns: Partial<Record<MissionTypeId, number>> = {};
  for (const [id, left] of Object.entries(status.cooldowns) as Array<[MissionTypeId, number]>) cooldowns[id] = Math.max(0, left - (now - readAt));
  return {
    espionage: { used: newDay ? 0 : status.operationsUsed, byKind: newDay ? {} : status.usedByKind, cooldowns },
    scouted: new Set(Object.keys(known).map(Number)),
    knownForces: new Map(
      Object.entries(known).flatMap(([id, k]) => (k.estimatedUnits ? [[Number(id), { troops: k.estimatedUnits.troops, jets: k.estimatedUnits.jets, turrets: k.estimatedUnits.turrets, tanks: k.estimatedUnits.tanks }] as const] : [])),
    ),
  };
}

/**
 * The market from GET /market/listings?itemType= of each item it reads (cheapest first, own
 * listings marked) and its standing orders from GET /market/standing-orders/:countryId: the
 * cheapest listing by another country per item, its own open listings, and the items of its
 * open orders (null when not read: a personality with no standing-order item never looks).
 */
export function marketFields(books: ReadonlyArray<readonly ListingJson[]>, orders: readonly StandingOrderJson[] | null): ConcernFields {
  const listings: AiListing[] = [];
  let ownListings = 0;
  for (const book of books) {
    ownListings += book.filter((l) => l.isOwnListing).length;
    const cheapest = book.find((l) => !l.isOwnListing && l.status === "open" && l.quantity > 0);
    if (cheapest) listings.push({ id: cheapest.id, sellerId: cheapest.sellerId, item: cheapest.itemType, quantity: cheapest.quantity, pricePerUnit: cheapest.pricePerUnit });
  }
  const open = new Set<string>(["pending", "active", "partial"]);
  return { listings, ownListings, orderItems: (orders ?? []).filter((o) => open.has(o.status)).map((o) => o.itemType) };
}

/**
 * Its alliance from GET /alliance/status/:countryId (id, member count, role) and GET
 * /alliance/applications (`received`, which only a leader is shown, and `mine`), and, outside
 * an alliance, the alliances taking applications from GET /alliance/list (null: not read).
 */
export function allianceFields(status: AllianceStatusJson, applications: ApplicationsJson, list: readonly AllianceJson[] | null): ConcernFields {
  const a = status.alliance;
  return {
    alliance: a ? { id: a.id, role: status.role ?? "member", memberCount: a.memberCount, applications: applications.received.map((r) => ({ id: r.id, applicantId: r.applicantId })) } : null,
    openAlliances: (list ?? []).filter((l) => l.requirements.acceptApplications).map((l) => ({ id: l.id, memberCount: l.memberCount, minNetworth: l.requirements.minNetworth, minLand: l.requirements.minLand })),
    appliedTo: new Set(applications.mine.map((m) => m.allianceId)),
  };
}

/** Its relations and pending proposals either way from GET /diplomatic-relations/:countryId. */
export function diplomacyFields(d: DiplomaticRelationsJson): ConcernFields {
  return {
    diplomacy: {
      active: d.active.map((r) => ({ partnerId: r.partnerId, type: r.relationType, pays: r.pays })),
      incoming: d.incoming.map((p) => ({ id: p.id, fromCountryId: p.fromCountryId, type: p.relationType, expiresAt: Date.parse(p.expiresAt) })),
      outgoing: d.outgoing.map((p) => ({ toCountryId: p.toCountryId, type: p.relationType })),
    },
  };
}

/** Thrown by a field of a concern not read yet: the decision stops there (decideOnDemand catches it). */
class UnreadConcern {
  constructor(readonly concern: ViewConcern) {}
}

/**
 * `base` with the fields of the concerns in `loaded`; a field of any other concern of
 * `consulted` stops the decision that reads it (throws UnreadConcern, which decideOnDemand
 * catches). The strategy never copies the whole view, so only a look at a field stops it.
 */
export function viewOnDemand(base: AiView, consulted: readonly ViewConcern[], loaded: Partial<Record<ViewConcern, ConcernFields>>): AiView {
  const view: AiView = { ...base };
  for (const concern of consulted) {
    const fields = loaded[concern];
    if (fields) {
      Object.assign(view, fields);
      continue;
    }
    for (const field of CONCERN_FIELDS[concern]) {
      Object.defineProperty(view, field, {
        enumerable: false,
        get() {
          throw new UnreadConcern(concern);
        },
      });
    }
  }
  return view;
}

/**
 * nextAiIntent on `base` with the concerns it consults read on demand: it runs on
 * viewOnDemand; when it looks at a concern not in `loaded`, it stops there, `read` is asked
 * for that concern's fields, and it runs again from the same dice. Up to the first look at an
 * unread concern a run goes exactly as on a view with everything read (the same fields, the
 * same draws), so every concern read is one that decision looks at, and the intent and the
 * dice after it are those of nextAiIntent on the full view. At most one run per concern, plus
 * one. `rng` is not advanced: the caller keeps the answered `rng` when it acts on the intent.
 */
export async function decideOnDemand(input: {
  base: AiView;
  personality: AiPersonality;
  rng: Rng;
  loaded: Partial<Record<ViewConcern, ConcernFields>>;
  read(concern: ViewConcern): Promise<ConcernFields>;
}): Promise<{ intent: AiIntent | null; rng: Rng; read: ViewConcern[] }> {
  const consulted = concernsOf(input.personality);
  const loaded = { ...input.loaded };
  const read: ViewConcern[] = [];
  for (;;) {
    const rng = Rng.fromState(input.rng.state);
    let unread: ViewConcern;
    try {
      return { intent: nextAiIntent(viewOnDemand(input.base, consulted, loaded), input.personality, rng), rng, read };
    } catch (err) {
      if (!(err instanceof UnreadConcern)) throw err;
      unread = err.concern;
    }
    loaded[unread] = await input.read(unread);
    read.push(unread);
  }
}

// --- bots' personalities and dice ---------------------------------------------------------

/** A bot's own seed from the run's: the same --seed gives every bot the same dice. */
export function botSeed(runSeed: number, botIndex: number): number {
  return (runSeed ^ Math.imul(botIndex + 1, 0x9e3779b1)) >>> 0;
}

/** The personality of bot `botIndex`, drawn evenly from the run's seed. */
export function personalityOf(runSeed: number, botIndex: number): AiPersonality {
  return AI_PERSONALITIES[Rng.fromSeed(botSeed(runSeed, botIndex)).int(0, AI_PERSONALITIES.length - 1)]!;
}

/** The dice a bot's strategy draws from (a stream apart from the personality draw). */
export function strategyRng(runSeed: number, botIndex: number): Rng {
  return Rng.fromSeed((botSeed(runSeed, botIndex) ^ 0x5bd1e995) >>> 0);
}

/** The dice of a bot's alliance-room messages: a third stream, so using the room leaves the strategy's draws alone. */
export function roomRng(runSeed: number, botIndex: number): Rng {
  return Rng.fromSeed((botSeed(runSeed, botIndex) ^ 0x27d4eb2f) >>> 0);
}

// --- outcomes -----------------------------------------------------------------------------

/** How an intent's answer counts: ok, refused by a game rule, or an error. */
export type IntentVerdict = "ok" | "refused" | "error";

/** Code namespaces that are not a game rule's: malformed requests, auth, rate limits. */
const NON_RULE_NAMESPACES = new Set(["request", "auth", "server"]);

/**
 * 2xx is ok; a 4xx carrying a rule's namespaced code (`combat/target_protected`,
 * `exploration/insufficient_funds`) is a refusal, the world having moved between the look and
 * the act, as for a person; everything else (5xx, time-outs, 401/403/429, a malformed request)
 * is an error.
 */
export function verdictOf(res: JsonResponse): IntentVerdict {
  if (res.status >= 200 && res.status < 300) return "ok";
  if (res.status >= 400 && res.status < 500 && res.status !== 401 && res.status !== 403 && res.status !== 429) {
    const code = (res.body as { code?: unknown } | undefined)?.code;
    if (typeof code === "string" && code.includes("/") && !NON_RULE_NAMESPACES.has(code.split("/")[0]!)) return "refused";
  }
  return "error";
}

/** A concern as read: when (performance.now()) and its fields for the decision's time. */
export interface ConcernRead {
  at: number;
  fields(now: number): ConcernFields;
}

/**
 * What one bot's strategy remembers between plays (play.ts keeps it on the bot). Here, beside
 * the concerns it holds, so that bots.ts names it without an import circle through play.ts.
 */
export interface StrategyState {
  personality: AiPersonality;
  rng: Rng;
  /** the dice of its alliance-room messages, apart from the strategy's */
  roomRng: Rng;
  own?: OwnCountryJson;
  /** performance.now() of the own country's last answer */
  ownAt: number;
  /** read the own country before the next decision (after a refusal, an error or an idle look) */
  ownStale: boolean;
  listed?: ListedCountryJson[];
  wars?: WarDeclarationJson[];
  /** its Government Store (stock), read with the own country */
  store?: StoreItemJson[];
  /** performance.now() of the last target-list read */
  surroundingsAt: number;
  /** the optional concerns it has read */
  concerns: Partial<Record<ViewConcern, ConcernRead>>;
  /** performance.now() before which a failed alliance-room join is not tried again */
  roomRetryAt: number;
  /** performance.now() when the answers to its latest chat lines arrived (at most CHAT_RATE_LIMIT_MESSAGES) */
  chatAnsweredAt: number[];
  /** the play in flight: one bot's plays run one after another, as a player clicks */
  queue: Promise<unknown>;
}
