import type { Presence } from "@colyseus/core";
import type { AllianceRole, AllyAttackedAlert, MarketChangedPayload, NoticePayload } from "@game/schema/messages";
import type { DefenseRequestJson, NewsItemJson, OperationJson } from "@game/schema/api";
import type { Logger } from "./logger.js";
import type { RedisFailureSink } from "./services/context.js";

/**
 * What happened, published after the transaction that caused it committed, on a topic:
 * `world` (everyone's rooms), `alliance:{id}` (that alliance's members' rooms) or
 * `country:{id}` (the rooms that country's player has open). A room subscribes only to the
 * topics it shows, so an alliance room never wakes for global chat and a player's private
 * numbers never travel to shards that do not hold that player. Events carry what changed, so
 * a projection rarely re-reads Postgres. With Redis presence they cross processes.
 *
 * Each domain adds its events to the union of the topic they belong to (docs/architecture.md,
 * "Events").
 */

/** A player's own numbers as the world room's private summary shows them (country topic). */
export interface CountryNumbers {
  /** the row's updated_at (epoch ms): a projection never replaces numbers with older ones */
  version: number;
  name: string;
  turns: number;
  storedTurns: number;
  cash: number;
  food: number;
  oil: number;
  networth: number;
  population: number;
  land: number;
}

/** A country's public face as rankings and the online list show it (world topic). */
export interface PublicCountryNumbers {
  countryId: number;
  name: string;
  networth: number;
  land: number;
  government: string;
}

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

/** A player who connected to a world room (public fields only). */
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

/**
 * A news item as published after its transaction committed (services/news.ts recordNews):
 * everything but the reader's own read state. The item's category says its audience.
 */
export interface NewsEventItem extends Omit<NewsItemJson, "isRead"> {
  allianceId: number | null;
  countryId: number | null;
}

/**
 * A battle as everyone may know it (news, rankings, alliance rooms): who attacked whom, how,
 * who won and the land that changed hands. Never forces or casualties.
 */
export interface PublicBattleEvent {
  battleId: number;
  attackerId: number;
  attackerName: string;
  defenderId: number;
  defenderName: string;
  attackType: string;
  outcome: "attacker_victory" | "defender_victory";
  landCaptured: number;
  landDestroyed: number;
  /** epoch ms */
  at: number;
}

/** A war declaration as everyone may know it. */
export interface PublicWarEvent {
  declarationId: number;
  declarerId: number;
  declarerName: string;
  targetId: number;
  targetName: string;
  /** epoch ms */
  at: number;
}

/** Events on the `world` topic: public, every world room shard applies them. */
export type WorldEvent =
  /** a country's public numbers changed (an action, a battle, a trade): rankings, online list */
  | { type: "countryRanked"; country: PublicCountryNumbers; reason: string }
  /** the turn tick applied ticks up to tickNumber */
  | { type: "tick"; tickNumber: number; nextTickAt: number; turnIntervalMs: number }
  /** a message on an open global channel */
  | { type: "chatMessage"; channelId: string; message: ChatMessageEvent }
  | { type: "seasonChanged" }
  /** a global news item: the ticker, every client's unread count */
  | { type: "newsPublished"; item: NewsEventItem }
  | { type: "userOnline"; user: OnlineUserEvent }
  | { type: "userOffline"; userId: number }
  /** a battle was fought (public fields only): news, rankings */
  | { type: "battleResolved"; battle: PublicBattleEvent }
  /** a war was declared, or ended (by the declarer, or automatically when it could not pay) */
  | { type: "warDeclared"; war: PublicWarEvent }
  | { type: "warEnded"; war: PublicWarEvent; reason: "declared_peace" | "bankrupt" }
  /** listings, the public order book or trades of one item changed (forwarded to clients watching the market) */
  | { type: "marketChanged"; change: MarketChangedPayload };

/** Events on `country:{id}`: one player's private news, for the rooms that player has open. */
export type CountryEvent =
  /** the country's own numbers after an action, with what caused it */
  | { type: "countryChanged"; countryId: number; reason: string; numbers: CountryNumbers }
  /** the player's /ignore list changed */
  | { type: "ignoreListChanged"; userId: number; ignoredUserIds: number[] }
  /** the country joined, left or changed role in an alliance */
  | { type: "membershipChanged"; countryId: number; allianceId: number | null; allianceRole: AllianceRole | null }
  /** something the player should see at once (attacked, a spy caught...): sent to their clients */
  | { type: "notice"; countryId: number; notice: NoticePayload }
  /** a personal news item for this country's player */
  | { type: "newsPublished"; item: NewsEventItem }
  /** the player read news (one item or all): every open client's unread count follows */
  | { type: "newsRead"; userId: number; unreadCount: number };

