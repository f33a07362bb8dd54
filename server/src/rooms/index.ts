import type { Server } from "@colyseus/core";
import { ALLIANCE_ROOM, WORLD_ROOM } from "@game/schema/messages";
import type { ServiceContext } from "../services/context.js";
import { bindWorldRoom, type WorldRoomOptions } from "./WorldRoom.js";
import { bindAllianceRoom } from "./AllianceRoom.js";

/** Registers every room type on the game server. */
export function defineRooms(gameServer: Server, ctx: ServiceContext): void {
  // Define options override client options, so a client cannot pick its shard size.
  const worldOptions: WorldRoomOptions = { shardSize: ctx.config.worldShardSize };
  gameServer.define(WORLD_ROOM, bindWorldRoom(ctx), worldOptions);
  // One room per alliance: joinOrCreate matches on allianceId through the driver, on every
  // process (a custom roomId would race across processes and make duplicates).
  gameServer.define(ALLIANCE_ROOM, bindAllianceRoom(ctx)).filterBy(["allianceId"]);
}
