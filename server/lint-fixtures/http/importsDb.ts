// Routes translate to a service call: a query is refused, a row type passes.
import { findCountryById } from "../db/countries.js";
import type { CountryRow } from "../db/countries.js";
import { runTick } from "../tick/index.js";
import { defineRooms } from "../rooms/index.js";
import { countryById } from "../services/countries.js";
export const x = [findCountryById, runTick, defineRooms, countryById] as const;
export type Y = CountryRow;
