import type { CountryResponse, IntelligenceBriefsResponse, ListedCountryJson, TurnResultJson } from "@game/schema/api";
import { computeIntelligenceBriefs, type CountryState } from "@game/schema/rules";
import { findCountryById, findCountryByUserId, listCountries, rowToState, toOwnCountryJson, toPublicCountryJson, type CountryRow } from "../db/countries.js";
import { loadBriefFacts } from "../db/briefs.js";
import { listTurnResults } from "../db/turnResults.js";
import type { Db } from "../db/pool.js";
import { readTogether } from "../db/readBatch.js";
import { AppError, forbidden, notFound } from "../errors.js";
import type { ServiceContext } from "./context.js";
import { rankBoard } from "./world.js";

/**
 * Read models of countries: what the REST answers show of one. Reads lock nothing and write
 * nothing, so each queries db/ directly, outside any action transaction (docs/architecture.md,
 * "Layers"); a route calls these and never db/ itself.
 */

/** The country row of `id`, or undefined. */
export function countryById(ctx: ServiceContext, id: number): Promise<CountryRow | undefined> {
  return findCountryById(ctx.db, id);
}

/** The refusal of a route without a country id when the caller has no country (http/handler.ts ownCountry's). */
export const noCountry = () => new AppError(404, "You have no country", "country/none");

/** Who reads a screen of their own country: the verified token's user and country. */
export interface CountryOwner {
  userId: number;
  countryId: number | null;
}

/**
 * A screen of the caller's own country: its row and the reads the screen needs beside it, in
 * one round trip on one pool connection (db/readBatch.ts: `reads` calls db/ functions with the
 * handle it is given). The row must be `owner`'s own, else `refuse()` (403 by default; routes
 * without a country id in the path answer 404 "You have no country"); the other reads are
 * thrown away then. `countryId` is the path's, or the owner's own when absent.
 */
export async function ownCountryWith<T extends readonly unknown[]>(
  ctx: Pick<ServiceContext, "db">,
  owner: CountryOwner,
  reads: (db: Db, countryId: number) => readonly [...{ [K in keyof T]: Promise<T[K]> }],
  options: { countryId?: number; refuse?: () => AppError } = {},
): Promise<{ country: CountryRow; values: T }> {
  const refuse = options.refuse ?? (() => forbidden());
  const countryId = options.countryId ?? owner.countryId;
  if (countryId === null || countryId !== owner.countryId) throw refuse();
  const [country, ...values] = await readTogether<[CountryRow | undefined, ...T]>(ctx.db, (db) => [findCountryById(db, countryId), ...reads(db, countryId)] as never);
  if (!country || country.user_id !== owner.userId) throw refuse();
  return { country, values: values as unknown as T };
}

/** The country of the user `userId`, or undefined when they have none. */
export function countryOfUser(ctx: ServiceContext, userId: number): Promise<CountryRow | undefined> {
  return findCountryByUserId(ctx.db, userId);
}

/** The rules' view of a row the caller read (the read models that compute from rules). */
export function countryState(row: CountryRow): CountryState {
  return rowToState(row);
}

/** GET /country/{id}: the owner sees everything; anyone else sees public fields only. */
export async function countryView(ctx: ServiceContext, id: number, viewerUserId: number): Promise<CountryResponse> {
  const country = await findCountryById(ctx.db, id);
  if (!country) throw notFound("Country not found", "country/not_found");
  return country.user_id === viewerUserId ? { country: toOwnCountryJson(country), message: "Own country" } : { country: toPublicCountryJson(country), message: "Public view" };
}

/** A page of the target lists (GET /countries, /countries/ai): public views with each country's alliance name. */
export async function listedCountries(ctx: ServiceContext, options: { limit: number; offset: number; aiOnly?: boolean }): Promise<{ countries: ListedCountryJson[]; total: number }> {
  const { rows, total } = await listCountries(ctx.db, options, await rankBoard(ctx));
  const now = Date.now();
  const countries = rows.map((row) => ({ ...toPublicCountryJson(row, now), alliance_name: row.alliance_id === null ? null : row.listed_alliance_name }));
  return { countries, total };
}

/** The intelligence briefs of the caller's own country (News and Intelligence > Intelligence Briefs). */
export async function intelligenceBriefs(ctx: ServiceContext, country: CountryRow, now: Date): Promise<IntelligenceBriefsResponse["briefs"]> {
  const facts = await loadBriefFacts(ctx.db, country.id, now);
  const state = rowToState(country);
  return computeIntelligenceBriefs({ ...facts, now: now.getTime(), land: state.land, forces: state.troops + state.jets + state.tanks + state.turrets });
}

/** GET /turns/history: the country's latest turn results, newest first. */
export function turnHistory(ctx: ServiceContext, countryId: number, limit: number): Promise<TurnResultJson[]> {
  return listTurnResults(ctx.db, countryId, limit);
}
