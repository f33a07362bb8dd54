import { useEffect } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { AllianceBonusJson } from "@game/schema/api";
import { ALLIANCE_MESSAGES, checkBonusPurchase, findAllianceBonus, type AllianceEffects, type AllianceRole } from "@game/schema/rules";
import { allianceApi, allianceKeys, useAllianceBonuses } from "../../api/alliance";
import { ActionButton, Loading, Panel } from "../../components/ui";
import { fmt } from "../../components/format";
import { ActResult, timeLeft, useAct } from "./shared";

const EFFECT_LABEL: Record<keyof AllianceEffects, string> = {
  attackPct: "attack",
  defensePct: "defence",
  marketFeeReductionPct: "off the market fee",
  researchPct: "research",
  spySuccessPct: "spy success",
  incomePct: "tax income",
};

export function effectText(effects: Partial<AllianceEffects>, level = 1): string {
  return Object.entries(effects)
    .map(([k, v]) => `+${(v as number) * level}% ${EFFECT_LABEL[k as keyof AllianceEffects]}`)
    .join(", ");
}

/** Bonuses (spec): permanent and temporary, level, cost, effect, 'Insufficient points' and 'Owner only', ways to earn points. */
export function AllianceBonuses({ role, livePoints, liveBonuses }: { role: AllianceRole; livePoints: number | null; liveBonuses: string }) {
  const bonuses = useAllianceBonuses();
  const act = useAct();
  const queryClient = useQueryClient();
  // Points earned or spent, or a bonus bought or ended, anywhere: the catalogue's numbers follow.
  useEffect(() => {
    if (livePoints !== null) void queryClient.invalidateQueries({ queryKey: allianceKeys.bonuses });
  }, [livePoints, liveBonuses, queryClient]);
  if (bonuses.isLoading) return <Loading text="Loading bonuses..." />;
  if (bonuses.error || !bonuses.data) return <div className="alert error">{(bonuses.error as Error | null)?.message ?? "Failed to get alliance bonuses"}</div>;
  const { points, earning } = bonuses.data;
  const now = Date.now();
  const buy = (b: AllianceBonusJson) => {
    const level = b.isPermanent ? b.currentLevel + 1 : 1;
    const label = b.isPermanent ? `${b.name} level ${level}` : b.name;
    if (!window.confirm(`Purchase ${label} for ${fmt(b.nextCost ?? 0)} bonus points?`)) return;
    void act.run(`buy-${b.id}`, () => allianceApi.buyBonus(b.id), `${label} purchased`);
  };
  const card = (b: AllianceBonusJson) => {
    const def = findAllianceBonus(b.id)!;
    const purchases = bonuses.data!.purchases.map((p) => ({ bonusId: p.bonusId, level: p.level, purchasedAt: Date.parse(p.purchasedAt), expiresAt: p.expiresAt ? Date.parse(p.expiresAt) : null }));
    const reason = checkBonusPurchase({ role, bonus: def, purchases, points, now })?.message ?? null;
    return (
      <li key={b.id} className="list-card bonus-card" data-testid={`bonus-${b.id}`}>
        <div>
          <strong>{b.name}</strong> <span className="badge">{b.category}</span>
          <div className="small muted">{b.description}</div>
          <div className="small">
            {b.isPermanent ? (
              <>
                Level {b.currentLevel}/{b.maxLevel} · {effectText(b.effectsPerLevel)} per level
                {b.currentLevel > 0 && ` (now ${effectText(b.effectsPerLevel, b.currentLevel)})`}
              </>
            ) : (
              <>
                {effectText(b.effectsPerLevel)} for {b.duration} hours · cooldown {b.cooldown} hours
                {b.expiresAt && <span className="ok"> · active, ends {timeLeft(Date.parse(b.expiresAt), now)}</span>}
              </>
            )}
          </div>
        </div>
        <div className="stack" style={{ alignItems: "flex-end", gap: "0.3rem" }}>
          <span className="num">{b.nextCost === null ? "Max level" : `${fmt(b.nextCost)} points`}</span>
          {b.nextCost !== null && (
            <ActionButton disabledReason={reason} busy={act.busy === `buy-${b.id}`} onClick={() => buy(b)}>
              Purchase
            </ActionButton>
          )}
        </div>
      </li>
    );
  };
  return (
    <div className="stack" data-testid="alliance-bonuses">
      <div className="row">
        <span className="badge warn big-badge" data-testid="bonus-points">
          {fmt(points)} bonus points
        </span>
        {role !== "owner" && <span className="small muted">{ALLIANCE_MESSAGES.ownerOnly}: only the owner buys bonuses.</span>}
      </div>
      <ActResult error={act.error} message={act.message} />
      <div className="grid two">
        <Panel title="Permanent bonuses">
          <ul className="plain-list">{bonuses.data.bonuses.filter((b) => b.isPermanent).map(card)}</ul>
        </Panel>
        <Panel title="Temporary bonuses">
          <ul className="plain-list">{bonuses.data.bonuses.filter((b) => !b.isPermanent).map(card)}</ul>
        </Panel>
      </div>
      <Panel title="Ways to earn points">
        <ul className="plain-list">
          {earning.map((e) => (
            <li key={e.id}>
              <strong>{e.label}</strong>: <span className="muted">{e.points}</span>
            </li>
          ))}
        </ul>
      </Panel>
    </div>
  );
}
