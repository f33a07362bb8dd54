import crypto from "node:crypto";
import {
  AI_MARKET_ITEMS,
  AI_REPELLED_MEMORY_HOURS,
  AI_PROFILES,
  MISSION_TYPES,
  MISSION_TYPE_IDS,
  Rng,
  aiPaysRelation,
  cooldownRemaining,
  nextAiIntent,
  pickAiGovernment,
  pickAiPersonality,
  selectAiTargets,
  computeStoreDemand,
  computeStoreStock,
  utcDay,
  type AiArmyUnit,
  type AiIntent,
  type AiPersonality,
  type AiTarget,
  type AiView,
  type AllianceRole,
  type MarketItemType,
  type MissionTypeId,
  type RelationType,
} from "@game/schema/rules";
import { withTransaction, type Db } from "../db/pool.js";
import { COUNTRY_COLUMNS, findCountryById, rowToState, type CountryRow } from "../db/countries.js";
import { hashPassword } from "../auth/passwords.js";
import { AppError, badRequest, isUniqueViolation, notFound } from "../errors.js";
import { logAdminAction } from "../db/admin.js";
import { requireAdmin } from "./admin.js";
import {
  buyListingRequestSchema,
  createAllianceSchema,
  createListingRequestSchema,
  createStandingOrderRequestSchema,
  firstIssueMessage,
  joinAllianceSchema,
  missionRequestSchema,
  proposalSchema,
  spyExecuteRequestSchema,
  spyTrainRequestSchema,
  type AiCountryJson,
} from "@game/schema/api";
import type { z } from "zod";
import { countryChangedEvents } from "./actions.js";
import { insertAccount } from "./accounts.js";
import { changeGovernment, constructBuildings, exploreLand, generateResearch, allocateResearch, processProduction } from "./economy.js";
import { buyListing, controlOrder, createListing, createStandingOrder, storeTrade } from "./market.js";
import { launchAttack } from "./combat.js";
import { executeSpyOperation, launchMission, trainSpies } from "./espionage.js";
import { answerApplication, applyToAlliance, createAlliance, purchaseBonus } from "./alliances.js";
import { answerProposal, proposeRelation } from "./diplomacy.js";
import { brigadeOf, type BrigadeRow } from "../db/military.js";
import type { ServiceContext } from "./context.js";

/**
 * AI countries (docs/architecture.md "AI countries", docs/rules.md "AI countries"). An AI
 * country is an ordinary country with an owner nobody can log in as; a strategy
 * (schema/src/rules/ai.ts) names its next action and this module runs it through the very
 * service function a player's request reaches, as that owner. So protection, daily caps,
 * turn costs, locks, history, events and metrics are a player's; a refusal is a refusal.
 *
 * Rounds run on their own schedule (services/aiSchedule.ts); each claims the AI countries
 * that waited longest with FOR UPDATE SKIP LOCKED, so rounds in several processes never play
 * one country at once, and spends at most `aiActionsPerRound` actions in all.
 */

export interface AiCountryRow {
  country_id: number;
  personality: AiPersonality;
  seed: string;
  paused: boolean;
  rounds: string;
  actions_total: string;
  refused_total: string;
  last_acted_at: Date | null;
}

/** The password hash of every AI owner: of 32 random bytes nobody keeps, so nobody logs in. */
let unusableHash: Promise<string> | undefined;

const NAME_STARTS = ["Ar", "Bel", "Cor", "Dra", "El", "Fen", "Gal", "Hel", "Ist", "Jor", "Kal", "Lum", "Mor", "Nor", "Ost", "Pra", "Qua", "Ros", "Sal", "Tor", "Ul", "Val", "Wes", "Xan", "Yor", "Zel"];
const NAME_ENDS = ["ania", "avia", "dor", "gard", "heim", "ia", "istan", "land", "mark", "mere", "onia", "ora", "oria", "stead", "thal", "vale"];

/** A country name for an AI: a drawn name, numbered when that name is taken. */
function aiCountryName(rng: Rng, attempt: number): string {
  const name = NAME_STARTS[rng.int(0, NAME_STARTS.length - 1)]! + NAME_ENDS[rng.int(0, NAME_ENDS.length - 1)]!;
  return attempt === 0 ? name : `${name} ${attempt + 1}`;
}

/**
 * Creates AI countries or pauses the newest until `target` play. New ones start as a player
 * does (the starting country, new-player protection), with a personality and a seed drawn
 * from `seed` (a fixed one replays the same world). Paused ones stay in the world as
 * ordinary, passive countries; they are played again when the target rises.
 */
