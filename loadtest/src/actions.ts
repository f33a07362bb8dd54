import { constructRequestSchema, exploreRequestSchema, rankingsQuerySchema, researchAllocateRequestSchema, researchGenerateRequestSchema, sendChatRequestSchema } from "@game/schema/api";
import { WorldMessage, sendChatSchema } from "@game/schema/messages";
import { computeTechnologyCost, isGovernmentType, STARTING_GOVERNMENT } from "@game/schema/rules";
import { learnCountry, type Bot } from "./bots.js";
import type { ActionOutcome } from "./outcome.js";
import { errorMessageOf, type JsonHttpClient, type JsonResponse } from "./httpClient.js";
import { playStrategy, type StrategyContext } from "./play.js";
import type { ChatTracker } from "./realtime.js";
import { INTENT_ROUTES, VIEW_ROUTES, routeRef } from "./strategy.js";
import { apiUrl, routes } from "@game/schema/routes";

export type { ActionOutcome };

/** A REST route as the server's metrics label it. */
export interface RouteRef {
  method: string;
  route: string;
}

/** What an action may use besides its bot. */
export interface ActionContext {
  http: JsonHttpClient;
  chat: ChatTracker;
  /** channel the chat actions post to */
  chatChannel: string;
  /** the strategy driver's seed and counters (the play action) */
  strategy: StrategyContext;
}

/**
 * One kind of player action. Attack, market and alliance actions plug in as further entries
 * of ACTIONS; the mix (--mix) names them with weights.
 */
export interface ActionDefinition {
  name: string;
  summary: string;
  /** weight in the default mix; 0 keeps it available but off */
  defaultWeight: number;
  /** REST routes it may call, for comparing the tester's counts with the server's */
  routes: readonly RouteRef[];
  /** sends through the world room, so the bot must have joined */
  needsRoom?: boolean;
  /** runs once for `bot`; must not throw (a thrown error is counted as status "exception") */
  run(bot: Bot, ctx: ActionContext): Promise<ActionOutcome>;
}

/** Turns an HTTP answer into an outcome; 2xx is success. */
function outcomeOf(res: JsonResponse): ActionOutcome {
  if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status };
  if (res.status === 0) return { ok: false, status: res.failure === "timeout" ? "timeout" : "network", message: errorMessageOf(res) };
  return { ok: false, status: res.status, message: errorMessageOf(res) };
}

/** Outcome of a turn-spending action: learns the country and the turns it consumed. */
function turnOutcome(bot: Bot, res: JsonResponse): ActionOutcome {
  const outcome = outcomeOf(res);
  if (outcome.ok) {
    learnCountry(bot, res.body?.country);
    const consumed = Number(res.body?.turnResult?.turnsConsumed);
    if (Number.isFinite(consumed)) outcome.turnsConsumed = consumed;
  }
  return outcome;
}

const EXPLORE: RouteRef = routeRef(routes.explore);
const CONSTRUCT: RouteRef = routeRef(routes.construct);
const RESEARCH_GENERATE: RouteRef = routeRef(routes.researchGenerate);
const RESEARCH_ALLOCATE: RouteRef = routeRef(routes.researchAllocate);
const RESEARCH_STATUS: RouteRef = routeRef(routes.researchStatus);
const RANKINGS: RouteRef = routeRef(routes.networthRankings);
const COUNTRY: RouteRef = routeRef(routes.country);
const CHAT_SEND: RouteRef = routeRef(routes.sendChat);

/** Buildings the build action alternates between (one of each per call). */
const BUILD_TYPES = ["farms", "residences"] as const;

/** The technology the research action levels: agricultural needs no prerequisite. */
const RESEARCH_TECH = "agricultural";

