import { useEffect, useId, useState } from "react";
import type { BattlePhase, UnitTally } from "@game/schema/rules";
import { ATTACK_TYPES, UNIT_LABELS, UNIT_TYPES } from "@game/schema/rules";
import { useBattleReplay } from "../../api/military";
import { Loading } from "../../components/ui";
import { fmt, money } from "../../components/format";
import { viewerWon } from "./viewerWon";

/** Seconds per step at each pace the player can pick. */
export const REPLAY_PACES = [
  { id: "slow", label: "Slow", ms: 3_000 },
  { id: "normal", label: "Normal", ms: 1_600 },
  { id: "fast", label: "Fast", ms: 700 },
] as const;

type PaceId = (typeof REPLAY_PACES)[number]["id"];

const UNIT_ONE: Readonly<Record<(typeof UNIT_TYPES)[number], string>> = { troops: "troop", jets: "jet", turrets: "turret", tanks: "tank", spies: "spy" };

/** "2,500 troops, 1 tank" */
export function unitsLine(t: Partial<UnitTally>): string {
  const parts = UNIT_TYPES.filter((u) => (t[u] ?? 0) > 0).map((u) => `${fmt(t[u]!)} ${t[u] === 1 ? UNIT_ONE[u] : UNIT_LABELS[u].toLowerCase()}`);
  return parts.length ? parts.join(", ") : "none";
}

function standing(forces: UnitTally, losses: UnitTally): UnitTally {
  const out = { ...forces };
  for (const u of UNIT_TYPES) out[u] = Math.max(0, forces[u] - losses[u]);
  return out;
}

/**
 * A battle step by step as the server recomputed it from the stored seed (issue 30): forces of
 * both sides, each phase of the resolution with its log lines, casualties, land and plunder as
 * they add up, at a pace the player sets (play, pause, step, jump).
 */
