import { MarketMessage } from "@game/schema/messages";
import type { WorldEvent } from "../../events.js";
import type { WorldClient, WorldProjection } from "./types.js";

/**
 * The market's live updates, outside the world state: listings and orders change too often and
 * matter only to players looking at the Market, so they are not synchronised to every client.
 * A client that opens the Market sends `marketWatch {watching: true}`; each `marketChanged`
 * world event (one per market action, carrying what changed) is sent as a message to the
 * watching clients of this shard only, with no query. Everyone else pays nothing.
 */
export class MarketProjection implements WorldProjection {
  private readonly watchers = new Set<WorldClient>();

  /** Starts or stops sending market changes to a client. */
  setWatching(client: WorldClient, watching: boolean): void {
    if (watching) this.watchers.add(client);
    else this.watchers.delete(client);
  }

  /** Clients receiving market changes (tests, metrics). */
  get watcherCount(): number {
    return this.watchers.size;
  }

  onWorldEvent(event: WorldEvent): void {
    if (event.type !== "marketChanged") return;
    for (const client of this.watchers) client.send(MarketMessage.marketChanged, event.change);
  }

  removeClient(client: WorldClient): void {
    this.watchers.delete(client);
  }

  dispose(): void {
    this.watchers.clear();
  }
}
