import { estimateNextTickAt, seasonStatus } from "@game/schema/messages";
import type { WorldEvent } from "../../events.js";
import { currentSeason } from "../../services/season.js";
import type { WorldHost, WorldProjection } from "./types.js";

/** state.season: name, status, dates and the turn clock. */
export class SeasonProjection implements WorldProjection {
  constructor(private readonly host: WorldHost) {}

  async load(): Promise<void> {
    const season = await currentSeason(this.host.ctx);
    Object.assign(this.host.state.season, {
      name: season.name,
      active: season.status,
      startsAt: season.startsAt,
      endsAt: season.endsAt,
      nextTickAt: season.nextTickAt,
      turnIntervalMs: season.turnIntervalMs,
      tickNumber: season.tickNumber,
    });
  }

  onWorldEvent(event: WorldEvent): void {
    if (event.type === "tick") {
      const { tickNumber, nextTickAt, turnIntervalMs } = event;
      Object.assign(this.host.state.season, { tickNumber, nextTickAt, turnIntervalMs });
    } else if (event.type === "seasonChanged") {
      void this.reload();
    }
  }

  /** Rolls the status to INACTIVE once the season ends and the clock past a late tick. */
  async heartbeat(): Promise<void> {
    const now = Date.now();
    const season = this.host.state.season;
    const status = seasonStatus({ isActive: true, startsAt: season.startsAt, endsAt: season.endsAt }, now);
    if (season.active === "ACTIVE" && status === "INACTIVE") season.active = status;
    if (season.nextTickAt < now) season.nextTickAt = estimateNextTickAt(now, season.turnIntervalMs);
  }

  private async reload(): Promise<void> {
    try {
      const season = await currentSeason(this.host.ctx);
      Object.assign(this.host.state.season, { name: season.name, active: season.status, startsAt: season.startsAt, endsAt: season.endsAt });
    } catch (err) {
      this.host.log.error({ err }, "season reload failed");
    }
  }
}