export async function ensureAiCountries(ctx: ServiceContext, target: number, seed = crypto.randomInt(0, 2 ** 32)): Promise<{ created: number; resumed: number; paused: number }> {
  const { rows } = await ctx.db.query<{ country_id: string; paused: boolean }>("SELECT a.country_id, a.paused FROM ai_countries a JOIN countries c ON c.id = a.country_id WHERE NOT c.is_eliminated ORDER BY a.country_id");
  const playing = rows.filter((r) => !r.paused);
  const result = { created: 0, resumed: 0, paused: 0 };
  if (playing.length > target) {
    const extra = playing.slice(target).map((r) => Number(r.country_id));
    await ctx.db.query("UPDATE ai_countries SET paused = true WHERE country_id = ANY($1::bigint[])", [extra]);
    result.paused = extra.length;
    return result;
  }
  let missing = target - playing.length;
  const resumable = rows
    .filter((r) => r.paused)
    .slice(0, missing)
    .map((r) => Number(r.country_id));
  if (resumable.length > 0) {
    await ctx.db.query("UPDATE ai_countries SET paused = false WHERE country_id = ANY($1::bigint[])", [resumable]);
    result.resumed = resumable.length;
    missing -= resumable.length;
  }
  const rng = Rng.fromSeed(seed >>> 0);
  for (let i = 0; i < missing; i++) {
    await createAiCountry(ctx, pickAiPersonality(rng), rng.nextUint32(), rng);
    result.created += 1;
  }
  if (result.created + result.resumed + result.paused > 0) ctx.logger.info({ target, ...result }, "AI countries adjusted");
  return result;
}

/** One AI country with its owner, in one transaction; the name is redrawn when taken. */
export async function createAiCountry(ctx: ServiceContext, personality: AiPersonality, seed: number, rng: Rng): Promise<CountryRow> {
  unusableHash ??= hashPassword(crypto.randomBytes(32).toString("base64url"));
  const passwordHash = await unusableHash;
  for (let attempt = 0; ; attempt++) {
    const name = aiCountryName(rng, attempt);
    const handle = `ai_${crypto.randomBytes(6).toString("hex")}`;
    try {
      const country = await withTransaction(ctx.db, async (client) => {
        const { country: row } = await insertAccount(ctx, client, { email: `${handle}@ai.invalid`, username: handle, passwordHash, countryName: name });
        await client.query("UPDATE countries SET is_ai = true WHERE id = $1", [row.id]);
        await client.query("INSERT INTO ai_countries (country_id, personality, seed) VALUES ($1, $2, $3)", [row.id, personality, seed]);
        return { ...row, is_ai: true };
      });
      ctx.events.publishAll(countryChangedEvents(country, "registered"));
      // Its first decision, as a new player's: a government (the first change is free).
      const government = pickAiGovernment(rng);
      if (government === country.government_type) return country;
      await changeGovernment(ctx, Number(country.user_id), country.id, government);
      return (await findCountryById(ctx.db, country.id))!;
    } catch (err) {
      if (attempt < 50 && isUniqueViolation(err)) continue;
      throw err;
    }
  }
}

/** What one round did. */
export interface AiRoundResult {
  countries: number;
  actions: number;
  refused: number;
}

/**
 * One round: claims the AI countries that waited longest (skipping any another round holds)
 * and plays each up to `aiActionsPerCountry` actions, `aiActionsPerRound` in all.
 */
export async function playAiRound(ctx: ServiceContext, now: Date = new Date(ctx.clock.now())): Promise<AiRoundResult> {
  const { aiActionsPerRound: budget, aiActionsPerCountry: perCountry } = ctx.config;
  const result: AiRoundResult = { countries: 0, actions: 0, refused: 0 };
  if (budget <= 0 || perCountry <= 0) return result;
  const startedAt = performance.now();
  try {
    const sessionGapMs = ctx.config.aiSessionsPerDay > 0 ? Math.floor(86_400_000 / ctx.config.aiSessionsPerDay) : 0;
    const claimed = await claimDueAiCountries(ctx.db, Math.ceil(budget / perCountry), now, sessionGapMs);
    const world = new AiWorld(ctx.db, now);
    for (const ai of claimed) {
      const left = budget - result.actions - result.refused;
      if (left <= 0) break;
      const played = await playAiCountry(ctx, ai, Math.min(perCountry, left), now, world);
      result.countries += 1;
      result.actions += played.actions;
      result.refused += played.refused;
    }
  } finally {
    ctx.metrics.aiRoundDuration.observe((performance.now() - startedAt) / 1000);
  }
  return result;
}

