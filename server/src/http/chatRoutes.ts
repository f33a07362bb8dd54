import { Router } from "express";
import { chatChannelsParamsSchema, chatMessagesParamsSchema, chatMessagesQuerySchema } from "@game/schema/api";
import type { ServiceContext } from "../services/context.js";
import { listChatChannels, listChatHistory, sendChatMessage } from "../services/chat.js";
import { loadOnlineUsers, toOnlineUserJson } from "../services/world.js";
import { authenticate, authorizeCountryId, parse, route } from "./handler.js";

/** /chat/channels/{countryId}, /chat/messages/{channelId}, /chat/online-users, /chat/send */
export function chatRoutes(ctx: ServiceContext): Router {
  const router = Router();

  router.get(
    "/chat/channels/:countryId",
    route("Failed to get chat channels", async (req) => {
      const { countryId } = parse(chatChannelsParamsSchema, req.params);
      const claims = await authorizeCountryId(ctx, req, countryId);
      return { data: await listChatChannels(ctx, claims.userId) };
    }),
  );

  router.get(
    "/chat/messages/:channelId",
    route("Failed to get chat messages", async (req) => {
      const claims = await authenticate(ctx, req);
      const { channelId } = parse(chatMessagesParamsSchema, req.params);
      const page = parse(chatMessagesQuerySchema, req.query);
      const { messages, hasMore } = await listChatHistory(ctx, claims.userId, channelId, page);
      return { data: messages, hasMore };
    }),
  );

  router.get(
    "/chat/online-users",
    route("Failed to get online users", async (req) => {
      await authenticate(ctx, req);
      return { data: (await loadOnlineUsers(ctx)).map(toOnlineUserJson) };
    }),
  );

  router.post(
    "/chat/send",
    route("Failed to send chat message", async (req, res) => {
      const claims = await authenticate(ctx, req);
      const result = await sendChatMessage(ctx, claims.userId, req.body);
      if (result.kind === "command") return { data: result.reply };
      res.status(201);
      return { data: result.message };
    }),
  );

  return router;
}
