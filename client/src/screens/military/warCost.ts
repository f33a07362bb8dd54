import type { WarDeclarationJson } from "@game/schema/api";
import { useWarDeclarations } from "../../api/military";

/** What the player's declared, active wars cost per turn (the war costs phase charges it; allies may carry part). */
export function warCostPerTurn(wars: readonly Pick<WarDeclarationJson, "isDeclarer" | "status" | "costPerTurn">[]): number {
  return wars.filter((w) => w.isDeclarer && w.status === "active").reduce((sum, w) => sum + w.costPerTurn, 0);
}

/** The same for the signed-in player, from GET /war/declarations (0 until it loads). */
export function useWarCostPerTurn(enabled = true): number {
  const wars = useWarDeclarations(enabled);
  return warCostPerTurn(wars.data ?? []);
}