/**
 * Marks the longest-waiting AI countries whose next session is due (their last began at least
 * `sessionGapMs` ago: AI_SESSIONS_PER_DAY sittings a day, as a person plays) as acting now and
 * answers them (several rounds never share one).
 */
async function claimDueAiCountries(db: Db, limit: number, now: Date, sessionGapMs: number): Promise<AiCountryRow[]> {
  const { rows } = await db.query<AiCountryRow>(
    `UPDATE ai_countries a SET last_acted_at = $2
      WHERE a.country_id IN (
        SELECT d.country_id FROM ai_countries d JOIN countries c ON c.id = d.country_id
         WHERE NOT d.paused AND NOT c.is_eliminated
           AND (d.last_acted_at IS NULL OR d.last_acted_at <= $2::timestamptz - $3 * interval '1 millisecond')
         ORDER BY d.last_acted_at NULLS FIRST, d.country_id
         LIMIT $1 FOR UPDATE OF d SKIP LOCKED)
      RETURNING a.*`,
    [limit, now, sessionGapMs],
  );
  return rows.sort((a, b) => Number(a.country_id) - Number(b.country_id));
}

/**
 * Plays one AI country: looks, decides, acts through the service, up to `budget` actions or
 * until the strategy stops or an action is refused (the world moved; it looks again next
 * round). Round r of a country draws from Rng(seed, r), so a run replays from its seeds.
 */
export async function playAiCountry(
  ctx: ServiceContext,
  ai: AiCountryRow,
  budget: number,
  now: Date = new Date(ctx.clock.now()),
  world: AiWorld = new AiWorld(ctx.db, now),
): Promise<{ actions: number; refused: number; intents: AiIntent[] }> {
  const rng = Rng.fromSeed((Number(ai.seed) ^ Math.imul(Number(ai.rounds) + 1, 0x9e3779b1)) >>> 0);
  const countryId = Number(ai.country_id);
  let actions = 0;
  let refused = 0;
  const intents: AiIntent[] = [];
  for (let i = 0; i < budget; i++) {
    const look = await aiView(ctx.db, countryId, now, ai.personality, world);
    if (!look || look.row.is_eliminated || look.row.user_id === null) break;
    const { row, view } = look;
    const intent = nextAiIntent(view, ai.personality, rng);
    if (!intent) break;
    intents.push(intent);
    try {
      await performAiIntent(ctx, Number(row.user_id), countryId, intent);
      if (intent.kind === "attack") world.battleFought();
      actions += 1;
      ctx.metrics.aiActions.inc({ kind: intent.kind, outcome: "done" });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      refused += 1;
      ctx.metrics.aiActions.inc({ kind: intent.kind, outcome: "refused" });
      ctx.logger.debug({ countryId, intent, code: err.code }, "AI action refused");
      break;
    }
  }
  await ctx.db.query("UPDATE ai_countries SET rounds = rounds + 1, actions_total = actions_total + $2, refused_total = refused_total + $3 WHERE country_id = $1", [countryId, actions, refused]);
  return { actions, refused, intents };
}

/**
 * What the AI sees: its own country and the public facts of the countries around its size,
 * and, for the personalities that use them, its espionage counters, the market, its alliance
 * and its diplomacy: what its player could read over REST (each field of AiView names the call).
 * Its own part in one round trip (`aiLook`): the country's row with one indexed sub-select per
 * part (docs/balance.md "Speed": an AI action was six round trips before), each part skipped
 * by a flag when the personality has no use for it; its targets chosen from `world` (read
 * once per round; a fresh one when none is given). Undefined when the country is gone.
 */
