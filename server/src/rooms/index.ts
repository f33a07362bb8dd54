import type { Server } from "@colyseus/core";
import type { ServiceContext } from "../services/context.js";

/** Registers every room type on the game server. */
export function defineRooms(_gameServer: Server, _ctx: ServiceContext): void {
  // WorldRoom ("world") is registered here by the real-time world work.
}
