import type { Client } from "@colyseus/core";
import type { AllianceRole, WatchTopic } from "@game/schema/messages";
import type { WorldState } from "@game/schema/state";
import type { ServiceContext } from "../../services/context.js";
import type { CountrySummary, WorldMember } from "../../services/world.js";
import type { EventListener, EventTopic, GameEvent, WorldEvent } from "../../events.js";
import type { Logger } from "../../logger.js";

/** What a world room client carries (server side only, never synchronised). */
export interface WorldClientData {
  userId: number;
  countryId: number;
  allianceId: number | null;
  allianceRole: AllianceRole | null;
  /** user ids whose alliance-channel messages are not pushed to this client */
  ignored: Set<number>;
  /** what this client's screens show now ("watch") */
  watching: Set<WatchTopic>;
}

export type WorldClient = Client<{ userData: WorldClientData; auth: { userId: number; countryId: number } }>;

/** What a shard's projection may use of its room. */
export interface WorldHost {
  readonly ctx: ServiceContext;
  readonly log: Logger;
  readonly state: WorldState;
  readonly roomId: string;
  readonly clients: Iterable<WorldClient> & { get(sessionId: string): WorldClient | undefined };
  /** Subscribes for the life of the room; returns an early unsubscribe. */
  subscribe<E extends GameEvent>(topic: EventTopic<E>, listener: EventListener<E>): () => void;
}

/**
 * One concern of a shard (the season clock, the news ticker, the players' own numbers). The
 * room calls these in list order; each projection owns its part and writes it only from
 * Postgres or from events, so every shard shows the same world. What is the same for every
 * shard of a process (rankings, presence, chat, market) lives in WorldFeeds instead.
 */
export interface WorldProjection {
  /** Fills its part of the state from Postgres (the room subscribes to events first). */
  load?(): Promise<void>;
  /** A `world` topic event, from any process. */
  onWorldEvent?(event: WorldEvent): void;
  /** A client joined (its member record and private summary already read). */
  addClient?(client: WorldClient, member: WorldMember, summary: CountrySummary): void;
  /** A client left for good. */
  removeClient?(client: WorldClient): void;
  /** Called every ONLINE_HEARTBEAT_MS; `beat` counts from 1. */
  heartbeat?(beat: number): Promise<void>;
  /** The connection to the other processes came back: read again what may have been missed. */
  resync?(): Promise<void>;
  dispose?(): void;
}

/** Sets only the fields that differ, so unchanged values add nothing to the next patch. */
export function assignChanged<T extends object>(target: T, values: Partial<T>): void {
  for (const key of Object.keys(values) as Array<keyof T>) {
    if (target[key] !== values[key]) target[key] = values[key]!;
  }
}

/**
 * Runs `work` at most once per `delayMs`, and again after a run if it was asked meanwhile:
 * a burst of events becomes one query.
 */
export class Coalescer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly delayMs: number,
    private readonly work: () => Promise<void>,
    private readonly onError: (err: unknown) => void,
  ) {}

  request(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.running = this.work()
        .catch(this.onError)
        .finally(() => {
          this.running = undefined;
          if (this.again) {
            this.again = false;
            this.request();
          }
        });
    }, this.delayMs);
  }

  /** Settles when no run is pending or running (tests). */
  async idle(): Promise<void> {
    while (this.timer || this.running) await (this.running ?? new Promise((r) => setTimeout(r, this.delayMs)));
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.again = false;
  }
}