export async function aiView(db: Db, countryId: number, now: Date, personality?: AiPersonality, world: AiWorld = new AiWorld(db, now)): Promise<{ row: CountryRow; view: AiView } | undefined> {
  const profile = personality ? AI_PROFILES[personality] : null;
  const spying = (profile?.spyAppetite ?? 0) > 0;
  const trading = (profile?.marketAppetite ?? 0) > 0;
  const social = (profile?.allianceAppetite ?? 0) > 0 || (profile?.diplomacyAppetite ?? 0) > 0;
  const attacking = (profile?.attackAppetite ?? 0) > 0;
  const [look, seen] = await Promise.all([aiLook(db, countryId, now, { spying, trading, social, attacking }), world.read()]);
  if (!look) return undefined;
  const row = look;
  const extras = look;
  // the store's two clocks per item (as GET /market/store reads them): its stock and its demand
  const clock = (kind: "stock" | "demand") => new Map((look.ai_store ?? []).filter((s) => s.kind === kind).map((s) => [s.item_type, new Date(s.full_at).getTime()]));
  const [stockFullAt, demandFullAt] = [clock("stock"), clock("demand")];
  const stockOf = (item: AiArmyUnit | "food") => computeStoreStock(item, stockFullAt.get(item) ?? null, now.getTime());
  const country = rowToState(row);
  const demandOf = (item: AiArmyUnit | "food") => computeStoreDemand(item, country.land, demandFullAt.get(item) ?? null, now.getTime());
  const allianceId = row.alliance_id === null ? null : Number(row.alliance_id);
  const view: AiView = {
    countryId: row.id,
    country,
    self: targetFactsOfRow(row),
    targets: selectAiTargets(seen, { id: row.id, networth: Number(row.networth) }),
    atWarWith: new Set((look.ai_wars ?? []).map(Number)),
    now: now.getTime(),
    storeStock: { troops: stockOf("troops"), turrets: stockOf("turrets"), tanks: stockOf("tanks"), food: stockOf("food") },
    storeDemand: { troops: demandOf("troops"), turrets: demandOf("turrets"), tanks: demandOf("tanks"), food: demandOf("food") },
  };
  if (attacking) {
    view.brigades = (extras.brigades ?? []).map(brigadeOf);
    view.repelledBy = new Set((extras.repelled_by ?? []).map(Number));
  }
  if (spying) {
    // as GET /intelligence/status answers them (findUsage): counts today and each type's cooldown left
    const today = utcDay(now.getTime());
    const current = look.spy_day === today;
    const lastAt: Partial<Record<MissionTypeId, number>> = {};
    for (const [k, v] of Object.entries(look.spy_last_at ?? {})) lastAt[k as MissionTypeId] = new Date(v).getTime();
    const cooldowns: Partial<Record<MissionTypeId, number>> = {};
    for (const id of MISSION_TYPE_IDS) cooldowns[id] = cooldownRemaining(MISSION_TYPES[id], lastAt[id], now.getTime());
    view.espionage = { used: current ? (look.spy_used ?? 0) : 0, byKind: current ? (look.spy_by_kind ?? {}) : {}, cooldowns };
    view.scouted = new Set((extras.scouted ?? []).map((k) => Number(k.target_id)));
    // what its freshest report on each says of the target's forces (GET /intelligence/known)
    view.knownForces = new Map(
      (extras.scouted ?? []).flatMap((k) => (k.units ? [[Number(k.target_id), { troops: Number(k.units.troops), jets: Number(k.units.jets), turrets: Number(k.units.turrets), tanks: Number(k.units.tanks) }] as const] : [])),
    );
  }
  if (trading) {
    view.listings = (extras.listings ?? []).map((l) => ({ id: Number(l.id), sellerId: Number(l.seller_id), item: l.item_type, quantity: Number(l.quantity), pricePerUnit: Number(l.price_per_unit) }));
    view.ownListings = extras.own_listings ?? 0;
    view.orderItems = extras.order_items ?? [];
    view.orders = (extras.orders ?? []).map((o) => ({ id: Number(o.id), item: o.item_type, maxPrice: Number(o.max_price), heldCash: Number(o.held_cash) }));
  }
  if (social) {
    // a member without its member row counts as a plain member, as membershipIn reads it
    view.alliance =
      allianceId === null
        ? null
        : { id: allianceId, role: extras.role ?? "member", memberCount: extras.members ?? 0, applications: (extras.applications ?? []).map((a) => ({ id: Number(a.id), applicantId: Number(a.applicant_country_id) })) };
    view.openAlliances = (extras.open_alliances ?? []).map((a) => ({ id: Number(a.id), memberCount: Number(a.members), minNetworth: Number(a.min_networth), minLand: Number(a.min_land) }));
    view.appliedTo = new Set((extras.applied_to ?? []).map(Number));
    if (allianceId !== null) {
      view.allianceBonuses = {
        points: Number(extras.bonus_points ?? 0),
        purchases: (extras.bonus_purchases ?? []).map((p) => ({ bonusId: p.bonus_id, level: Number(p.level), purchasedAt: new Date(p.purchased_at).getTime(), expiresAt: p.expires_at === null ? null : new Date(p.expires_at).getTime() })),
      };
    }
    view.diplomacy = {
      active: (extras.relations ?? []).map((r) => ({
        partnerId: Number(r.from_country_id) === row.id ? Number(r.to_country_id) : Number(r.from_country_id),
        type: r.relation_type,
        pays: aiPaysRelation(r.relation_type, Number(r.from_country_id), Number(r.to_country_id), row.id),
      })),
      incoming: (extras.proposals ?? []).filter((p) => Number(p.to_country_id) === row.id).map((p) => ({ id: Number(p.id), fromCountryId: Number(p.from_country_id), type: p.relation_type, expiresAt: new Date(p.expires_at).getTime() })),
      outgoing: (extras.proposals ?? []).filter((p) => Number(p.from_country_id) === row.id).map((p) => ({ toCountryId: Number(p.to_country_id), type: p.relation_type })),
    };
  }
  return { row, view };
}