export const ACTIONS: readonly ActionDefinition[] = [
  {
    name: "explore",
    summary: "POST /api/exploration/explore, 1 turn",
    defaultWeight: 25,
    routes: [EXPLORE],
    async run(bot, ctx) {
      const body = exploreRequestSchema.parse({ countryId: bot.countryId, turnsToSpend: 1 });
      return turnOutcome(bot, await ctx.http.request("POST", EXPLORE.route, { body, token: bot.token, route: EXPLORE.route }));
    },
  },
  {
    name: "build",
    summary: "POST /api/buildings/construct, 1 farm or 1 residence (alternating)",
    defaultWeight: 15,
    routes: [CONSTRUCT],
    async run(bot, ctx) {
      const buildingType = BUILD_TYPES[bot.builds++ % BUILD_TYPES.length]!;
      const body = constructRequestSchema.parse({ countryId: bot.countryId, buildingType, quantity: 1 });
      return turnOutcome(bot, await ctx.http.request("POST", CONSTRUCT.route, { body, token: bot.token, route: CONSTRUCT.route }));
    },
  },
  {
    name: "research",
    summary: "POST /api/research/allocate when the bot holds enough points for a level, else POST /api/research/generate (1 turn)",
    defaultWeight: 10,
    routes: [RESEARCH_GENERATE, RESEARCH_ALLOCATE],
    async run(bot, ctx) {
      const { researchPoints = 0, researchLabs = 0, agriculturalTech = 0, governmentType } = bot.known;
      const government = isGovernmentType(governmentType) ? governmentType : STARTING_GOVERNMENT;
      const cost = computeTechnologyCost(RESEARCH_TECH, agriculturalTech, government);
      if (researchLabs > 0 && researchPoints >= cost) {
        const body = researchAllocateRequestSchema.parse({ countryId: bot.countryId, allocations: { [RESEARCH_TECH]: cost } });
        const res = await ctx.http.request("POST", RESEARCH_ALLOCATE.route, { body, token: bot.token, route: RESEARCH_ALLOCATE.route });
        return turnOutcome(bot, res);
      }
      const body = researchGenerateRequestSchema.parse({ countryId: bot.countryId });
      return turnOutcome(bot, await ctx.http.request("POST", RESEARCH_GENERATE.route, { body, token: bot.token, route: RESEARCH_GENERATE.route }));
    },
  },
  {
    name: "chat",
    summary: "sendChat room message to 'general'; done when another bot's room shows it",
    defaultWeight: 10,
    routes: [],
    needsRoom: true,
    async run(bot, ctx) {
      const room = bot.room;
      if (!room || !room.connection?.isOpen) return { ok: false, status: "not_joined", message: "bot has no open world room" };
      const { seq, content } = ctx.chat.nextContent();
      const payload = sendChatSchema.parse({ channel: ctx.chatChannel, content });
      const delivered = ctx.chat.track(seq, bot.index);
      bot.lastChatSeq = seq;
      try {
        room.send(WorldMessage.sendChat, payload);
      } catch (err) {
        ctx.chat.fail(seq, `send failed: ${(err as Error).message}`);
        return { ok: false, status: "ws", message: (err as Error).message };
      }
      const outcome = await delivered;
      return outcome.ok ? { ok: true, status: "delivered" } : { ok: false, status: outcome.status, message: outcome.message };
    },
  },
  {
    name: "chat_rest",
    summary: "POST /api/chat/send to 'general' (REST path of chat; off by default)",
    defaultWeight: 0,
    routes: [CHAT_SEND],
    async run(bot, ctx) {
      const { content } = ctx.chat.nextContent();
      const body = sendChatRequestSchema.parse({ channel: ctx.chatChannel, content });
      return outcomeOf(await ctx.http.request("POST", CHAT_SEND.route, { body, token: bot.token, route: CHAT_SEND.route }));
    },
  },
  {
    name: "rankings",
    summary: "GET /api/rankings/networth?limit=100",
    defaultWeight: 20,
    routes: [RANKINGS],
    async run(bot, ctx) {
      const { limit } = rankingsQuerySchema.parse({ limit: 100 });
      return outcomeOf(await ctx.http.request("GET", `${RANKINGS.route}?limit=${limit}`, { token: bot.token, route: RANKINGS.route }));
    },
  },
  {
    name: "country",
    summary: "GET /api/country/:id of the bot's own country",
    defaultWeight: 20,
    routes: [COUNTRY],
    async run(bot, ctx) {
      const res = await ctx.http.request("GET", apiUrl(routes.country, { params: { id: bot.countryId } }), { token: bot.token, route: COUNTRY.route });
      if (res.status === 200) learnCountry(bot, res.body?.country);
      return outcomeOf(res);
    },
  },
  {
    name: "play",
    summary:
      "the AI strategy (schema nextAiIntent) with the bot's personality: reads its view over REST (brigades, espionage, market, alliance and " +
      "diplomacy when the decision looks at them), then sends the intent's route (build, explore, research, production, store, attack, spy, " +
      "market listings, purchases and standing orders, alliances, diplomacy); in an alliance, with rooms, also alliance-room messages " +
      "(chat, plan and answer operations); reported per kind (off by default)",
    defaultWeight: 0,
    routes: [...Object.values(VIEW_ROUTES), ...Object.values(INTENT_ROUTES).map(({ method, route }) => ({ method, route }))],
    run: (bot, ctx) => playStrategy(bot, ctx.http, ctx.strategy),
  },
  {
    name: "research_status",
    summary: "GET /api/research/status/:countryId (off by default)",
    defaultWeight: 0,
    routes: [RESEARCH_STATUS],
    async run(bot, ctx) {
      return outcomeOf(await ctx.http.request("GET", apiUrl(routes.researchStatus, { params: { countryId: bot.countryId } }), { token: bot.token, route: RESEARCH_STATUS.route }));
    },
  },
];

/** The registry by name. */
export const ACTIONS_BY_NAME: ReadonlyMap<string, ActionDefinition> = new Map(ACTIONS.map((a) => [a.name, a]));

/** The default mix: every action's defaultWeight. */
export function defaultMix(): Record<string, number> {
  return Object.fromEntries(ACTIONS.map((a) => [a.name, a.defaultWeight]));
}
