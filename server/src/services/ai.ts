import crypto from "node:crypto";
import {
  Rng,
  nextAiIntent,
  pickAiPersonality,
  type AiIntent,
  type AiPersonality,
  type AiTarget,
  type AiView,
} from "@game/schema/rules";
import { withTransaction, type Db } from "../db/pool.js";
import { findCountryById, rowToState, type CountryRow } from "../db/countries.js";
import { hashPassword } from "../auth/passwords.js";
import { AppError, isUniqueViolation, notFound } from "../errors.js";
import { logAdminAction } from "../db/admin.js";
import { requireAdmin } from "./admin.js";
import type { AiCountryJson } from "@game/schema/api";
import { countryChangedEvents } from "./actions.js";
import { insertAccount } from "./accounts.js";
import { constructBuildings, exploreLand, generateResearch, allocateResearch, processProduction } from "./economy.js";
import { storeTrade } from "./market.js";
import { launchAttack } from "./combat.js";
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
  const { rows } = await ctx.db.query<{ country_id: string; paused: boolean }>(
    "SELECT a.country_id, a.paused FROM ai_countries a JOIN countries c ON c.id = a.country_id WHERE NOT c.is_eliminated ORDER BY a.country_id",
  );
  const playing = rows.filter((r) => !r.paused);
  const result = { created: 0, resumed: 0, paused: 0 };
  if (playing.length > target) {
    const extra = playing.slice(target).map((r) => Number(r.country_id));
    await ctx.db.query("UPDATE ai_countries SET paused = true WHERE country_id = ANY($1::bigint[])", [extra]);
    result.paused = extra.length;
    return result;
  }
  let missing = target - playing.length;
  const resumable = rows.filter((r) => r.paused).slice(0, missing).map((r) => Number(r.country_id));
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
      return country;
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
export async function playAiRound(ctx: ServiceContext, now: Date = new Date()): Promise<AiRoundResult> {
  const { aiActionsPerRound: budget, aiActionsPerCountry: perCountry } = ctx.config;
  const result: AiRoundResult = { countries: 0, actions: 0, refused: 0 };
  if (budget <= 0 || perCountry <= 0) return result;
  const startedAt = performance.now();
  try {
    const claimed = await claimDueAiCountries(ctx.db, Math.ceil(budget / perCountry), now);
    for (const ai of claimed) {
      const left = budget - result.actions - result.refused;
      if (left <= 0) break;
      const played = await playAiCountry(ctx, ai, Math.min(perCountry, left), now);
      result.countries += 1;
      result.actions += played.actions;
      result.refused += played.refused;
    }
  } finally {
    ctx.metrics.aiRoundDuration.observe((performance.now() - startedAt) / 1000);
  }
  return result;
}

/** Marks the longest-waiting AI countries as acting now and answers them (several rounds never share one). */
async function claimDueAiCountries(db: Db, limit: number, now: Date): Promise<AiCountryRow[]> {
  const { rows } = await db.query<AiCountryRow>(
    `UPDATE ai_countries a SET last_acted_at = $2
      WHERE a.country_id IN (
        SELECT d.country_id FROM ai_countries d JOIN countries c ON c.id = d.country_id
         WHERE NOT d.paused AND NOT c.is_eliminated
         ORDER BY d.last_acted_at NULLS FIRST, d.country_id
         LIMIT $1 FOR UPDATE OF d SKIP LOCKED)
      RETURNING a.*`,
    [limit, now],
  );
  return rows.sort((a, b) => Number(a.country_id) - Number(b.country_id));
}

/**
 * Plays one AI country: looks, decides, acts through the service, up to `budget` actions or
 * until the strategy stops or an action is refused (the world moved; it looks again next
 * round). Round r of a country draws from Rng(seed, r), so a run replays from its seeds.
 */
export async function playAiCountry(ctx: ServiceContext, ai: AiCountryRow, budget: number, now: Date = new Date()): Promise<{ actions: number; refused: number; intents: AiIntent[] }> {
  const rng = Rng.fromSeed((Number(ai.seed) ^ Math.imul(Number(ai.rounds) + 1, 0x9e3779b1)) >>> 0);
  const countryId = Number(ai.country_id);
  let actions = 0;
  let refused = 0;
  const intents: AiIntent[] = [];
  for (let i = 0; i < budget; i++) {
    const row = await findCountryById(ctx.db, countryId);
    if (!row || row.is_eliminated || row.user_id === null) break;
    const intent = nextAiIntent(await aiView(ctx.db, row, now), ai.personality, rng);
    if (!intent) break;
    intents.push(intent);
    try {
      await performAiIntent(ctx, Number(row.user_id), countryId, intent);
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
  await ctx.db.query("UPDATE ai_countries SET rounds = rounds + 1, actions_total = actions_total + $2, refused_total = refused_total + $3 WHERE country_id = $1", [
    countryId,
    actions,
    refused,
  ]);
  return { actions, refused, intents };
}

/** What the AI sees: its own country and the public facts of the countries around its size. */
async function aiView(db: Db, row: CountryRow, now: Date): Promise<AiView> {
  const networth = Number(row.networth);
  const [targets, wars] = await Promise.all([
    db.query<{ id: string; networth: string; land: string; protected_until: Date; gdi_protection: boolean; is_eliminated: boolean; alliance_id: string | null }>({
      name: "ai_targets",
      text: `SELECT id, networth, land, protected_until, gdi_protection, is_eliminated, alliance_id FROM countries
              WHERE id <> $1 AND NOT is_eliminated AND networth BETWEEN $2 * 0.4 AND $2 * 1.2
              ORDER BY land::float8 / GREATEST(networth, 1) DESC, id LIMIT 20`,
      values: [row.id, networth],
    }),
    db.query<{ target_id: string }>({ name: "ai_wars", text: "SELECT target_id FROM war_declarations WHERE declarer_id = $1 AND ended_at IS NULL", values: [row.id] }),
  ]);
  const facts = (r: { id: string | number; networth: string | number; land: string | number; protected_until: Date; gdi_protection: boolean; is_eliminated: boolean; alliance_id: string | number | null }): AiTarget => ({
    id: Number(r.id),
    networth: Number(r.networth),
    land: Number(r.land),
    protectedUntil: r.protected_until.getTime(),
    gdiMember: r.gdi_protection,
    isEliminated: r.is_eliminated,
    allianceId: r.alliance_id === null ? null : Number(r.alliance_id),
  });
  return {
    countryId: row.id,
    country: rowToState(row),
    self: facts(row),
    targets: targets.rows.map(facts),
    atWarWith: new Set(wars.rows.map((w) => Number(w.target_id))),
    now: now.getTime(),
  };
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
    case "attack":
      await launchAttack(ctx, { userId, countryId }, { countryId, targetCountryId: intent.targetId, attackType: intent.attackType, units: intent.units });
      return;
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
  const { rows } = await ctx.db.query<AiCountryRow & { name: string }>(
    "UPDATE ai_countries a SET paused = $2 FROM countries c WHERE a.country_id = $1 AND c.id = a.country_id RETURNING a.*, c.name",
    [countryId, paused],
  );
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