interface AiLookRow extends CountryRow {
  ai_wars: string[] | null;
  ai_store: Array<{ kind: "stock" | "demand"; item_type: MarketItemType; full_at: string }> | null;
  spy_day: number | null;
  spy_used: number | null;
  spy_by_kind: Record<string, number> | null;
  spy_last_at: Record<string, string> | null;
  brigades: BrigadeRow[] | null;
  repelled_by: string[] | null;
  scouted: Array<{ target_id: number; units: { troops: number; jets: number; turrets: number; tanks: number } | null }> | null;
  listings: Array<{ id: number; seller_id: number; item_type: MarketItemType; quantity: number; price_per_unit: number }> | null;
  own_listings: number | null;
  order_items: MarketItemType[] | null;
  orders: Array<{ id: number; item_type: MarketItemType; max_price: number; held_cash: number }> | null;
  bonus_points: number | null;
  bonus_purchases: Array<{ bonus_id: string; level: number; purchased_at: string; expires_at: string | null }> | null;
  role: AllianceRole | null;
  members: number | null;
  applications: Array<{ id: number; applicant_country_id: number }> | null;
  applied_to: string[] | null;
  open_alliances: Array<{ id: number; members: number; min_networth: number; min_land: number }> | null;
  relations: Array<{ relation_type: RelationType; from_country_id: number; to_country_id: number }> | null;
  proposals: Array<{ id: number; relation_type: RelationType; from_country_id: number; to_country_id: number; expires_at: string }> | null;
}

/**
 * The public facts of every country still in the game, with the land each lost in the last 24
 * hours (battles are public news): what an AI's target list is chosen from (selectAiTargets).
 */
async function readAiWorld(db: Db, now: Date): Promise<AiTarget[]> {
  const { rows } = await db.query<{ id: string; networth: string; land: string; protected_until: Date; gdi_protection: boolean; is_eliminated: boolean; alliance_id: string | null; lost: string }>({
    name: "ai_world",
    text: `SELECT c.id, c.networth, c.land, c.protected_until, c.gdi_protection, c.is_eliminated, c.alliance_id,
                  (SELECT coalesce(sum(b.land_captured + b.land_destroyed), 0) FROM battles b
                    WHERE b.defender_id = c.id AND b.created_at > $1::timestamptz - interval '24 hours') AS lost
             FROM countries c WHERE NOT c.is_eliminated`,
    values: [now],
  });
  return rows.map((r) => ({ ...targetFactsOfRow(r), landLostToday: Number(r.lost) }));
}

/** The public facts of a country's row that the attack rules and an AI's target list read. */
function targetFactsOfRow(r: { id: string | number; networth: string | number; land: string | number; protected_until: Date | string; gdi_protection: boolean; is_eliminated: boolean; alliance_id: string | number | null }): AiTarget {
  return {
    id: Number(r.id),
    networth: Number(r.networth),
    land: Number(r.land),
    protectedUntil: new Date(r.protected_until).getTime(),
    gdiMember: r.gdi_protection,
    isEliminated: r.is_eliminated,
    allianceId: r.alliance_id === null ? null : Number(r.alliance_id),
  };
}

/**
 * The world as the AI countries of one round (or one simulated session) see it: read once,
 * when the first of them looks, instead of one scan of every country per look (the look's
 * costliest part: docs/balance.md "Speed"). The countries' own rows are read at every look;
 * other countries' numbers are as old as the round, as a player's list is as old as its last
 * load. A battle changes both sides and the loser's land lost today, so an attack makes the
 * next look read the world again.
 */
