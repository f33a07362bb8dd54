import type { WarDeclarationJson } from "@game/schema/api";
import { checkDeclareWar, checkEndWar, computeWarCost, reject, warRemainingSeconds, warStatus } from "@game/schema/rules";
import { toOwnCountryJson } from "../db/countries.js";
import { bothSides, findWar, findWarsBetween, listWars, toWarJson, warFacts, type WarBetweenCountries, type WarRow } from "../db/military.js";
import { notFound } from "../errors.js";
import { countryTopic, WORLD_TOPIC, type PublicWarEvent } from "../events.js";
import { tickNumberAt } from "../turnClock.js";
import { runCountriesAction } from "./actions.js";
import type { ServiceContext } from "./context.js";
import { noCountry, ownCountryWith, type CountryOwner } from "./countries.js";
import { ruleError } from "./economy.js";
import { recordNews } from "./news.js";
import { peaceNews } from "./warNews.js";
import { creditWarVictory } from "./allianceCombat.js";

/**
 * War declarations: declare (both countries locked), end after 48 hours, list. The cost of
 * active wars is charged by the war_costs tick phase (tick/warCosts.ts).
 */

/** A declaration as the caller reads it. */
export function warJson(row: WarRow, viewerCountryId: number, now: number): WarDeclarationJson {
  const facts = warFacts(row);
  return toWarJson(row, viewerCountryId, {
    status: warStatus(facts, now),
    remainingTime: warRemainingSeconds(facts, now),
    canEnd: checkEndWar(facts, viewerCountryId, now) === null,
    costPerTurn: computeWarCost(row.target_land, 1),
  });
}

function publicWar(row: Pick<WarBetweenCountries, "id" | "declarer_id" | "declarer_name" | "target_id" | "target_name">, at: number): PublicWarEvent {
  return { declarationId: row.id, declarerId: row.declarer_id, declarerName: row.declarer_name, targetId: row.target_id, targetName: row.target_name, at };
}

export { peaceNews } from "./warNews.js";

/** GET /war/declarations: the caller's wars, declared and received (404 without a country), with its row in one round trip. */
export async function warsOf(ctx: ServiceContext, owner: CountryOwner): Promise<WarDeclarationJson[]> {
  const {
    country,
    values: [wars],
  } = await ownCountryWith(ctx, owner, (db, id) => [listWars(db, id)] as const, { refuse: noCountry });
  const now = ctx.clock.now();
  return wars.map((row) => warJson(row, country.id, now));
}

/** POST /war/declare: a war on the target (+10% attack, bypasses its GDI protection, $10 per acre per turn). */
export async function declareWar(ctx: ServiceContext, userId: number, declarerId: number, targetId: number | null | undefined) {
  if (targetId === null || targetId === undefined) throw ruleError(reject("war/no_target", "No target selected"));
  if (targetId === declarerId) throw ruleError(reject("war/own_country", "You cannot declare war on your own country"));
  const { result, rows } = await runCountriesAction(ctx, {
    name: "declare_war",
    actor: { userId, countryId: declarerId },
    countryIds: [declarerId, targetId],
    notFoundMessage: "Country not found",
    async step(countries, tx) {
      const declarer = countries.get(declarerId)!.row;
      const target = countries.get(targetId)!.row;
      const now = tx.now.getTime();
      const wars = await findWarsBetween(tx.client, declarerId, targetId);
      const rejection = checkDeclareWar({
        declarerId,
        target: { id: target.id, land: target.land, isEliminated: target.is_eliminated, protectedUntil: target.protected_until.getTime(), allianceId: target.alliance_id },
        declarerAllianceId: declarer.alliance_id,
        cash: declarer.cash,
        existing: wars.between.map(warFacts),
        activeWars: wars.active,
        now,
      });
      if (rejection) throw ruleError(rejection);
      const tick = tickNumberAt(now, ctx.config.turnIntervalMs);
      const { rows: inserted } = await tx.client.query<WarRow>(
        `INSERT INTO war_declarations (declarer_id, target_id, declared_at, declared_tick, charged_through_tick)
         VALUES ($1, $2, $3, $4, $4) RETURNING *, $5::text AS declarer_name, $6::text AS target_name, $7::bigint AS target_land`,
        [declarerId, targetId, tx.now, tick, declarer.name, target.name, target.land],
      );
      const war = bothSides(inserted[0]!);
      tx.emit(countryTopic(targetId), {
        type: "notice",
        countryId: targetId,
        notice: {
          id: `war-${war.id}`,
          kind: "war_declared",
          severity: "danger",
          title: `${declarer.name} declared war on you`,
          body: `Their attacks on you are 10% stronger and pass GDI protection for at least 48 hours.`,
          at: now,
          view: "war-room",
          refId: war.id,
        },
      });
      tx.emit(WORLD_TOPIC, { type: "warDeclared", war: publicWar(war, now) });
      await recordNews(tx, {
        kind: "war_declared",
        params: { aggressor: { id: declarer.id, name: declarer.name }, target: { id: target.id, name: target.name }, kind: "country" },
        participants: [
          { id: declarer.id, name: declarer.name, type: "country", role: "aggressor" },
          { id: target.id, name: target.name, type: "country", role: "target" },
        ],
      });
      // Declaring war ends one's own new-player protection.
      const patch = declarer.protected_until.getTime() > now ? new Map([[declarerId, { protected_until: tx.now }]]) : undefined;
      return { next: new Map(), patches: patch, result: warJson(war, declarerId, now) };
    },
  });
  return { declaration: result, country: toOwnCountryJson(rows.get(declarerId)!) };
}

/** POST /war/end: the declarer ends an active war after its 48 hours; 24 hours of cooldown follow. */
export async function endWar(ctx: ServiceContext, userId: number, countryId: number, declarationId: number) {
  const war = await findWar(ctx.db, declarationId);
  if (!war || (war.declarer_id !== countryId && war.target_id !== countryId)) throw notFound("War declaration not found", "war/not_found");
  const { result } = await runCountriesAction(ctx, {
    name: "end_war",
    actor: { userId, countryId },
    countryIds: [countryId],
    async step(_countries, tx) {
      const now = tx.now.getTime();
      const { rows } = await tx.client.query<WarRow>("SELECT * FROM war_declarations WHERE id = $1 FOR UPDATE", [declarationId]);
      const locked = { ...war, ...rows[0]! };
      const rejection = checkEndWar(warFacts(locked), countryId, now);
      if (rejection) throw ruleError(rejection);
      const { rows: ended } = await tx.client.query<WarRow>("UPDATE war_declarations SET ended_at = $2, end_reason = 'declared_peace' WHERE id = $1 RETURNING *", [declarationId, tx.now]);
      // checkEndWar let only a running war through, and a running war has both sides
      const row = bothSides({ ...locked, ...ended[0]! });
      tx.emit(countryTopic(row.target_id), {
        type: "notice",
        countryId: row.target_id,
        notice: { id: `war-${row.id}-ended`, kind: "war_ended", severity: "success", title: `${row.declarer_name} made peace`, body: "The war declared on you has ended.", at: now, view: "war-room", refId: row.id },
      });
      tx.emit(WORLD_TOPIC, { type: "warEnded", war: publicWar(row, now), reason: "declared_peace" });
      await recordNews(tx, peaceNews(row));
      await creditWarVictory(tx, row);
      return { next: new Map(), result: warJson(row, countryId, now) };
    },
  });
  return { declaration: result };
}
