/**
 * News (document 3: News and Intelligence; docs/rules.md, "News"). A news item is produced by
 * a domain's action or a tick phase through one entry of NEWS_CATALOGUE: the entry fixes the
 * spec's type and category and decides priority, impact, title and description from the
 * item's parameters. Adding a news type is adding one entry here; the server records it, the
 * feed, the filters and the unread count follow.
 *
 * Pure: no IO. The server stores what `composeNews` returns.
 */

/** The spec's news types, in the order of the News screen's type filter. */
export const NEWS_TYPES = ["war", "alliance", "achievement", "market", "diplomatic", "system", "seasonal"] as const;
export type NewsType = (typeof NEWS_TYPES)[number];

/** The type filter's labels (spec: War and Combat, Alliance Events, ...). */
export const NEWS_TYPE_LABELS: Readonly<Record<NewsType, string>> = {
  war: "War and Combat",
  alliance: "Alliance Events",
  achievement: "Achievements",
  market: "Market News",
  diplomatic: "Diplomatic Events",
  system: "System Updates",
  seasonal: "Season Events",
};

/**
 * Who an item is for: everybody (global), the members of one alliance (alliance) or one
 * country's player (personal).
 */
export const NEWS_CATEGORIES = ["global", "alliance", "personal"] as const;
export type NewsCategory = (typeof NEWS_CATEGORIES)[number];

/** Most urgent first. */
export const NEWS_PRIORITIES = ["critical", "high", "medium", "low"] as const;
export type NewsPriority = (typeof NEWS_PRIORITIES)[number];

/** Largest first. */
export const NEWS_IMPACTS = ["historic", "major", "moderate", "minor"] as const;
export type NewsImpact = (typeof NEWS_IMPACTS)[number];

/** Someone an item is about (spec: participants[] {id, name, type, role, allianceTag}). */
export interface NewsParticipant {
  id: number;
  name: string;
  type: "country" | "alliance" | "player";
  /** e.g. "attacker", "defender", "founder", "buyer" */
  role: string;
  allianceTag?: string;
}

/** A country or alliance as templates name it. */
export interface Named {
  id: number;
  name: string;
}

/** What the catalogue decides for one item. */
export interface NewsDraft {
  kind: NewsKind;
  type: NewsType;
  category: NewsCategory;
  priority: NewsPriority;
  impact: NewsImpact;
  title: string;
  description: string;
  content: string;
  tags: string[];
  location: string;
}

/** One kind of news: fixed type and category, rules for the rest. */
export interface NewsDefinition<P> {
  type: NewsType;
  category: NewsCategory;
  priority: NewsPriority | ((params: P) => NewsPriority);
  impact: NewsImpact | ((params: P) => NewsImpact);
  title(params: P): string;
  description(params: P): string;
  /** the long text of the detail panel; the description when absent */
  content?(params: P): string;
  tags?: readonly string[] | ((params: P) => string[]);
  /** where it happened, as the detail panel shows it @default "" */
  location?(params: P): string;
}

/** Declares a catalogue entry with its parameter type. */
function news<P>(definition: NewsDefinition<P>): NewsDefinition<P> {
  return definition;
}