export class AiWorld {
  private seen: Promise<AiTarget[]> | undefined;

  constructor(
    private readonly db: Db,
    private readonly now: Date,
  ) {}

  read(): Promise<AiTarget[]> {
    if (!this.seen) {
      const reading = readAiWorld(this.db, this.now);
      this.seen = reading;
      reading.catch(() => {
        if (this.seen === reading) this.seen = undefined;
      });
    }
    return this.seen;
  }

  battleFought(): void {
    this.seen = undefined;
  }
}

/** The longest espionage cooldown (ms): older missions never block one (as findUsage reads them). */
const MAX_SPY_COOLDOWN_MS = Math.max(...Object.values(MISSION_TYPES).map((t) => t.cooldownHours)) * 3_600_000;

/**
 * The country's row and everything else its AI reads but the world (AiWorld), in one round
 * trip: each part a sub-select on an index (active war declarations, market_store_stock and market_store_demand, spy_daily_counters and spy_missions as findUsage reads
 * them, brigades' key, spy_reports_known, market_listings_book per item with LIMIT 1,
 * market_listings_seller, standing_orders_buyer, alliance_members' key, countries_alliance,
 * alliance_applications_*, diplomatic_relations_from/to, diplomatic_proposals_*), skipped by
 * its flag. Open alliances (the only scan) are read only outside one.
 */
