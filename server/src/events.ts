import type { Presence } from "@colyseus/core";
import type { Logger } from "./logger.js";

/**
 * What happened in the world, published after the transaction that caused it committed.
 * Rooms subscribe and project these onto their state; with Redis presence they cross processes.
 */
export type GameEvent =
  | { type: "countryChanged"; countryId: number; reason: string }
  | { type: "tick"; tickNumber: number; nextTickAt: number; turnIntervalMs: number }
  | { type: "chatMessage"; channelId: string; message: ChatMessageEvent; allianceScope?: number }
  | { type: "seasonChanged" }
  | { type: "userOnline"; user: OnlineUserEvent }
  | { type: "userOffline"; userId: number };

/** A persisted global chat message as it is fanned out. */
export interface ChatMessageEvent {
  id: string;
  channel: string;
  type: string;
  senderId: number;
  senderName: string;
  senderRole: string;
  allianceTag: string;
  timestamp: number;
  content: string;
  mentions: string[];
}

/**
 * A player who connected to a world room (public fields only). `allianceScope` on a chat
 * message is the alliance its alliance/leadership channel message belongs to (0 or absent:
 * an open channel).
 */
export interface OnlineUserEvent {
  userId: number;
  countryId: number;
  name: string;
  role: string;
  allianceId: number | null;
  allianceName: string;
  allianceTag: string;
  government: string;
  networth: number;
}

const TOPIC = "game:events";

export type GameEventListener = (event: GameEvent) => void;

export interface EventBus {
  publish(event: GameEvent): void;
  /** @returns a function that unsubscribes */
  subscribe(listener: GameEventListener): () => void;
}

/** Event bus on Colyseus presence pub/sub (local in one process, Redis across processes). */
export class PresenceEventBus implements EventBus {
  private readonly listeners = new Set<GameEventListener>();
  private subscribed: Promise<unknown> | undefined;

  constructor(private readonly presence: Presence, private readonly logger: Logger) {}

  publish(event: GameEvent): void {
    Promise.resolve(this.presence.publish(TOPIC, event)).catch((err) =>
      this.logger.error({ err, event: event.type }, "event publish failed"),
    );
  }

  subscribe(listener: GameEventListener): () => void {
    this.listeners.add(listener);
    this.subscribed ??= Promise.resolve(
      this.presence.subscribe(TOPIC, (event: GameEvent) => {
        for (const l of this.listeners) {
          try {
            l(event);
          } catch (err) {
            this.logger.error({ err, event: event.type }, "event listener failed");
          }
        }
      }),
    );
    return () => this.listeners.delete(listener);
  }

  /** Resolves once the presence subscription is live (Redis subscribe is asynchronous). */
  async ready(): Promise<void> {
    await this.subscribed;
  }
}
