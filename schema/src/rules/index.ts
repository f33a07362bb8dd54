/**
 * The pure game rules: no IO, time and randomness as arguments. `check*` returns a
 * RuleRejection or null, `compute*` returns numbers, `apply*` and `perform*` return the next
 * state. docs/rules.md gives every formula and constant.
 */
export * from "./country.js";
export * from "./networth.js";
export * from "./governments.js";
export * from "./turns.js";
export * from "./exploration.js";
export * from "./buildings.js";
export * from "./research.js";
export * from "./military.js";
export * from "./combat.js";
export * from "./battleView.js";
export * from "./war.js";
export * from "./defense.js";
export * from "./economy.js";
export * from "./chat.js";
export * from "./ranking.js";
export * from "./news.js";
export * from "./rng.js";
export * from "./text.js";
export * from "./market.js";
export * from "./alliance.js";
export * from "./diplomacy.js";
export * from "./ai.js";
export * from "./espionage.js";
export * from "./manage.js";
export * from "./advisor.js";
export * from "./briefs.js";
export * from "./seasons.js";