/** Why a country left an alliance. */
export type AllianceLeaveReason = "left" | "kicked" | "disbanded";

/** Events on `alliance:{id}`: for that alliance's members only. */
export type AllianceEvent =
  /**
   * a message of an alliance channel; channelId is the channel it is stored under (the
   * global chat's `alliance` and `leadership`, or the alliance room's `alliance_military` and
   * `alliance_intelligence`)
   */
  | { type: "allianceChatMessage"; allianceId: number; channelId: string; message: ChatMessageEvent }
  /** header, requirements, points or bonuses changed: the room re-reads them */
  | { type: "allianceChanged"; allianceId: number; reason: string }
  | { type: "memberJoined"; allianceId: number; countryId: number }
  /** the room closes that member's connections at once */
  | { type: "memberLeft"; allianceId: number; countryId: number; reason: AllianceLeaveReason }
  /** the room widens or narrows that member's view at once */
  | { type: "memberRoleChanged"; allianceId: number; countryId: number; role: AllianceRole }
  /** an operation was planned or changed (answers, launch, cancel): carried whole */
  | { type: "operationChanged"; allianceId: number; operation: OperationJson }
  /** a defense request was raised or answered: carried whole */
  | { type: "defenseRequestChanged"; allianceId: number; request: DefenseRequestJson }
  /** a member was attacked: every online member is alerted */
  | { type: "allyAttacked"; allianceId: number; alert: AllyAttackedAlert }
  /** applications or invitations came or went: the leaders' counters */
  | { type: "leadershipQueueChanged"; allianceId: number }
  /** the last member left: every connection closes */
  | { type: "allianceDisbanded"; allianceId: number }
  /** a news item for the alliance's members */
  | { type: "newsPublished"; item: NewsEventItem }
  /** a member fought a battle, as attacker or defender (for the alliance room) */
  | { type: "battleResolved"; allianceId: number; side: "attacker" | "defender"; battle: PublicBattleEvent };

/** Any event, for code that handles several topics. */
export type GameEvent = WorldEvent | CountryEvent | AllianceEvent;

/**
 * A topic and the events it carries. Build them with the functions below; the phantom type
 * makes `publish(allianceTopic(3), aWorldEvent)` a compile error.
 */
export interface EventTopic<E extends GameEvent> {
  readonly name: string;
  /** type-level only: the events of this topic */
  readonly __events?: E;
}

/** Every world room shard. */
export const WORLD_TOPIC: EventTopic<WorldEvent> = { name: "world" };
/** The rooms of one alliance's members. */
export const allianceTopic = (allianceId: number): EventTopic<AllianceEvent> => ({ name: `alliance:${allianceId}` });
/** The rooms one country's player has open. */
export const countryTopic = (countryId: number): EventTopic<CountryEvent> => ({ name: `country:${countryId}` });

/** An event with its topic: what services collect during a transaction and publish after it. */
export interface TopicEvent<E extends GameEvent = GameEvent> {
  topic: EventTopic<E>;
  event: E;
}

/** Pairs an event with its topic, type-checked. */
export function on<E extends GameEvent>(topic: EventTopic<E>, event: E): TopicEvent<E> {
  return { topic, event };
}

export type EventListener<E extends GameEvent> = (event: E) => void;

export interface EventBus {
  publish<E extends GameEvent>(topic: EventTopic<E>, event: E): void;
  /** Publishes each pair in order. */
  publishAll(events: readonly TopicEvent[]): void;
  /** @returns a function that unsubscribes this listener */
  subscribe<E extends GameEvent>(topic: EventTopic<E>, listener: EventListener<E>): () => void;
  /** Resolves once every current subscription is live (Redis subscribe is asynchronous). */
  ready(): Promise<void>;
  /**
   * Calls `listener` whenever this process's subscriptions are live again after its connection
   * to the other processes dropped: events published meanwhile are lost, and whoever shows them
   * reads Postgres again. Returns the unsubscribe function. Absent: this bus never drops
   * anything (one process).
   */
  onResync?(listener: () => void): () => void;
}

