import { useMemo, useState, type ReactNode } from "react";
import type { ListedCountryJson } from "@game/schema/api";
import { GOVERNMENTS, GOVERNMENT_TYPES, analyzeTarget, checkAttackTarget, plural, type KnownIntelligence, type SizeClass, type TargetAnalysis, type TargetFacts, type ThreatLevel } from "@game/schema/rules";
import type { Country } from "../../api/country";
import { toInt } from "../../api/country";
import { useTargetCountries } from "../../api/military";
import { useKnownIntelligence } from "../../api/espionage";
import { Loading, Panel, Stat } from "../../components/ui";
import { fmt, titleCase } from "../../components/format";
import { selection, useAttackSelection } from "./selection";

/** The spec's target filters and their defaults. */
export interface TargetFilters {
  name: string;
  networthMin: number;
  networthMax: number;
  landMin: number;
  landMax: number;
  government: string;
  alliance: "any" | "allied" | "unallied";
  protection: "any" | "unprotected" | "protected";
  playerType: "any" | "human" | "ai";
  threat: "any" | ThreatLevel;
  size: "any" | SizeClass;
  successMin: number;
  successMax: number;
}

export const DEFAULT_TARGET_FILTERS: TargetFilters = {
  name: "",
  networthMin: 0,
  networthMax: 1_000_000,
  landMin: 0,
  landMax: 10_000,
  government: "any",
  alliance: "any",
  protection: "unprotected",
  playerType: "any",
  threat: "any",
  size: "any",
  successMin: 0,
  successMax: 100,
};

/** A listed country with its analysis (public fields only). */
export interface TargetRow {
  country: ListedCountryJson;
  networth: number;
  land: number;
  analysis: TargetAnalysis;
  /** why it cannot be attacked now (the server's checkAttackTarget on the same public facts), or null */
  refusal: string | null;
  /** the same with a war declared on it (a war passes the GDI, nothing else) */
  refusalAtWar: string | null;
}

/** Protection status as the spec shows it: the underscore replaced by a space. */
export function protectionText(status: string): string {
  return status.replaceAll("_", " ");
}

/** The target list: every other country analysed from its public fields, filtered by the spec's filters. */
export function filterTargets(rows: TargetRow[], f: TargetFilters, ownAllianceId: number | null): TargetRow[] {
  const name = f.name.trim().toLowerCase();
  return rows.filter((r) => {
    const c = r.country;
    if (name && !c.name.toLowerCase().includes(name)) return false;
    if (r.networth < f.networthMin || r.networth > f.networthMax) return false;
    if (r.land < f.landMin || r.land > f.landMax) return false;
    if (f.government !== "any" && c.government_type !== f.government) return false;
    if (f.alliance === "allied" && (c.alliance_id === null || c.alliance_id !== ownAllianceId)) return false;
    if (f.alliance === "unallied" && c.alliance_id !== null) return false;
    if (f.protection === "unprotected" && c.protection_status !== "unprotected") return false;
    if (f.protection === "protected" && c.protection_status === "unprotected") return false;
    if (f.playerType === "human" && c.is_ai) return false;
    if (f.playerType === "ai" && !c.is_ai) return false;
    if (f.threat !== "any" && r.analysis.threat !== f.threat) return false;
    if (f.size !== "any" && r.analysis.sizeClass !== f.size) return false;
    if (r.analysis.successChance < f.successMin || r.analysis.successChance > f.successMax) return false;
    return true;
  });
}

/** The targeting facts of the own country, as the server reads them from its row. */
export function ownTargetFacts(country: Country): TargetFacts {
  return { id: country.id, networth: country.networth, land: country.landAcres, protectedUntil: 0, gdiMember: country.isGDIMember, isEliminated: false, allianceId: country.allianceId };
}

/** The targeting facts of a listed country (all public fields). */
export function listedTargetFacts(c: ListedCountryJson): TargetFacts {
  return { id: c.id, networth: toInt(c.networth), land: toInt(c.land), protectedUntil: Date.parse(c.protected_until), gdiMember: Boolean(c.gdi_protection), isEliminated: c.is_eliminated, allianceId: c.alliance_id };
}

/** The threat and chance as a list shows them: a band from public data says it is one (it does not follow the force). */
export function chanceText(a: TargetAnalysis): string {
  return a.basis === "intelligence" ? `${a.successChance}%` : `band ~${a.successChance}%`;
}

/** One listed country as the target lists show it: its analysis and whether the server would let `country` attack it. */
export function targetRow(country: Country, c: ListedCountryJson, intel: KnownIntelligence | null, atWar: boolean, now: number): TargetRow {
  const networth = toInt(c.networth);
  const land = toInt(c.land);
  const own = { networth: country.networth, land: country.landAcres, units: country };
  const analysis = analyzeTarget(own, { id: c.id, name: c.name, governmentType: c.government_type, networth, land, victories: c.victories, defeats: c.defeats }, intel, atWar);
  const facts = listedTargetFacts(c);
  const refusal = checkAttackTarget(ownTargetFacts(country), facts, { now, atWar })?.message ?? null;
  const refusalAtWar = checkAttackTarget(ownTargetFacts(country), facts, { now, atWar: true })?.message ?? null;
  return { country: c, networth, land, analysis, refusal, refusalAtWar };
}

