import type { Client } from "@colyseus/core";
import type { AllianceRole } from "@game/schema/rules";
import type { AllianceState } from "@game/schema/state";
import type { ServiceContext } from "../../services/context.js";
import type { AllianceEvent } from "../../events.js";
import type { Logger } from "../../logger.js";

/** What an alliance room client carries (server side only). */
export interface AllianceClientData {
  userId: number;
  countryId: number;
  role: AllianceRole;
}

export type AllianceClient = Client<{ userData: AllianceClientData; auth: { userId: number; countryId: number } }>;

/** What a projection may use of its room. */
export interface AllianceHost {
  readonly ctx: ServiceContext;
  readonly log: Logger;
  readonly state: AllianceState;
  readonly allianceId: number;
  readonly clients: Iterable<AllianceClient>;
}

/**
 * One concern of the alliance state (header and bonuses, members, warfare, chat). Each owns
 * its part and writes it only from Postgres or from the alliance's events, so a room can be
 * disposed and rebuilt at any time, and two rooms of one alliance show the same thing.
 */
export interface AllianceProjection {
  load(): Promise<void>;
  onEvent?(event: AllianceEvent): void;
  /** a member's client joined or left (online status) */
  clientsChanged?(): void;
  /** every ALLIANCE_HEARTBEAT_MS */
  heartbeat?(): Promise<void>;
  dispose?(): void;
}
