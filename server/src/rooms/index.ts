import { matchMaker, type Server } from "@colyseus/core";
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

/** Colyseus's own placement, the process with the fewest rooms: read before a server's setup replaces it. */
const fewestRooms = matchMaker.selectProcessIdToCreateRoom;

/**
 * Which process creates a new room (Colyseus's `selectProcessIdToCreateRoom`).
 *
 * World shards go where Colyseus puts them by default, the process with the fewest rooms, so
 * the shards spread over the processes. An alliance room is created by the process that handles
 * the join: a creation on another process is a request over Redis that Colyseus bounds at 2 s
 * (COLYSEUS_PRESENCE_SHORT_TIMEOUT); past it, Colyseus creates a second room here while the
 * first, created late over there, stays listed: two rooms of one alliance. The alliance room's
 * onCreate reads Postgres, which on a loaded machine can take that long (the likely cause of the
 * duplicate the cross-process loop found at stop 35). Joins reach every process through the
 * front, so alliance rooms spread anyway.
 */
export async function processForNewRoom(roomName: string, clientOptions: matchMaker.ClientOptions): Promise<string> {
  return roomName === ALLIANCE_ROOM ? matchMaker.processId : fewestRooms(roomName, clientOptions);
}