export function BattleReplay({ battleId, onClose }: { battleId: number; onClose?: () => void }) {
  const replay = useBattleReplay(battleId);
  const [step, setStep] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [pace, setPace] = useState<PaceId>("normal");
  const headingId = useId();
  const phases = replay.data?.phases ?? [];
  const last = Math.max(0, phases.length - 1);

  useEffect(() => {
    if (!playing) return;
    if (step >= last) {
      setPlaying(false);
      return;
    }
    const timer = setTimeout(() => setStep((s) => Math.min(last, s + 1)), REPLAY_PACES.find((p) => p.id === pace)!.ms);
    return () => clearTimeout(timer);
  }, [playing, step, last, pace]);

  if (replay.isPending) return <Loading text="Loading the replay..." />;
  if (replay.error)
    return (
      <div className="alert error" role="alert">
        {replay.error.message}
      </div>
    );
  const { report: r } = replay.data;
  const phase: BattlePhase = phases[step]!;
  const missile = r.missilesLaunched > 0;
  const atEnd = step === last;
  const maxPower = Math.max(1, phase.attackPower ?? 0, phase.defensePower ?? 0);
  const won = viewerWon(r);

  return (
    <section className="battle-replay stack" data-testid="battle-replay" aria-labelledby={headingId}>
      <div className="row between wrap">
        <h3 id={headingId} style={{ margin: 0 }}>
          Replay: {r.attackerName} vs {r.defenderName}, {ATTACK_TYPES[r.attackType]?.name ?? r.attackType}
        </h3>
        {onClose && (
          <button type="button" className="btn small ghost" onClick={onClose}>
            Close replay
          </button>
        )}
      </div>

      <div className="replay-controls row wrap" role="group" aria-label="Replay controls">
        <button
          type="button"
          className="btn small"
          onClick={() => {
            setPlaying(false);
            setStep(0);
          }}
          disabled={step === 0}
        >
          First
        </button>
        <button
          type="button"
          className="btn small"
          onClick={() => {
            setPlaying(false);
            setStep((s) => Math.max(0, s - 1));
          }}
          disabled={step === 0}
          data-testid="replay-prev"
        >
          Previous
        </button>
        <button
          type="button"
          className="btn small primary"
          data-testid="replay-play"
          aria-pressed={playing}
          onClick={() => {
            if (atEnd) setStep(0);
            setPlaying((p) => !p);
          }}
        >
          {playing ? "Pause" : atEnd ? "Play again" : "Play"}
        </button>
        <button
          type="button"
          className="btn small"
          onClick={() => {
            setPlaying(false);
            setStep((s) => Math.min(last, s + 1));
          }}
          disabled={atEnd}
          data-testid="replay-next"
        >
          Next
        </button>
        <button
          type="button"
          className="btn small"
          onClick={() => {
            setPlaying(false);
            setStep(last);
          }}
          disabled={atEnd}
          data-testid="replay-end"
        >
          Last
        </button>
        <label className="replay-pace">
          <span className="label">Pace</span>
          <select value={pace} onChange={(e) => setPace(e.target.value as PaceId)} data-testid="replay-pace">
            {REPLAY_PACES.map((p) => (
              <option key={p.id} value={p.id}>
                {p.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      <label className="replay-scrub">
        <span className="sr-only">Step</span>
        <input
          type="range"
          min={0}
          max={last}
          value={step}
          aria-valuetext={`Step ${step + 1} of ${phases.length}: ${phase.title}`}
          onChange={(e) => {
            setPlaying(false);
            setStep(Number(e.target.value));
          }}
        />
      </label>

      <div aria-live="polite" className="replay-now" data-testid="replay-step" data-step={step} data-kind={phase.kind}>
        <div className="replay-title">
          <span className="faint small">
            Step {step + 1} of {phases.length}
          </span>{" "}
          <strong>{phase.title}</strong>
        </div>
        {phase.lines.length > 0 && (
          <ul className="replay-lines">
            {phase.lines.map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ul>
        )}
        {atEnd && (
          <div className={`alert ${won ? "info" : "warn"}`} data-testid="replay-outcome">
            <strong>{r.outcome === "attacker_victory" ? `${r.attackerName} won` : `${r.defenderName} held`}</strong>
            {r.landCaptured > 0 && `: ${fmt(r.landCaptured)} acres captured`}
            {r.landDestroyed > 0 && `: ${fmt(r.landDestroyed)} acres destroyed`}.
          </div>
        )}
      </div>

      <div className="replay-sides">
        <div className="replay-side attacker" data-testid="replay-attacker">
          <div className="label">Attacker: {r.attackerName}</div>
          {missile ? (
            <p className="small">
              {fmt(r.missilesLaunched)} missiles launched
              {phase.kind !== "launch" && `: ${fmt(phase.missilesHit)} hit, ${fmt(phase.missilesIntercepted)} intercepted`}
            </p>
          ) : (
            <>
              <p className="small">Sent: {unitsLine(r.attackerForces)}</p>
              <p className="small">Standing: {unitsLine(standing(r.attackerForces, phase.attackerLosses))}</p>
              <p className="small bad" data-testid="replay-attacker-losses">
                Lost: {unitsLine(phase.attackerLosses)}
              </p>
            </>
          )}
          <PowerBar label="Attack power" value={phase.attackPower} max={maxPower} kind="attack" />
        </div>
        <div className="replay-side defender" data-testid="replay-defender">
          <div className="label">Defender: {r.defenderName}</div>
          {!missile && <p className="small">Defending: {unitsLine(r.defenderForces)}</p>}
          {!missile && <p className="small">Standing: {unitsLine(standing(r.defenderForces, phase.defenderLosses))}</p>}
          <p className="small bad" data-testid="replay-defender-losses">
            Lost: {unitsLine(phase.defenderLosses)}
          </p>
          <PowerBar label={missile ? "Intercepted" : "Defence power"} value={phase.defensePower} max={maxPower} kind="defense" />
        </div>
      </div>

      <dl className="replay-spoils">
        <div>
          <dt>{missile ? "Land destroyed" : "Land captured"}</dt>
          <dd data-testid="replay-land">{fmt(phase.landTaken)} acres</dd>
        </div>
        <div>
          <dt>Buildings lost</dt>
          <dd>{fmt(phase.buildingsLost)}</dd>
        </div>
        <div>
          <dt>People killed</dt>
          <dd>{fmt(phase.populationKilled)}</dd>
        </div>
        {!missile && (
          <div>
            <dt>Plunder</dt>
            <dd data-testid="replay-plunder">
              {money(phase.plunder.cash)}, {fmt(phase.plunder.food)} food, {fmt(phase.plunder.oil)} oil
            </dd>
          </div>
        )}
      </dl>

      <ol className="replay-timeline" aria-label="Phases">
        {phases.map((p, i) => (
          <li key={i}>
            <button
              type="button"
              className={`link-btn ${i === step ? "current" : ""}`}
              aria-current={i === step ? "step" : undefined}
              onClick={() => {
                setPlaying(false);
                setStep(i);
              }}
            >
              <span className="faint">{i + 1}.</span> {p.title}
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}

function PowerBar({ label, value, max, kind }: { label: string; value: number | null; max: number; kind: "attack" | "defense" }) {
  return (
    <div className="power-bar">
      <div className="row between small">
        <span className="muted">{label}</span>
        <span>{value === null ? "not yet counted" : fmt(value)}</span>
      </div>
      <div className="bar" aria-hidden="true">
        <span className={`fill ${kind}`} style={{ width: `${value === null ? 0 : Math.round((100 * value) / max)}%` }} />
      </div>
    </div>
  );
}
