import { sql as foundation } from "./001_foundation.js";
import { sql as economy } from "./002_economy.js";
import { sql as world } from "./003_world.js";
import { sql as turnResults } from "./004_turn_results.js";
import { sql as researchCategories } from "./005_research_categories.js";
import { sql as countriesFillfactor } from "./006_countries_fillfactor.js";
import { sql as platform } from "./007_platform.js";
import { sql as hardening } from "./008_hardening.js";
import { sql as military } from "./009_military.js";
import { sql as market } from "./011_market.js";
import { sql as alliances } from "./012_alliances.js";
import { sql as shell } from "./013_shell.js";
import { sql as ai } from "./014_ai.js";
import { sql as espionage } from "./010_espionage.js";
import { sql as sessions } from "./017_sessions.js";
import { sql as manage } from "./015_manage.js";
import { sql as seasonsAdmin } from "./016_seasons_admin.js";
import { sql as actionPath } from "./018_action_path.js";
import { sql as authEpoch } from "./019_auth_epoch.js";
import { sql as bonusInputsTouch } from "./020_bonus_inputs_touch.js";
import { sql as worldIdentity } from "./021_world_identity.js";
import { sql as formerCountries } from "./022_former_countries.js";
import { sql as battleReplay } from "./023_battle_replay.js";
import { sql as formerCountriesWarsStrikes } from "./024_former_countries_wars_strikes.js";
import { sql as storeDemand } from "./025_store_demand.js";

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * Every migration, in order. Forward-only: add a new numbered file, never edit a released one.
 * Each domain owns its own file so work on different domains does not collide.
 */
export const MIGRATIONS: Migration[] = [
  { version: 1, name: "foundation", sql: foundation },
  { version: 2, name: "economy", sql: economy },
  { version: 3, name: "world", sql: world },
  { version: 4, name: "turn_results", sql: turnResults },
  { version: 5, name: "research_categories", sql: researchCategories },
  { version: 6, name: "countries_fillfactor", sql: countriesFillfactor },
  { version: 7, name: "platform", sql: platform },
  { version: 8, name: "hardening", sql: hardening },
  { version: 9, name: "military", sql: military },
  { version: 10, name: "espionage", sql: espionage },
  { version: 11, name: "market", sql: market },
  { version: 12, name: "alliances", sql: alliances },
  { version: 13, name: "shell", sql: shell },
  { version: 14, name: "ai", sql: ai },
  { version: 15, name: "manage", sql: manage },
  { version: 16, name: "seasons_admin", sql: seasonsAdmin },
  { version: 17, name: "sessions", sql: sessions },
  { version: 18, name: "action_path", sql: actionPath },
  { version: 19, name: "auth_epoch", sql: authEpoch },
  { version: 20, name: "bonus_inputs_touch", sql: bonusInputsTouch },
  { version: 21, name: "world_identity", sql: worldIdentity },
  { version: 22, name: "former_countries", sql: formerCountries },
  { version: 23, name: "battle_replay", sql: battleReplay },
  { version: 24, name: "former_countries_wars_strikes", sql: formerCountriesWarsStrikes },
  { version: 25, name: "store_demand", sql: storeDemand },
];