async function aiLook(db: Db, countryId: number, now: Date, wants: { spying: boolean; trading: boolean; social: boolean; attacking: boolean }): Promise<AiLookRow | undefined> {
  const { rows } = await db.query<AiLookRow>({
    name: "ai_look",
    text: `SELECT ${COUNTRY_COLUMNS.split(", ")
      .map((column) => `me.${column}`)
      .join(", ")},
      ARRAY(SELECT target_id FROM war_declarations WHERE declarer_id = $1 AND ended_at IS NULL) AS ai_wars,
      (SELECT json_agg(s) FROM (SELECT 'stock' AS kind, item_type, full_at FROM market_store_stock WHERE country_id = $1
               UNION ALL SELECT 'demand' AS kind, item_type, full_at FROM market_store_demand WHERE country_id = $1) s) AS ai_store,
      CASE WHEN $3 THEN (SELECT day FROM spy_daily_counters WHERE country_id = $1) END AS spy_day,
      CASE WHEN $3 THEN (SELECT used FROM spy_daily_counters WHERE country_id = $1) END AS spy_used,
      CASE WHEN $3 THEN (SELECT by_kind FROM spy_daily_counters WHERE country_id = $1) END AS spy_by_kind,
      CASE WHEN $3 THEN (SELECT json_object_agg(operation_type, at) FROM (SELECT operation_type, max(started_at) AS at FROM spy_missions
               WHERE country_id = $1 AND centre = 'intelligence_center' AND started_at > $8 GROUP BY operation_type) x) END AS spy_last_at,
      CASE WHEN $7 THEN (SELECT json_agg(b) FROM brigades b WHERE b.country_id = $1) END AS brigades,
      CASE WHEN $7 THEN ARRAY(SELECT DISTINCT defender_id FROM battles WHERE attacker_id = $1 AND outcome = 'defender_victory' AND defender_id IS NOT NULL
               AND created_at > $2::timestamptz - interval '${AI_REPELLED_MEMORY_HOURS} hours') END AS repelled_by,
      CASE WHEN $3 THEN (SELECT json_agg(k) FROM (SELECT DISTINCT ON (target_id) target_id, intelligence->'military'->'estimatedUnits' AS units FROM spy_reports
               WHERE owner_id = $1 AND success AND intel_type = 'military' AND expires_at >= $2 AND target_id IS NOT NULL ORDER BY target_id, created_at DESC, id DESC) k) END AS scouted,
      CASE WHEN $4 THEN (SELECT json_agg(l) FROM unnest($6::text[]) AS i(item) CROSS JOIN LATERAL (
          SELECT id, seller_id, item_type, quantity, price_per_unit FROM market_listings
           WHERE status = 'open' AND item_type = i.item AND seller_id <> $1 ORDER BY price_per_unit, listed_at, id LIMIT 1) l) END AS listings,
      CASE WHEN $4 THEN (SELECT count(*)::int FROM market_listings WHERE seller_id = $1 AND status = 'open') END AS own_listings,
      CASE WHEN $4 THEN ARRAY(SELECT item_type FROM standing_orders WHERE buyer_id = $1 AND status IN ('pending', 'active', 'partial')) END AS order_items,
      CASE WHEN $4 THEN (SELECT json_agg(o ORDER BY o.id) FROM (SELECT id, item_type, max_price, held_cash FROM standing_orders WHERE buyer_id = $1 AND status IN ('pending', 'active', 'partial')) o) END AS orders,
      CASE WHEN $5 AND me.alliance_id IS NOT NULL THEN (SELECT bonus_points FROM alliances WHERE id = me.alliance_id) END AS bonus_points,
      CASE WHEN $5 AND me.alliance_id IS NOT NULL THEN (SELECT json_agg(p) FROM (SELECT bonus_id, level, purchased_at, expires_at FROM alliance_bonus_purchases WHERE alliance_id = me.alliance_id) p) END AS bonus_purchases,
      CASE WHEN $5 AND me.alliance_id IS NOT NULL THEN (SELECT role FROM alliance_members WHERE country_id = $1 AND alliance_id = me.alliance_id) END AS role,
      CASE WHEN $5 AND me.alliance_id IS NOT NULL THEN (SELECT count(*)::int FROM countries WHERE alliance_id = me.alliance_id) END AS members,
      CASE WHEN $5 AND me.alliance_id IS NOT NULL THEN (SELECT json_agg(a ORDER BY a.id) FROM (
          SELECT id, applicant_country_id FROM alliance_applications WHERE alliance_id = me.alliance_id AND status = 'pending' AND expires_at > $2 ORDER BY id LIMIT 10) a) END AS applications,
      CASE WHEN $5 THEN ARRAY(SELECT alliance_id FROM alliance_applications WHERE applicant_country_id = $1 AND status = 'pending' AND expires_at > $2) END AS applied_to,
      CASE WHEN $5 AND me.alliance_id IS NULL THEN (SELECT json_agg(a) FROM (
          SELECT a.id, (SELECT count(*)::int FROM countries c WHERE c.alliance_id = a.id) AS members, a.min_networth, a.min_land FROM alliances a
           WHERE a.disbanded_at IS NULL AND a.accept_applications ORDER BY a.points_earned DESC, a.id LIMIT 10) a) END AS open_alliances,
      CASE WHEN $5 THEN (SELECT json_agg(r) FROM (
          SELECT relation_type, from_country_id, to_country_id FROM diplomatic_relations WHERE status = 'active' AND from_country_id = $1
          UNION ALL SELECT relation_type, from_country_id, to_country_id FROM diplomatic_relations WHERE status = 'active' AND to_country_id = $1) r) END AS relations,
      CASE WHEN $5 THEN (SELECT json_agg(p) FROM (
          SELECT id, relation_type, from_country_id, to_country_id, expires_at FROM diplomatic_proposals WHERE status = 'pending' AND expires_at > $2 AND from_country_id = $1
          UNION ALL SELECT id, relation_type, from_country_id, to_country_id, expires_at FROM diplomatic_proposals WHERE status = 'pending' AND expires_at > $2 AND to_country_id = $1) p) END AS proposals
      FROM countries me WHERE me.id = $1`,
    values: [countryId, now, wants.spying, wants.trading, wants.social, AI_MARKET_ITEMS, wants.attacking, new Date(now.getTime() - MAX_SPY_COOLDOWN_MS)],
  });
  return rows[0];
}

/** An intent's body through the zod schema of the route it stands for, as the route parses a request (400 on a bad one). */
function body<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw badRequest(firstIssueMessage(result.error));
  return result.data;
}

