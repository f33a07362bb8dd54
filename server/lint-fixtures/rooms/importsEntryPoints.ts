// Rooms meet http and tick in services; their projections may read db (read models).
import { createApp } from "../http/app.js";
import { runTick } from "../tick/index.js";
import { listMembers } from "../db/alliances.js";
export const x = [createApp, runTick, listMembers] as const;