/** A presence that says when its subscriptions came back (ResyncingRedisPresence). */
interface ResubscribingPresence {
  onResubscribed(listener: () => void): () => void;
}

/**
 * The presence channel of a topic in one world: `game:<worldId>:<topic>`. The prefix keeps game
 * topics apart from Colyseus' own channels; the world id (migration 021) keeps worlds apart,
 * since Redis pub/sub channels are shared by every logical database of a Redis server.
 */
export function worldChannel(worldId: string, topicName: string): string {
  return worldId ? `game:${worldId}:${topicName}` : `game:${topicName}`;
}

/**
 * Event bus on Colyseus presence pub/sub (local in one process, Redis across processes). One
 * presence subscription per topic while it has listeners; the last listener leaving
 * unsubscribes, so a shard holds subscriptions only for the players and alliances it shows.
 */
export class PresenceEventBus implements EventBus {
  private readonly topics = new Map<string, { listeners: Set<EventListener<GameEvent>>; callback: (event: GameEvent) => void; ready: Promise<unknown> }>();
  /** subscriptions not confirmed yet */
  private readonly pending = new Set<Promise<unknown>>();

  /**
   * @param worldId the world whose events this bus carries (readWorldId); processes of other
   *   worlds on the same Redis never hear them
   * @param outage where a Redis that stopped answering is noted (one log line per outage, not per event)
   */
  constructor(
    private readonly presence: Presence,
    private readonly logger: Logger,
    private readonly worldId = "",
    private readonly outage?: RedisFailureSink,
  ) {}

  publish<E extends GameEvent>(topic: EventTopic<E>, event: E): void {
    Promise.resolve(this.presence.publish(worldChannel(this.worldId, topic.name), event)).catch(
      (err) => this.outage?.noteFailure(err, "event publish") || this.logger.error({ err, topic: topic.name, event: event.type }, "event publish failed"),
    );
  }

  publishAll(events: readonly TopicEvent[]): void {
    for (const { topic, event } of events) this.publish(topic, event);
  }

  subscribe<E extends GameEvent>(topic: EventTopic<E>, listener: EventListener<E>): () => void {
    let entry = this.topics.get(topic.name);
    if (!entry) {
      const listeners = new Set<EventListener<GameEvent>>();
      const callback = (event: GameEvent) => {
        for (const l of [...listeners]) {
          try {
            l(event);
          } catch (err) {
            this.logger.error({ err, topic: topic.name, event: event.type }, "event listener failed");
          }
        }
      };
      const ready: Promise<unknown> = Promise.resolve(this.presence.subscribe(worldChannel(this.worldId, topic.name), callback))
        .catch((err) => this.logger.error({ err, topic: topic.name }, "event subscribe failed"))
        .finally(() => this.pending.delete(ready));
      this.pending.add(ready);
      entry = { listeners, callback, ready };
      this.topics.set(topic.name, entry);
    }
    const current = entry;
    current.listeners.add(listener as EventListener<GameEvent>);
    return () => {
      current.listeners.delete(listener as EventListener<GameEvent>);
      if (current.listeners.size === 0 && this.topics.get(topic.name) === current) {
        this.topics.delete(topic.name);
        Promise.resolve(this.presence.unsubscribe(worldChannel(this.worldId, topic.name), current.callback)).catch((err) => this.logger.error({ err, topic: topic.name }, "event unsubscribe failed"));
      }
    };
  }

  /** Resolves once every current subscription is live (Redis subscribe is asynchronous). */
  async ready(): Promise<void> {
    // Only the subscriptions still waiting for Redis: a world shard joins thousands of country
    // topics, and walking all of them on every join made joins O(clients).
    await Promise.all([...this.pending]);
  }

  onResync(listener: () => void): () => void {
    const presence = this.presence as Presence & Partial<ResubscribingPresence>;
    // Local presence never drops anything: nothing to resynchronise.
    return presence.onResubscribed?.(listener) ?? (() => undefined);
  }

  /** Topics with at least one listener in this process (tests and metrics). */
  subscribedTopics(): string[] {
    return [...this.topics.keys()];
  }
}