/** Runs an intent through the service a player's request would reach, as the AI's owner. */
export async function performAiIntent(ctx: ServiceContext, userId: number, countryId: number, intent: AiIntent): Promise<void> {
  switch (intent.kind) {
    case "explore":
      await exploreLand(ctx, userId, countryId, intent.turns);
      return;
    case "build":
      await constructBuildings(ctx, userId, countryId, intent.order);
      return;
    case "research_generate":
      await generateResearch(ctx, userId, countryId);
      return;
    case "research_allocate":
      await allocateResearch(ctx, userId, countryId, intent.allocations);
      return;
    case "produce":
      await processProduction(ctx, userId, countryId, intent.turns);
      return;
    case "store_sell":
      await storeTrade(ctx, userId, "sell", { countryId, itemId: intent.item, quantity: intent.quantity });
      return;
    case "store_buy":
      await storeTrade(ctx, userId, "buy", { countryId, itemId: intent.item, quantity: intent.quantity });
      return;
    case "attack":
      await launchAttack(ctx, { userId, countryId }, { countryId, targetCountryId: intent.targetId, attackType: intent.attackType, units: intent.units });
      return;
    case "spy_train":
      await trainSpies(ctx, userId, countryId, body(spyTrainRequestSchema, { countryId, quantity: intent.quantity }).quantity);
      return;
    case "spy_mission":
      await launchMission(ctx, userId, countryId, body(missionRequestSchema, { type: intent.missionType, targetCountryId: intent.targetId, spiesUsed: intent.spiesUsed }));
      return;
    case "spy_operation":
      await executeSpyOperation(ctx, userId, countryId, body(spyExecuteRequestSchema, { operationType: intent.operationType, targetCountryId: intent.targetId, spiesUsed: intent.spiesUsed }));
      return;
    case "market_list":
      await createListing(ctx, userId, body(createListingRequestSchema, { countryId, itemType: intent.item, quantity: intent.quantity, pricePerUnit: intent.pricePerUnit }));
      return;
    case "market_buy":
      await buyListing(ctx, userId, intent.listingId, body(buyListingRequestSchema, { countryId, quantity: intent.quantity }));
      return;
    case "market_order":
      await createStandingOrder(ctx, userId, body(createStandingOrderRequestSchema, { countryId, itemType: intent.item, quantity: intent.quantity, maxPrice: intent.maxPrice, priority: intent.priority, autoRenew: false }));
      return;
    case "market_cancel_order":
      await controlOrder(ctx, userId, intent.orderId, "cancel", countryId);
      return;
    case "alliance_bonus":
      await purchaseBonus(ctx, userId, intent.bonusId);
      return;
    case "alliance_create":
      await createAlliance(ctx, userId, body(createAllianceSchema, { name: intent.name, tag: intent.tag, description: intent.description, flag: intent.flag }));
      return;
    case "alliance_apply":
      await applyToAlliance(ctx, userId, body(joinAllianceSchema, { allianceId: intent.allianceId, message: intent.message }));
      return;
    case "alliance_accept":
      await answerApplication(ctx, userId, intent.applicationId, "accept");
      return;
    case "diplomacy_propose":
      await proposeRelation(ctx, userId, body(proposalSchema, { toCountryId: intent.toCountryId, relationType: intent.relationType, message: intent.message }));
      return;
    case "alliance_reject":
      await answerApplication(ctx, userId, intent.applicationId, "reject");
      return;
    case "diplomacy_accept":
      await answerProposal(ctx, userId, intent.proposalId, "accept");
      return;
    case "diplomacy_reject":
      await answerProposal(ctx, userId, intent.proposalId, "reject");
      return;
    default: {
      const unknown: never = intent;
      throw new Error(`unknown AI intent ${JSON.stringify(unknown)}`);
    }
  }
}

/** Every AI country with its personality and counters (operators: GET /api/admin/ai). */
export async function listAiCountries(ctx: ServiceContext, adminId: number): Promise<AiCountryJson[]> {
  await requireAdmin(ctx, adminId);
  const { rows } = await ctx.db.query<AiCountryRow & { name: string }>("SELECT a.*, c.name FROM ai_countries a JOIN countries c ON c.id = a.country_id ORDER BY a.country_id");
  return rows.map(toAiCountryJson);
}

/** Pauses or resumes one AI country (operators: POST /api/admin/ai/{countryId}/pause); logged. */
export async function setAiPaused(ctx: ServiceContext, adminId: number, countryId: number, paused: boolean): Promise<AiCountryJson> {
  await requireAdmin(ctx, adminId);
  const { rows } = await ctx.db.query<AiCountryRow & { name: string }>("UPDATE ai_countries a SET paused = $2 FROM countries c WHERE a.country_id = $1 AND c.id = a.country_id RETURNING a.*, c.name", [countryId, paused]);
  if (!rows[0]) throw notFound("No AI country with that id", "ai/not_found");
  await logAdminAction(ctx.db, { adminUserId: adminId, action: paused ? "ai_pause" : "ai_resume", details: { countryId, name: rows[0].name } });
  return toAiCountryJson(rows[0]);
}

function toAiCountryJson(r: AiCountryRow & { name: string }): AiCountryJson {
  return {
    countryId: Number(r.country_id),
    countryName: r.name,
    personality: r.personality,
    paused: r.paused,
    rounds: Number(r.rounds),
    actions: Number(r.actions_total),
    refused: Number(r.refused_total),
    lastActedAt: r.last_acted_at?.toISOString() ?? null,
  };
}
