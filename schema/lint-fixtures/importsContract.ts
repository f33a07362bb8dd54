// Lint fixture (eslint.config.test.ts): schema may import its own files, zod and @colyseus/schema.
import { z } from "zod";
import { schema, t } from "@colyseus/schema";
import { CHAT_MAX_LENGTH } from "../src/rules/chat.js";

export const allowed = [z, schema, t, CHAT_MAX_LENGTH];
