import { useEffect, useState, type ReactNode } from "react";
import { useGame } from "../../game/GameContext";
import { useMilitaryStatus } from "../../api/military";
import { Loading, Tabs } from "../../components/ui";
import { CommandPanel } from "./CommandPanel";
import { ProductionPanel } from "./ProductionPanel";
import { StrategyPanel } from "./StrategyPanel";
import { DefensePanel } from "./DefensePanel";
import { CombatPanel } from "./CombatPanel";
import { TargetPanel } from "./TargetPanel";
import { PreparationPanel } from "./PreparationPanel";
import { WarLogPanel } from "./WarLogPanel";

/** The eight panels of the military view (spec), in its order; a route intent opens one ("#/military?defense"). */
export const MILITARY_PANELS = [
  { id: "command", label: "Military Command" },
  { id: "production", label: "Unit Production" },
  { id: "strategy", label: "Military Strategy" },
  { id: "defense", label: "Defense Configuration" },
  { id: "combat", label: "Combat Operations" },
  { id: "targets", label: "Target Selection" },
  { id: "preparation", label: "Attack Preparation" },
  { id: "warlog", label: "War Log" },
] as const;
export type MilitaryPanelId = (typeof MILITARY_PANELS)[number]["id"];

const isPanel = (v: string | undefined): v is MilitaryPanelId => MILITARY_PANELS.some((p) => p.id === v);

/** The panel an intent opens: a panel id, or "warlog-<report id>" (a notice's View) for the war log with that report open. */
export function panelOfIntent(intent: string | undefined): { panel: MilitaryPanelId; reportId: number | null } | null {
  if (isPanel(intent)) return { panel: intent, reportId: null };
  const report = /^warlog-(\d+)$/.exec(intent ?? "");
  return report ? { panel: "warlog", reportId: Number(report[1]) } : null;
}

export function MilitaryScreen({ intent }: { intent?: string }) {
  const { country, countryError } = useGame();
  const opened = panelOfIntent(intent);
  const [panel, setPanel] = useState<MilitaryPanelId>(opened?.panel ?? "command");
  useEffect(() => {
    const next = panelOfIntent(intent);
    if (next) setPanel(next.panel);
  }, [intent]);
  const status = useMilitaryStatus(country?.id);
  if (!country) return countryError ? <div className="alert error">{countryError}</div> : <Loading text="Loading strategic data..." />;
  const needsStatus = (text: string, render: (s: NonNullable<typeof status.data>) => ReactNode) => (status.data ? render(status.data) : status.isError ? <div className="alert error">{status.error.message}</div> : <Loading text={text} />);
  return (
    <div className="stack" data-testid="military">
      <div className="page-header">
        <h1>Military</h1>
      </div>
      <div className="wrap-tabs">
        <Tabs label="Military panels" value={panel} onChange={setPanel} tabs={MILITARY_PANELS.map((p) => ({ id: p.id, label: p.label }))} />
      </div>
      {/* phones: one picker instead of eight rows of tabs */}
      <div className="field panel-picker">
        <label htmlFor="military-panel">Panel</label>
        <select id="military-panel" value={panel} onChange={(e) => setPanel(e.target.value as MilitaryPanelId)}>
          {MILITARY_PANELS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
        </select>
      </div>
      {panel === "command" && needsStatus("Loading strategic data...", (s) => <CommandPanel status={s} countryId={country.id} />)}
      {panel === "production" && needsStatus("Loading strategic data...", (s) => <ProductionPanel country={country} status={s} />)}
      {panel === "strategy" && needsStatus("Loading strategic data...", (s) => <StrategyPanel country={country} status={s} />)}
      {panel === "defense" && needsStatus("Loading defense systems...", (s) => <DefensePanel country={country} status={s} />)}
      {panel === "combat" && (status.data || status.isError ? <CombatPanel country={country} status={status.data} onChooseTarget={() => setPanel("targets")} /> : <Loading text="Loading combat systems..." />)}
      {panel === "targets" && <TargetPanel country={country} onSelected={() => setPanel("combat")} />}
      {panel === "preparation" && (status.data ? <PreparationPanel country={country} status={status.data} onChooseTarget={() => setPanel("targets")} /> : <Loading text="Loading attack preparation..." />)}
      {panel === "warlog" && <WarLogPanel key={opened?.reportId ?? "list"} focusId={opened?.reportId ?? null} />}
    </div>
  );
}