const INT = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
/** 23750 -> "23,750" */
export const formatCount = (n: number): string => INT.format(n);
/** 23750 -> "$23,750" */
export const formatMoney = (n: number): string => (n < 0 ? `-$${INT.format(-n)}` : `$${INT.format(n)}`);
/** "1 acre", "5 acres": the noun in singular or plural with the number formatted */
export function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatCount(n)} ${n === 1 ? singular : pluralForm}`;
}

// ---------------------------------------------------------------------------------------
// Priority and impact rules (docs/rules.md, "News"): the size of what happened, measured
// against the country it happened to where that is known.

/** Land a battle moved: impact by acres and by share of the loser's land. */
export function battleImpact(landCaptured: number, defenderLandBefore: number): NewsImpact {
  const share = defenderLandBefore > 0 ? landCaptured / defenderLandBefore : 0;
  if (landCaptured >= 2_000 || share >= 0.25) return "major";
  if (landCaptured >= 200 || share >= 0.1) return "moderate";
  return "minor";
}

/** A loss of 10% of the land or more is critical for the loser; any loss is high. */
export function battleLostPriority(landLost: number, landBefore: number): NewsPriority {
  return landBefore > 0 && landLost / landBefore >= 0.1 ? "critical" : "high";
}

/** A trade's size in dollars: 1,000,000 and up is major, 100,000 and up moderate. */
export function tradeImpact(totalValue: number): NewsImpact {
  if (totalValue >= 1_000_000) return "major";
  if (totalValue >= 100_000) return "moderate";
  return "minor";
}

/** A price move in percent (either way): 50% and up is major and high priority, 20% and up moderate and medium. */
export function priceMoveImpact(percent: number): NewsImpact {
  const size = Math.abs(percent);
  if (size >= 50) return "major";
  if (size >= 20) return "moderate";
  return "minor";
}

export function priceMovePriority(percent: number): NewsPriority {
  const size = Math.abs(percent);
  return size >= 50 ? "high" : size >= 20 ? "medium" : "low";
}

/** A rank lost: falling out of the top 10, or 10 places or more, is high priority. */
export function rankLossPriority(previousRank: number, rank: number): NewsPriority {
  return (previousRank <= 10 && rank > 10) || rank - previousRank >= 10 ? "high" : "medium";
}

const UNIT_WORDS: Readonly<Record<string, [string, string]>> = {
  troops: ["troop", "troops"],
  jets: ["jet", "jets"],
  turrets: ["turret", "turrets"],
  tanks: ["tank", "tanks"],
  spies: ["spy", "spies"],
  food: ["bushel of food", "bushels of food"],
  oil: ["barrel of oil", "barrels of oil"],
};

/** "1 tank", "2,000 troops", "5 bushels of food" */
export function itemQuantity(item: string, quantity: number): string {
  const words = UNIT_WORDS[item];
  return words ? plural(quantity, words[0], words[1]) : `${formatCount(quantity)} ${item}`;
}

// ---------------------------------------------------------------------------------------
// The catalogue

/**
 * Every kind of news. The key is the kind recorded with the item; the domain that produces it
 * passes the parameters typed here (server: `recordNews(tx, { kind, params, ... })`).
 */
export const NEWS_CATALOGUE = {
  // --- war ------------------------------------------------------------------------------
  battle_won: news<{ attacker: Named; defender: Named; landCaptured: number; defenderLandBefore: number; battleId?: number }>({
    type: "war",
    category: "personal",
    priority: "medium",
    impact: (p) => battleImpact(p.landCaptured, p.defenderLandBefore),
    title: (p) => `Victory over ${p.defender.name}`,
    description: (p) => `Your forces defeated ${p.defender.name} and captured ${plural(p.landCaptured, "acre")}.`,
    tags: ["battle", "victory"],
  }),
  battle_lost: news<{ attacker: Named; defender: Named; landLost: number; landBefore: number; role: "attacker" | "defender"; battleId?: number }>({
    type: "war",
    category: "personal",
    priority: (p) => battleLostPriority(p.landLost, p.landBefore),
    impact: (p) => battleImpact(p.landLost, p.landBefore),
    title: (p) => (p.role === "defender" ? `Attacked by ${p.attacker.name}` : `Defeat at ${p.defender.name}`),
    description: (p) =>
      p.role === "defender" ? `${p.attacker.name} attacked and took ${plural(p.landLost, "acre")} of your land.` : `Your attack on ${p.defender.name} was repelled${p.landLost > 0 ? ` and ${plural(p.landLost, "acre")} were lost` : ""}.`,
    tags: ["battle", "defeat"],
  }),
  battle_repelled: news<{ attacker: Named; defender: Named; battleId?: number }>({
    type: "war",
    category: "personal",
    priority: "medium",
    impact: "minor",
    title: (p) => `Attack by ${p.attacker.name} repelled`,
    description: (p) => `${p.attacker.name} attacked and your defenses held.`,
    tags: ["battle", "defense"],
  }),
  /** a battle large enough for everyone's feed (the military domain decides when) */
  major_battle: news<{ attacker: Named; defender: Named; landCaptured: number; defenderLandBefore: number; battleId?: number }>({
    type: "war",
    category: "global",
    priority: "high",
    impact: (p) => battleImpact(p.landCaptured, p.defenderLandBefore),
    title: (p) => `${p.attacker.name} conquers ${plural(p.landCaptured, "acre")} from ${p.defender.name}`,
    description: (p) => `${p.attacker.name} won a major battle against ${p.defender.name}, capturing ${plural(p.landCaptured, "acre")}.`,
    tags: ["battle"],
  }),
  spy_detected: news<{ spy: Named | null; operation: string; caught: number }>({
    type: "war",
    category: "personal",
    priority: "high",
    impact: (p) => (p.caught >= 10 ? "moderate" : "minor"),
    title: (p) => (p.spy ? `Spies of ${p.spy.name} detected` : "Foreign spies detected"),
    description: (p) => `Your counter-intelligence uncovered a ${p.operation} operation${p.spy ? ` by ${p.spy.name}` : ""}${p.caught > 0 ? ` and caught ${plural(p.caught, "spy", "spies")}` : ""}.`,
    tags: ["espionage"],
  }),
  /** spies destroyed part of a country (espionage's sabotage); the saboteur named only when detected */
  sabotage_suffered: news<{ spy: Named | null; buildingsDestroyed: number; oilDestroyed: number }>({
    type: "war",
    category: "personal",
    priority: "high",
    impact: (p) => (p.buildingsDestroyed >= 20 ? "moderate" : "minor"),
    title: (p) => (p.spy ? `${p.spy.name} sabotaged your country` : "Sabotage!"),
    description: (p) => `Saboteurs${p.spy ? ` of ${p.spy.name}` : ""} destroyed ${plural(p.buildingsDestroyed, "building")} and ${plural(p.oilDestroyed, "barrel")} of oil.`,
    tags: ["espionage", "sabotage"],
  }),
  war_declared: news<{ aggressor: Named; target: Named; kind: "country" | "alliance" }>({
    type: "war",
    category: "global",
    priority: "high",
    impact: (p) => (p.kind === "alliance" ? "major" : "moderate"),
    title: (p) => `${p.aggressor.name} declares war on ${p.target.name}`,
    description: (p) => `${p.aggressor.name} has declared war on ${p.target.name}.`,
    tags: ["war"],
  }),
  peace_made: news<{ a: Named; b: Named }>({
    type: "diplomatic",
    category: "global",
    priority: "medium",
    impact: "moderate",
    title: (p) => `Peace between ${p.a.name} and ${p.b.name}`,
    description: (p) => `${p.a.name} and ${p.b.name} have ended their war.`,
    tags: ["peace"],
  }),

  // --- alliance ---------------------------------------------------------------------------
  alliance_founded: news<{ alliance: Named & { tag: string }; founder: Named }>({
    type: "alliance",
    category: "global",
    priority: "medium",
    impact: "moderate",
    title: (p) => `Alliance [${p.alliance.tag}] ${p.alliance.name} founded`,
    description: (p) => `${p.founder.name} founded the alliance [${p.alliance.tag}] ${p.alliance.name}.`,
    tags: ["alliance"],
  }),
  alliance_member_joined: news<{ alliance: Named; member: Named }>({
    type: "alliance",
    category: "alliance",
    priority: "low",
    impact: "minor",
    title: (p) => `${p.member.name} joined the alliance`,
    description: (p) => `${p.member.name} is now a member of ${p.alliance.name}.`,
    tags: ["alliance", "membership"],
  }),
  alliance_member_left: news<{ alliance: Named; member: Named }>({
    type: "alliance",
    category: "alliance",
    priority: "low",
    impact: "minor",
    title: (p) => `${p.member.name} left the alliance`,
    description: (p) => `${p.member.name} is no longer a member of ${p.alliance.name}.`,
    tags: ["alliance", "membership"],
  }),
  alliance_member_kicked: news<{ alliance: Named; member: Named; by: Named }>({
    type: "alliance",
    category: "alliance",
    priority: "medium",
    impact: "minor",
    title: (p) => `${p.member.name} was removed from the alliance`,
    description: (p) => `${p.by.name} removed ${p.member.name} from ${p.alliance.name}.`,
    tags: ["alliance", "membership"],
  }),
  /** to the member who was removed */
  alliance_kicked: news<{ alliance: Named; by: Named }>({
    type: "alliance",
    category: "personal",
    priority: "high",
    impact: "moderate",
    title: (p) => `Removed from ${p.alliance.name}`,
    description: (p) => `${p.by.name} removed your country from the alliance ${p.alliance.name}.`,
    tags: ["alliance", "membership"],
  }),
  alliance_disbanded: news<{ alliance: Named & { tag: string } }>({
    type: "alliance",
    category: "global",
    priority: "medium",
    impact: "moderate",
    title: (p) => `Alliance [${p.alliance.tag}] ${p.alliance.name} disbanded`,
    description: (p) => `The alliance [${p.alliance.tag}] ${p.alliance.name} has been disbanded.`,
    tags: ["alliance"],
  }),

  /** an alliance operation was launched (alliances) */
  alliance_operation_completed: news<{ alliance: Named; operation: string; operationType: string; target: Named; participants: number; bonusPoints: number }>({
    type: "alliance",
    category: "alliance",
    priority: "medium",
    impact: (p) => (p.participants >= 5 ? "moderate" : "minor"),
    title: (p) => `Operation ${p.operation} launched against ${p.target.name}`,
    description: (p) => `${plural(p.participants, "member")} of ${p.alliance.name} carried out the ${p.operationType} "${p.operation}" against ${p.target.name}, earning ${plural(p.bonusPoints, "bonus point")}.`,
    tags: (p) => ["alliance", "operation", p.operationType],
  }),
  /** the owner bought a bonus for the alliance (alliances) */
  alliance_bonus_purchased: news<{ alliance: Named; bonus: string; level: number; cost: number }>({
    type: "alliance",
    category: "alliance",
    priority: "low",
    impact: "minor",
    title: (p) => `${p.bonus}${p.level > 1 ? ` level ${p.level}` : ""} acquired`,
    description: (p) => `${p.alliance.name} spent ${plural(p.cost, "bonus point")} on ${p.bonus}${p.level > 1 ? ` level ${p.level}` : ""}.`,
    tags: ["alliance", "bonus"],
  }),

  // --- market -----------------------------------------------------------------------------
  large_trade: news<{ item: string; quantity: number; totalValue: number; buyer: Named | null; seller: Named | null }>({
    type: "market",
    category: "global",
    priority: (p) => (p.totalValue >= 1_000_000 ? "high" : "medium"),
    impact: (p) => tradeImpact(p.totalValue),
    title: (p) => `Large trade: ${itemQuantity(p.item, p.quantity)} for ${formatMoney(p.totalValue)}`,
    description: (p) => `${itemQuantity(p.item, p.quantity)} changed hands for ${formatMoney(p.totalValue)}${p.buyer ? `; the buyer was ${p.buyer.name}` : ""}.`,
    tags: (p) => ["trade", p.item],
  }),
  price_move: news<{ item: string; fromPrice: number; toPrice: number; percent: number; periodHours: number }>({
    type: "market",
    category: "global",
    priority: (p) => priceMovePriority(p.percent),
    impact: (p) => priceMoveImpact(p.percent),
    title: (p) => `${capitalized(p.item)} prices ${p.percent >= 0 ? "up" : "down"} ${Math.abs(Math.round(p.percent))}%`,
    description: (p) => `The average price of ${p.item} moved from ${formatMoney(p.fromPrice)} to ${formatMoney(p.toPrice)} in ${plural(p.periodHours, "hour")}.`,
    tags: (p) => ["price", p.item],
  }),

  // --- diplomatic ---------------------------------------------------------------------------
  diplomatic_relation: news<{ a: Named; b: Named; relation: string }>({
    type: "diplomatic",
    category: "global",
    priority: "low",
    impact: "minor",
    title: (p) => `${p.a.name} and ${p.b.name} sign a ${p.relation} pact`,
    description: (p) => `${p.a.name} and ${p.b.name} established a ${p.relation} relation.`,
    tags: (p) => ["diplomacy", p.relation],
  }),
  diplomatic_proposal: news<{ from: Named; relation: string }>({
    type: "diplomatic",
    category: "personal",
    priority: "medium",
    impact: "minor",
    title: (p) => `${p.from.name} proposes a ${p.relation} pact`,
    description: (p) => `${p.from.name} sent you a proposal for a ${p.relation} relation.`,
    tags: ["diplomacy", "proposal"],
  }),

  // --- achievements and the country's own standing --------------------------------------------
  achievement_unlocked: news<{ achievement: string; name: string; description: string; rarity: "common" | "rare" | "legendary" }>({
    type: "achievement",
    category: "personal",
    priority: (p) => (p.rarity === "common" ? "low" : "medium"),
    impact: (p) => (p.rarity === "legendary" ? "major" : p.rarity === "rare" ? "moderate" : "minor"),
    title: (p) => `Achievement unlocked: ${p.name}`,
    description: (p) => p.description,
    tags: (p) => ["achievement", p.achievement],
  }),
  research_level: news<{ technology: string; name: string; level: number; maxLevel: number }>({
    type: "achievement",
    category: "personal",
    priority: (p) => (p.level >= p.maxLevel ? "medium" : "low"),
    impact: (p) => (p.level >= p.maxLevel ? "moderate" : "minor"),
    title: (p) => (p.level >= p.maxLevel ? `${p.name} research complete` : `${p.name} research reached level ${p.level}`),
    description: (p) => (p.level >= p.maxLevel ? `${p.name} technology reached its maximum level, ${p.level}.` : `${p.name} technology advanced to level ${p.level} of ${p.maxLevel}.`),
    tags: (p) => ["research", p.technology],
  }),
  rank_overtaken: news<{ metric: string; previousRank: number; rank: number; by: Named[] }>({
    type: "achievement",
    category: "personal",
    priority: (p) => rankLossPriority(p.previousRank, p.rank),
    impact: "minor",
    title: (p) => `Overtaken in the ${p.metric} rankings`,
    description: (p) => `You fell from #${p.previousRank} to #${p.rank}${p.by.length > 0 ? `, overtaken by ${joinNames(p.by.map((c) => c.name))}` : ""}.`,
    tags: ["rankings"],
  }),

  // --- the country's condition (system) ---------------------------------------------------------
  starving: news<{ turns: number; peopleLost: number; troopsLost: number }>({
    type: "system",
    category: "personal",
    priority: "high",
    impact: (p) => (p.peopleLost >= 1_000 ? "moderate" : "minor"),
    title: () => "Famine: your people are starving",
    description: (p) => `Food ran out in ${plural(p.turns, "turn")}; ${plural(p.peopleLost, "person", "people")} and ${plural(p.troopsLost, "troop")} died. Build farms or buy food.`,
    tags: ["economy", "food"],
  }),
  bankrupt: news<{ turns: number; unpaid: number }>({
    type: "system",
    category: "personal",
    priority: "critical",
    impact: "moderate",
    title: () => "Bankruptcy: the treasury is empty",
    description: (p) => `Cash ran out in ${plural(p.turns, "turn")}; ${formatMoney(p.unpaid)} of expenses went unpaid and units deserted. Cut upkeep or raise income.`,
    tags: ["economy", "cash"],
  }),
  automation: news<{ action: string; detail: string }>({
    type: "system",
    category: "personal",
    priority: "low",
    impact: "minor",
    title: (p) => `Auto-build: ${p.action}`,
    description: (p) => p.detail,
    tags: ["automation"],
  }),
  system_announcement: news<{ title: string; message: string; priority: NewsPriority }>({
    type: "system",
    category: "global",
    priority: (p) => p.priority,
    impact: "minor",
    title: (p) => p.title,
    description: (p) => p.message,
    tags: ["announcement"],
  }),

  // --- seasons ------------------------------------------------------------------------------
  season_started: news<{ season: string; endsAt: number }>({
    type: "seasonal",
    category: "global",
    priority: "critical",
    impact: "historic",
    title: (p) => `${p.season} has begun`,
    description: (p) => `${p.season} is under way. Every country starts again from the same footing; the round ends ${new Date(p.endsAt).toUTCString()}.`,
    tags: ["season"],
  }),
  season_ending_soon: news<{ season: string; endsAt: number; hoursLeft: number }>({
    type: "seasonal",
    category: "global",
    priority: "high",
    impact: "major",
    title: (p) => `${p.season} ends in ${plural(p.hoursLeft, "hour")}`,
    description: (p) => `Final scores are taken when ${p.season} ends at ${new Date(p.endsAt).toUTCString()}.`,
    tags: ["season"],
  }),
  season_ended: news<{ season: string; winner: Named | null; winnerNetworth: number; players: number }>({
    type: "seasonal",
    category: "global",
    priority: "critical",
    impact: "historic",
    title: (p) => `${p.season} has ended`,
    description: (p) => (p.winner ? `${p.winner.name} won ${p.season} with a networth of ${formatCount(p.winnerNetworth)}, ahead of ${plural(Math.max(0, p.players - 1), "other country", "other countries")}.` : `${p.season} has ended.`),
    tags: ["season"],
  }),
} satisfies Record<string, NewsDefinition<never>>;

