import { getMessageBytes, Protocol, type Client } from "@colyseus/core";
import type { z } from "zod";
import type { RoomMessageEntry } from "@game/schema/messages";

/**
 * A room message encoded once, to be sent to many clients: `client.send` would encode it
 * again for each of them, the cost that grew with every connected client (issue 29). The
 * bytes are what Colyseus's own `broadcast` sends (ROOM_DATA, the type, msgpack).
 */
export function encodeMessage<E extends RoomMessageEntry>(entry: E, payload: z.input<E["payload"]>): Uint8Array {
  return getMessageBytes.raw(Protocol.ROOM_DATA, entry.type, payload);
}

/** Sends encoded bytes to each client (queued until a still-joining client has joined). */
export function sendEncoded(clients: Iterable<Client>, bytes: Uint8Array): number {
  let sent = 0;
  for (const client of clients) {
    client.enqueueRaw(bytes);
    sent += 1;
  }
  return sent;
}

/** Sends a catalogue message to one client, typed by its entry. */
export function sendMessage<E extends RoomMessageEntry>(client: Client, entry: E, payload: z.input<E["payload"]>): void {
  client.send(entry.type, payload);
}
