import { MAX_TURNS, startingCountry, type CountryState } from "@game/schema/rules";
import { hashPassword } from "@game/server/auth/passwords";
import type { TokenService } from "@game/server/auth/tokens";
import type { Config } from "@game/server/config";
import { countryWriteStatement } from "@game/server/db/countries";
import { withTransaction, type Db } from "@game/server/db/pool";
import type { Clock } from "@game/server/services/context";
import { insertAccount } from "@game/server/services/accounts";

/**
 * Player accounts written without registration's argon2 per account, for load tests: the
 * command line `seedCountries.ts` and the load tester's integration tests. Every account
 * gets the same password, hashed once, and is written by registration's own `insertAccount`
 * (user, name keys, the starting country, new-player protection from the config); each
 * account's access token is issued with the server's secret, so the load tester's `--reuse`
 * keeps it instead of logging in.
 */

/** Accounts written per transaction. */
const BATCH = 500;

/** One account as the load tester's credentials file holds it (loadtest/src/bots.ts BotCredentials). */
export interface SeededCredentials {
  email: string;
  username: string;
  password: string;
  countryName: string;
  countryId: number;
  token: string;
}

export interface SeedOptions {
  count: number;
  /** usernames `<prefix>0`..`<prefix>{count-1}`: lowercase letters, digits only after them */
  prefix: string;
  password: string;
  /** mid-season countries (developedCountry) instead of starting ones */
  developed: boolean;
  /** told the accounts written so far after each batch */
  onProgress?(seeded: number): void;
}

/**
 * A mid-season country for seed `index`: the starting country grown to `scale` x 1,500 acres
 * (scale 0.6..1.4 from the index, deterministic), all its acres built in a spread of every
 * building type, with cash, food, research points and an army to match, and full turns.
 */
export function developedCountry(index: number): CountryState {
  const scale = 0.6 + ((Math.imul(index + 1, 2654435761) >>> 0) % 801) / 1000;
  const n = (base: number) => Math.round(base * scale);
  const land = n(1_500);
  const share = (pct: number) => Math.floor((land * pct) / 100);
  const start = startingCountry();
  return {
    ...start,
    cash: n(1_500_000),
    food: n(150_000),
    oil: n(20_000),
    land,
    population: n(60_000),
    troops: n(8_000),
    jets: n(200),
    turrets: n(1_000),
    tanks: n(300),
    spies: n(100),
    turns: MAX_TURNS,
    // acres used: 33 + 16 + 4x3 + 4x2 + 6 + 10x2 + 1x3 + 2 = 100% of the land (a few acres
    // free by rounding): the strategies explore before they build again, as a built-out
    // player does; income above upkeep
    buildings: {
      enterprise_zones: share(33),
      residences: share(16),
      industrial_complexes: share(4),
      military_bases: share(4),
      research_labs: share(6),
      farms: share(10),
      oil_rigs: share(1),
      construction_sites: share(2),
    },
    researchPoints: n(3_000),
  };
}

/** Writes `options.count` accounts, BATCH to a transaction, and answers their credentials with fresh tokens. */
export async function seedAccounts(deps: { db: Db; config: Config; clock: Clock; tokens: TokenService }, options: SeedOptions): Promise<SeededCredentials[]> {
  const passwordHash = await hashPassword(options.password);
  const bots: SeededCredentials[] = [];
  for (let from = 0; from < options.count; from += BATCH) {
    const batch = await withTransaction(deps.db, async (client) => {
      const made: Array<{ index: number; userId: number; countryId: number; countryName: string }> = [];
      for (let index = from; index < Math.min(options.count, from + BATCH); index++) {
        const countryName = `Seeded ${options.prefix} ${index}`;
        const { user, country } = await insertAccount({ config: deps.config, clock: deps.clock }, client, {
          email: `${options.prefix}${index}@loadtest.example.com`,
          username: `${options.prefix}${index}`,
          passwordHash,
          countryName,
        });
        if (options.developed) await client.query(countryWriteStatement(country, developedCountry(index), new Date(deps.clock.now())).sql);
        made.push({ index, userId: user.id, countryId: country.id, countryName });
      }
      return made;
    });
    for (const m of batch) {
      bots.push({
        email: `${options.prefix}${m.index}@loadtest.example.com`,
        username: `${options.prefix}${m.index}`,
        password: options.password,
        countryName: m.countryName,
        countryId: m.countryId,
        token: await deps.tokens.issue(m.userId),
      });
    }
    options.onProgress?.(bots.length);
  }
  return bots;
}