export type NewsCatalogue = typeof NEWS_CATALOGUE;
export type NewsKind = keyof NewsCatalogue;
/** The parameters an item of `kind` is recorded with. */
export type NewsParams<K extends NewsKind> = NewsCatalogue[K] extends NewsDefinition<infer P> ? P : never;

export const NEWS_KINDS = Object.keys(NEWS_CATALOGUE) as NewsKind[];

export function isNewsKind(value: unknown): value is NewsKind {
  return typeof value === "string" && Object.prototype.hasOwnProperty.call(NEWS_CATALOGUE, value);
}

function capitalized(s: string): string {
  return s ? s.charAt(0).toUpperCase() + s.slice(1) : s;
}

function joinNames(names: string[]): string {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** Title and description are kept short enough for a card (characters). */
export const NEWS_TITLE_MAX = 160;
export const NEWS_DESCRIPTION_MAX = 1_000;

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** What the catalogue entry of `kind` decides for `params`. */
export function composeNews<K extends NewsKind>(kind: K, params: NewsParams<K>): NewsDraft {
  const def = NEWS_CATALOGUE[kind] as unknown as NewsDefinition<NewsParams<K>>;
  const pick = <T extends string>(rule: T | ((p: NewsParams<K>) => T)): T => (typeof rule === "function" ? rule(params) : rule);
  const description = clip(def.description(params), NEWS_DESCRIPTION_MAX);
  const tags = def.tags === undefined ? [] : typeof def.tags === "function" ? def.tags(params) : [...def.tags];
  return {
    kind,
    type: def.type,
    category: def.category,
    priority: pick(def.priority),
    impact: pick(def.impact),
    title: clip(def.title(params), NEWS_TITLE_MAX),
    description,
    content: def.content ? clip(def.content(params), NEWS_DESCRIPTION_MAX * 4) : description,
    tags: [...new Set(tags)],
    location: def.location?.(params) ?? "",
  };
}

/** Sort key of a priority: critical 0 ... low 3. */
export const priorityRank = (p: NewsPriority): number => NEWS_PRIORITIES.indexOf(p);

/**
 * The unread count after marking one item read (spec: lowered, never below 0) when the item
 * was unread; unchanged when it was already read.
 */
export function unreadAfterRead(unread: number, wasRead: boolean): number {
  return wasRead ? unread : Math.max(0, unread - 1);
}
