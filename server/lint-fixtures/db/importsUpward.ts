// db is the bottom layer: every import below climbs out of it.
import { playAiRound } from "../services/ai.js";
import { createApp } from "../http/app.js";
import { defineRooms } from "../rooms/index.js";
import { runTick } from "../tick/index.js";
import type { TickContext } from "../tick/index.js";
import { sqlLiteral } from "./sqlLiteral.js";
export const x = [playAiRound, createApp, defineRooms, runTick, sqlLiteral] as const;
export type Y = TickContext;
