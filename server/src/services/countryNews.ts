import { TECHNOLOGIES, type CountryState, type EconomicEffects, type ResearchResult } from "@game/schema/rules";
import { recordNews, type NewsTransaction } from "./news.js";

/** A personal news item an action produced about its own country. */
export type CountryNews = { kind: "research_level"; params: { technology: string; name: string; level: number; maxLevel: number } };

/** research_level news for each technology that gained a level. */
export function researchNews(results: readonly ResearchResult[], next: Pick<CountryState, "tech">): CountryNews[] {
  return results
    .filter((r) => r.levelUp)
    .map((r) => {
      const def = TECHNOLOGIES[r.researchType];
      return { kind: "research_level", params: { technology: def.id, name: def.name, level: next.tech[def.id], maxLevel: def.maxLevel } };
    });
}

/**
 * The country's personal news of one action, in its transaction: starving when food ran out in
 * the turns it ran, bankrupt when cash did, and what the action reported itself.
 */
export async function recordCountryNews(tx: NewsTransaction, countryId: number, effects: EconomicEffects | undefined, news: readonly CountryNews[] = []): Promise<void> {
  if (effects && effects.starvingTurns > 0) {
    await recordNews(tx, {
      kind: "starving",
      countryId,
      params: { turns: effects.starvingTurns, peopleLost: Math.max(0, -effects.populationChange), troopsLost: effects.unitsLost.troops },
    });
  }
  if (effects && effects.bankruptTurns > 0) {
    await recordNews(tx, { kind: "bankrupt", countryId, params: { turns: effects.bankruptTurns, unpaid: effects.unpaidExpenses } });
  }
  for (const item of news) await recordNews(tx, { ...item, countryId });
}
