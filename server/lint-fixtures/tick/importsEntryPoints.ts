// The tick calls services and db, never the other entry points.
import { createApp } from "../http/app.js";
import { defineRooms } from "../rooms/index.js";
import { endSeason } from "../services/seasonLifecycle.js";
export const x = [createApp, defineRooms, endSeason] as const;