/** Analyses every listed country but one's own, from public fields (useTargets). */
export function useTargets(country: Country | null, atWarWith: ReadonlySet<number> = new Set()) {
  const query = useTargetCountries(Boolean(country));
  // the freshest unexpired military spy report on each target (espionage), else public fields only
  const known = useKnownIntelligence(Boolean(country)).data;
  const rows = useMemo<TargetRow[]>(() => {
    if (!country || !query.data) return [];
    const now = Date.now();
    return query.data.countries.filter((c) => c.id !== country.id).map((c) => targetRow(country, c, known?.[c.id] ?? null, atWarWith.has(c.id), now));
  }, [country, query.data, atWarWith, known]);
  return { rows, query };
}

const THREAT_BADGE: Record<ThreatLevel, string> = { easy: "ok", medium: "warn", hard: "bad", impossible: "bad" };

/** Target Selection: search and filters, the list, the analysis of the highlighted country and 'Select as Target'. */
export function TargetPanel({ country, onSelected }: { country: Country; onSelected(): void }) {
  const { rows, query } = useTargets(country);
  const [filters, setFilters] = useState<TargetFilters>(DEFAULT_TARGET_FILTERS);
  const [more, setMore] = useState(false);
  const [focus, setFocus] = useState<number | null>(null);
  const chosen = useAttackSelection().target;
  const shown = filterTargets(rows, filters, country.allianceId);
  const focused = rows.find((r) => r.country.id === focus) ?? null;
  const set = <K extends keyof TargetFilters>(key: K, value: TargetFilters[K]) => setFilters((f) => ({ ...f, [key]: value }));
  const num = (key: keyof TargetFilters, label: string) => (
    <div className="field">
      <label htmlFor={`tf-${key}`}>{label}</label>
      <input id={`tf-${key}`} className="input" type="number" min={0} value={filters[key] as number} onChange={(e) => set(key, Math.max(0, Number(e.target.value) || 0) as never)} />
    </div>
  );

  if (query.isPending) return <Loading text="Loading target selection..." />;
  return (
    <div className="stack" data-testid="target-selection">
      <Panel title="Target Selection">
        <div className="target-filters">
          <div className="field">
            <label htmlFor="tf-name">Search</label>
            <input id="tf-name" className="input" placeholder="Country name" value={filters.name} onChange={(e) => set("name", e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="tf-protection">Protection</label>
            <select id="tf-protection" value={filters.protection} onChange={(e) => set("protection", e.target.value as TargetFilters["protection"])}>
              <option value="unprotected">Unprotected</option>
              <option value="protected">Protected</option>
              <option value="any">Any</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="tf-threat">Threat level</label>
            <select id="tf-threat" value={filters.threat} onChange={(e) => set("threat", e.target.value as TargetFilters["threat"])}>
              {["any", "easy", "medium", "hard", "impossible"].map((v) => (
                <option key={v} value={v}>
                  {titleCase(v)}
                </option>
              ))}
            </select>
          </div>
        </div>
        <button type="button" className="link-btn small" aria-expanded={more} onClick={() => setMore((m) => !m)}>
          {more ? "Fewer filters" : "More filters"}
        </button>
        {more && (
          <div className="target-filters" style={{ marginTop: "0.6rem" }}>
            {num("networthMin", "Networth from")}
            {num("networthMax", "Networth to")}
            {num("landMin", "Land from")}
            {num("landMax", "Land to")}
            <div className="field">
              <label htmlFor="tf-gov">Government</label>
              <select id="tf-gov" value={filters.government} onChange={(e) => set("government", e.target.value)}>
                <option value="any">Any</option>
                {GOVERNMENT_TYPES.map((g) => (
                  <option key={g} value={g}>
                    {GOVERNMENTS[g].name}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="tf-alliance">Alliance</label>
              <select id="tf-alliance" value={filters.alliance} onChange={(e) => set("alliance", e.target.value as TargetFilters["alliance"])}>
                <option value="any">Any</option>
                <option value="allied">Allied</option>
                <option value="unallied">Unallied</option>
              </select>
            </div>
            <div className="field">
              <label htmlFor="tf-type">Player type</label>
              <select id="tf-type" value={filters.playerType} onChange={(e) => set("playerType", e.target.value as TargetFilters["playerType"])}>
                <option value="any">Any</option>
                <option value="human">Human</option>
                <option value="ai">AI</option>
              </select>
            </div>
            <div className="field">
              <label htmlFor="tf-size">Size</label>
              <select id="tf-size" value={filters.size} onChange={(e) => set("size", e.target.value as TargetFilters["size"])}>
                {["any", "much_larger", "larger", "similar", "smaller", "much_smaller"].map((v) => (
                  <option key={v} value={v}>
                    {titleCase(v)}
                  </option>
                ))}
              </select>
            </div>
            {num("successMin", "Success chance from %")}
            {num("successMax", "Success chance to %")}
          </div>
        )}
      </Panel>
      <div className="grid two">
        <Panel title={`Potential Targets (${shown.length})`}>
          {query.isFetching && rows.length === 0 && <p className="muted">Loading potential targets...</p>}
          {shown.length === 0 ? (
            <div className="center muted" data-testid="targets-empty">
              <p>No countries match your search criteria</p>
              <p className="hint">Try adjusting your filters</p>
            </div>
          ) : (
            <ul className="target-list" aria-label="Potential targets">
              {shown.map((r) => (
                <li key={r.country.id}>
                  <button
                    type="button"
                    className={`target-row ${focus === r.country.id ? "focused" : ""} ${chosen?.id === r.country.id ? "chosen" : ""}`}
                    aria-pressed={focus === r.country.id}
                    onClick={() => setFocus(r.country.id)}
                    data-testid={`target-${r.country.id}`}
                  >
                    <span className="target-name">
                      {r.country.name}
                      {r.country.is_ai && <span className="badge"> AI</span>}
                    </span>
                    <span className="small muted">
                      {fmt(r.networth)} nw · {fmt(r.land)} acres · {protectionText(r.country.protection_status)}
                    </span>
                    {r.refusal ? (
                      <span className="badge" title={r.refusal} data-testid={`target-refusal-${r.country.id}`}>
                        out of reach
                      </span>
                    ) : (
                      <span className={`badge ${THREAT_BADGE[r.analysis.threat]}`}>{r.analysis.threat}</span>
                    )}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </Panel>
        <Panel title="Target Analysis">
          {!focused ? (
            <p className="muted">Choose a country in the list to analyse it.</p>
          ) : (
            <TargetAnalysisView row={focused} ownLand={country.landAcres}>
              <button
                type="button"
                className="btn primary block"
                data-testid="select-target"
                disabled={focused.refusal !== null}
                onClick={() => {
                  selection.selectTarget({ id: focused.country.id, name: focused.country.name });
                  onSelected();
                }}
              >
                {chosen?.id === focused.country.id ? "Selected as Target" : "Select as Target"}
              </button>
            </TargetAnalysisView>
          )}
        </Panel>
      </div>
    </div>
  );
}

/** The analysis of one target from public fields (intelligence, when the espionage work supplies it, in the attack preview). */
export function TargetAnalysisView({ row, ownLand, children }: { row: TargetRow; ownLand: number; children?: ReactNode }) {
  const a = row.analysis;
  const c = row.country;
  return (
    <div data-testid="target-analysis">
      <h3 style={{ marginTop: 0 }}>{c.name}</h3>
      <Stat label="Government" value={GOVERNMENTS[c.government_type]?.name ?? c.government_type} />
      <Stat label="Networth" value={fmt(row.networth)} />
      <Stat label="Land" value={`${fmt(row.land)} acres (yours ${fmt(ownLand)})`} />
      <Stat label="Record" value={`${plural(c.victories, "victory", "victories")}, ${plural(c.defeats, "defeat")}`} />
      <Stat label="Alliance" value={c.alliance_name ?? (c.alliance_id ? `#${c.alliance_id}` : "none")} />
      <Stat label="Protection" value={protectionText(c.protection_status)} />
      <Stat label="Networth ratio" value={a.networthRatio.toFixed(2)} />
      {row.refusal ? (
        <div className="alert warn" role="status" data-testid="target-refusal">
          {row.refusal}
          {!row.refusalAtWar && " (a war declaration passes the GDI)"}
        </div>
      ) : (
        <>
          <Stat label="Threat" value={<span className={`badge ${THREAT_BADGE[a.threat]}`}>{a.threat}</span>} />
          <Stat label={a.basis === "intelligence" ? "Success chance" : "Success chance (public band)"} value={chanceText(a)} />
        </>
      )}
      <Stat label="Size" value={titleCase(a.sizeClass)} />
      <Stat label="Strategic value" value={`${a.strategicValue} / 100`} />
      <Stat label="Recommended units" value={a.recommendedUnits === null ? "Unknown: gather intelligence" : fmt(a.recommendedUnits)} />
      {a.basis === "intelligence" ? (
        <p className="hint">
          From your {a.confidence}-confidence intelligence report (military ratio {a.militaryRatio?.toFixed(2)}).
        </p>
      ) : (
        <p className="hint">Estimated from public data only (networth, land, record): no intelligence on this country.</p>
      )}
      {children}
    </div>
  );
}
