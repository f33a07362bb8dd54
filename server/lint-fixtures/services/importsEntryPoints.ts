// services are called by the entry points, never the reverse.
import { createApp } from "../http/app.js";
import { defineRooms } from "../rooms/index.js";
import { runTick } from "../tick/index.js";
import { findCountryById } from "../db/countries.js";
import { recordNews } from "./news.js";
export const x = [createApp, defineRooms, runTick, findCountryById, recordNews] as const;
