import { routes } from "@game/schema/routes";
import type { ServiceContext } from "../services/context.js";
import { listChatChannels, listChatHistory, sendChatMessage } from "../services/chat.js";
import { loadOnlineUsers, toOnlineUserJson } from "../services/world.js";
import { authorizeCountryId } from "./handler.js";
import type { ApiPipeline } from "./pipeline.js";

/** /chat/channels/{countryId}, /chat/messages/{channelId}, /chat/online-users, /chat/send */
export function chatRoutes(ctx: ServiceContext, api: ApiPipeline): void {
  api.handle(routes.chatChannels, async (call) => {
    const claims = await authorizeCountryId(ctx, call, call.params.countryId);
    return { data: await listChatChannels(ctx, claims.userId) };
  });

  api.handle(routes.chatMessages, async (call) => {
    const { messages, hasMore } = await listChatHistory(ctx, call.claims!.userId, call.params.channelId, call.query);
    return { data: messages, hasMore };
  });

  api.handle(routes.onlineUsers, async () => ({ data: (await loadOnlineUsers(ctx)).map(toOnlineUserJson) }));

  api.handle(routes.sendChat, async (call) => {
    const result = await sendChatMessage(ctx, call.claims!.userId, call.body);
    if (result.kind === "command") {
      // a command's reply to the sender: nothing was created
      call.setStatus(200);
      return { data: result.reply };
    }
    return { data: result.message };
  });
}
