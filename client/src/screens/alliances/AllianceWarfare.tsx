import { useMemo, useState } from "react";
import { AllianceMessage, type DefenseRequestSnapshot, type OperationSnapshot } from "@game/schema/messages";
import {
  DEFENSE_MESSAGES,
  DEFENSE_URGENCIES,
  OPERATION_LIMITS,
  OPERATION_MESSAGES,
  OPERATION_TYPES,
  OPERATION_TYPE_LABELS,
  checkCancelOperation,
  computeOperationRewardPoints,
  checkLaunchOperation,
  checkPlanOperation,
  checkRequestDefense,
  checkRespondDefense,
  checkRespondOperation,
  isLeaderRole,
  isOperationOpen,
  type AllianceRole,
  type DefenseUrgency,
  type OperationStatus,
  type OperationType,
  type ParticipantStatus,
} from "@game/schema/rules";
import { usePartnerCandidates } from "../../api/alliance";
import { useGame } from "../../game/GameContext";
import { ActionButton, Panel, Stat, Tabs } from "../../components/ui";
import { fmt, monthDayTimeText, titleCase } from "../../components/format";
import type { AllianceRoomHandle } from "../../realtime/allianceRoom";
import { timeLeft } from "./shared";
import { useIntelligenceReports } from "../../api/espionage";

type Tab = "operations" | "defense" | "coordination" | "history";
const URGENCY_CLASS: Record<string, string> = { critical: "bad", high: "bad", medium: "warn", low: "" };

/** Warfare (spec): Plan Operation for leaders, operations with readiness, defense requests, statistics. */
export function AllianceWarfare({ room, role, countryId }: { room: AllianceRoomHandle; role: AllianceRole; countryId: number }) {
  const { snapshot } = room;
  const [tab, setTab] = useState<Tab>("operations");
  const [planning, setPlanning] = useState(false);
  const now = Date.now();
  const open = snapshot.operations.filter((o) => isOperationOpen(o.status as OperationStatus));
  const closed = snapshot.operations.filter((o) => !isOperationOpen(o.status as OperationStatus));
  const requests = snapshot.defenseRequests.filter((r) => r.expiresAt > now);
  const supporters = snapshot.members.filter((m) => m.militarySupport > 0).length;
  const last = snapshot.notices[snapshot.notices.length - 1];
  return (
    <div className="stack" data-testid="alliance-warfare">
      <div className="row between">
        <h2 style={{ margin: 0 }}>Alliance Warfare</h2>
        {isLeaderRole(role) && (
          <button type="button" className="btn primary" onClick={() => setPlanning((p) => !p)}>
            Plan Operation
          </button>
        )}
      </div>
      {last && Date.now() - last.at < 15_000 && (
        <div className={`alert ${last.kind === "error" ? "error" : "info"}`} role={last.kind === "error" ? "alert" : "status"} data-testid="warfare-notice">
          {last.message}
        </div>
      )}
      {planning && <PlanOperation room={room} role={role} onDone={() => setPlanning(false)} />}
      <Panel title="Statistics">
        <div className="grid stats-grid">
          <Stat label="Active Operations" value={fmt(snapshot.operations.filter((o) => o.status === "active").length)} testId="stat-active-operations" />
          <Stat label="Defense Requests" value={fmt(requests.length)} />
          <Stat label="Wars Won" value={fmt(snapshot.header?.warsWon ?? 0)} />
          <Stat label="Military Support" value={snapshot.members.length ? `${Math.round((100 * supporters) / snapshot.members.length)}%` : "—"} />
        </div>
      </Panel>
      <Tabs
        label="Warfare"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: "operations", label: `Operations (${open.length})` },
          { id: "defense", label: `Defense Requests (${requests.length})` },
          { id: "coordination", label: "Battle Coordination" },
          { id: "history", label: "War History" },
        ]}
      />
      {tab === "operations" && (
        <div className="stack" data-testid="operations">
          {open.length === 0 && <p className="muted panel">{OPERATION_MESSAGES.noActiveOperations}</p>}
          {open.map((o) => (
            <OperationCard key={o.id} operation={o} room={room} role={role} countryId={countryId} />
          ))}
        </div>
      )}
      {tab === "defense" && <DefenseRequests room={room} role={role} countryId={countryId} requests={snapshot.defenseRequests} />}
      {tab === "coordination" && <p className="muted panel">Coming soon...</p>}
      {tab === "history" && (
        <div className="stack">
          {closed.length === 0 && <p className="muted panel">No operations completed yet</p>}
          {closed.map((o) => (
            <OperationCard key={o.id} operation={o} room={room} role={role} countryId={countryId} />
          ))}
        </div>
      )}
    </div>
  );
}

function PlanOperation({ room, role, onDone }: { room: AllianceRoomHandle; role: AllianceRole; onDone(): void }) {
  const { snapshot, connection } = room;
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [type, setType] = useState<OperationType>("coordinated_attack");
  const [search, setSearch] = useState("");
  const [targetId, setTargetId] = useState<number | null>(null);
  const [at, setAt] = useState(() => localInput(Date.now() + 3_600_000));
  const [minP, setMinP] = useState("2");
  const [maxP, setMaxP] = useState("4");
  const [minForce, setMinForce] = useState("8000");
  const [invited, setInvited] = useState<Set<number> | null>(null);
  const candidates = usePartnerCandidates(search.trim(), search.trim().length >= 2);
  const memberIds = useMemo(() => new Set(snapshot.members.map((m) => m.countryId)), [snapshot.members]);
  const pool =
    type === "defensive_support"
      ? snapshot.members.map((m) => ({ id: m.countryId, name: m.countryName }))
      : (candidates.data ?? []).filter((c) => !memberIds.has(c.id)).map((c) => ({ id: c.id, name: `${c.name}${c.allianceName ? ` [${c.allianceName}]` : ""}` }));
  const scheduledFor = Date.parse(at);
  const requirements = { minParticipants: Number(minP), maxParticipants: Number(maxP), minTotalForce: Number(minForce) };
  const numbersOk = [minP, maxP, minForce].every((v) => /^\d+$/.test(v.trim())) && requirements.minParticipants >= 1 && requirements.maxParticipants <= OPERATION_LIMITS.maxParticipants;
  const reason = !name.trim()
    ? "Operation name is required"
    : targetId === null
      ? "Choose a target"
      : !numbersOk
        ? `Participants 1-${OPERATION_LIMITS.maxParticipants} and a whole minimum force`
        : Number.isNaN(scheduledFor)
          ? "Choose when the operation starts"
          : (checkPlanOperation({
              role,
              operationType: type,
              requirements,
              scheduledFor,
              now: Date.now(),
              targetIsMember: memberIds.has(targetId),
              openOperations: snapshot.operations.filter((o) => isOperationOpen(o.status as OperationStatus)).length,
            })?.message ?? null);
  const submit = () => {
    if (reason || !connection || targetId === null) return;
    connection.send(AllianceMessage.planOperation, {
      name: name.trim(),
      description: description.trim(),
      operationType: type,
      targetCountryId: targetId,
      scheduledFor,
      requirements,
      invitedCountryIds: invited ? [...invited] : [],
    });
    onDone();
  };
  return (
    <Panel title="Plan Operation" testId="plan-operation">
      <div className="grid two">
        <div>
          <div className="field">
            <label htmlFor="op-name">Operation name</label>
            <input id="op-name" className="input" value={name} maxLength={OPERATION_LIMITS.nameMaxLength} onChange={(e) => setName(e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="op-type">Operation type</label>
            <select
              id="op-type"
              value={type}
              onChange={(e) => {
                setType(e.target.value as OperationType);
                setTargetId(null);
              }}
            >
              {OPERATION_TYPES.map((t) => (
                <option key={t} value={t}>
                  {OPERATION_TYPE_LABELS[t]}
                </option>
              ))}
            </select>
          </div>
          {type !== "defensive_support" && (
            <div className="field">
              <label htmlFor="op-target-search">Find target</label>
              <input id="op-target-search" className="input" placeholder="Country or alliance name" value={search} onChange={(e) => setSearch(e.target.value)} />
            </div>
          )}
          <div className="field">
            <label htmlFor="op-target">{type === "defensive_support" ? "Ally to defend" : "Target"}</label>
            <select id="op-target" value={targetId ?? ""} onChange={(e) => setTargetId(e.target.value ? Number(e.target.value) : null)}>
              <option value="">{pool.length ? "Choose..." : type === "defensive_support" ? "No members" : "Search for a country first"}</option>
              {pool.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="op-description">Description</label>
            <textarea id="op-description" className="input" rows={2} value={description} maxLength={OPERATION_LIMITS.descriptionMaxLength} onChange={(e) => setDescription(e.target.value)} />
          </div>
        </div>
        <div>
          <div className="field">
            <label htmlFor="op-when">Scheduled for</label>
            <input id="op-when" type="datetime-local" className="input" value={at} onChange={(e) => setAt(e.target.value)} />
          </div>
          <div className="row">
            <div className="field inline">
              <label htmlFor="op-min">Min participants</label>
              <input id="op-min" className="input" inputMode="numeric" value={minP} onChange={(e) => setMinP(e.target.value)} />
            </div>
            <div className="field inline">
              <label htmlFor="op-max">Max participants</label>
              <input id="op-max" className="input" inputMode="numeric" value={maxP} onChange={(e) => setMaxP(e.target.value)} />
            </div>
            <div className="field inline">
              <label htmlFor="op-force">Min total force</label>
              <input id="op-force" className="input" inputMode="numeric" value={minForce} onChange={(e) => setMinForce(e.target.value)} />
            </div>
          </div>
          <fieldset className="invitees">
            <legend className="label">Invited members</legend>
            <label className="row small">
              <input type="checkbox" checked={invited === null} onChange={(e) => setInvited(e.target.checked ? null : new Set())} /> Every member
            </label>
            {invited !== null &&
              snapshot.members.map((m) => (
                <label key={m.countryId} className="row small">
                  <input
                    type="checkbox"
                    checked={invited.has(m.countryId)}
                    onChange={(e) => {
                      const next = new Set(invited);
                      if (e.target.checked) next.add(m.countryId);
                      else next.delete(m.countryId);
                      setInvited(next);
                    }}
                  />
                  {m.countryName}
                </label>
              ))}
          </fieldset>
        </div>
      </div>
      <div className="row">
        <ActionButton disabledReason={reason} onClick={submit}>
          Plan Operation
        </ActionButton>
        <button type="button" className="btn ghost" onClick={onDone}>
          Cancel
        </button>
      </div>
    </Panel>
  );
}

function localInput(ms: number): string {
  const d = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

/**
 * The reward as the launch will credit it: the shared rule on the participants and force
 * confirmed now (the card promised the minimums' 75 and the launch credited 100 for more
 * participants, issue 30 #19), never less than what the minimums earn.
 */
export function operationRewardText(o: { confirmedCount: number; totalForce: number; rewardBonusPoints: number }): string {
  const now = Math.max(o.rewardBonusPoints, computeOperationRewardPoints(o.confirmedCount, o.totalForce));
  return `Rewards ${fmt(now)} bonus points with the forces confirmed now${now > o.rewardBonusPoints ? ` (${fmt(o.rewardBonusPoints)} at the minimums)` : ""}`;
}

/** A member's name by country id (participants and responses carry ids only). */
function useMemberNames(room: AllianceRoomHandle): (countryId: number) => string {
  const members = room.snapshot.members;
  const names = useMemo(() => new Map(members.map((m) => [m.countryId, m.countryName])), [members]);
  return (id) => names.get(id) ?? "A former member";
}

function OperationCard({ operation: o, room, role, countryId }: { operation: OperationSnapshot; room: AllianceRoomHandle; role: AllianceRole; countryId: number }) {
  const { connection } = room;
  const nameOf = useMemberNames(room);
  const { country } = useGame();
  const [joining, setJoining] = useState(false);
  const [units, setUnits] = useState({ troops: "0", jets: "0", tanks: "0", turrets: "0" });
  const me = o.participants.find((p) => p.countryId === countryId);
  const ready = o.readiness === "Ready to Launch";
  const status = o.status as OperationStatus;
  const contribution = { troops: Number(units.troops) || 0, jets: Number(units.jets) || 0, tanks: Number(units.tanks) || 0, turrets: Number(units.turrets) || 0 };
  const available = { troops: country?.troops ?? 0, jets: country?.jets ?? 0, tanks: country?.tanks ?? 0, turrets: country?.turrets ?? 0 };
  const confirmedOthers = o.participants.filter((p) => p.status === "confirmed" && p.countryId !== countryId).length;
  const respondCheck = (response: "join" | "decline") =>
    checkRespondOperation({
      status,
      operationType: o.operationType as OperationType,
      participantStatus: (me?.status as ParticipantStatus | undefined) ?? null,
      response,
      confirmedOthers,
      maxParticipants: o.maxParticipants,
      contribution: response === "join" ? contribution : { troops: 0, jets: 0, tanks: 0, turrets: 0 },
      available,
    })?.message ?? null;
  const launchReason = checkLaunchOperation({ role, status, ready })?.message ?? null;
  const unitsFor = o.operationType === "defensive_support" ? (["troops", "jets", "tanks", "turrets"] as const) : (["troops", "jets", "tanks"] as const);
  return (
    <article className="panel operation" data-testid={`operation-${o.id}`}>
      <div className="row between">
        <div>
          <h3 style={{ margin: 0 }}>{o.name}</h3>
          <div className="small muted">
            {OPERATION_TYPE_LABELS[o.operationType as OperationType]} · target <strong>{o.targetName}</strong>
            {o.targetAlliance && ` (${o.targetAlliance})`} · by {o.initiatorName} · {monthDayTimeText(o.scheduledFor)}
          </div>
        </div>
        <div className="row">
          <span className="badge">{titleCase(o.status)}</span>
          {isOperationOpen(status) && (
            <span className={`badge ${ready ? "ok" : "warn"}`} data-testid="readiness">
              {o.readiness}
            </span>
          )}
        </div>
      </div>
      {o.description && <p className="small">{o.description}</p>}
      <div className="row small muted">
        <span>
          Participants {o.confirmedCount}/{o.minParticipants}-{o.maxParticipants}
        </span>
        <span>
          Force {fmt(o.totalForce)}/{fmt(o.minTotalForce)}
        </span>
        <span data-testid="operation-reward">{operationRewardText(o)}</span>
      </div>
      <ul className="participants">
        {o.participants.map((p) => (
          <li key={p.countryId} className={p.status}>
            {p.isCommander ? "★ " : ""}
            {nameOf(p.countryId)} <span className="faint">{p.status}</span>
            {p.status === "confirmed" && <span className="num"> {fmt(p.totalForce)}</span>}
          </li>
        ))}
      </ul>
      {o.outcomeSummary && (
        <div className="alert info">
          <strong>{o.outcomeSummary}</strong>
          <ul className="plain-list small">
            {o.outcomeLines.map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ul>
        </div>
      )}
      {isOperationOpen(status) && (
        <div className="row">
          {me && me.status !== "confirmed" && !joining && (
            <button type="button" className="btn primary" onClick={() => setJoining(true)}>
              Join Operation
            </button>
          )}
          {me && me.status !== "declined" && (
            <ActionButton variant="ghost" disabledReason={respondCheck("decline")} onClick={() => connection?.send(AllianceMessage.respondOperation, { operationId: o.id, response: "decline" })}>
              Decline
            </ActionButton>
          )}
          {isLeaderRole(role) && (
            <>
              <ActionButton disabledReason={launchReason} onClick={() => connection?.send(AllianceMessage.launchOperation, { operationId: o.id })}>
                Launch
              </ActionButton>
              <ActionButton
                variant="danger"
                disabledReason={checkCancelOperation({ role, status })?.message ?? null}
                onClick={() => window.confirm(`Cancel operation "${o.name}"?`) && connection?.send(AllianceMessage.cancelOperation, { operationId: o.id })}
              >
                Cancel
              </ActionButton>
            </>
          )}
        </div>
      )}
      {joining && me && (
        <div className="join-form">
          <div className="row">
            {unitsFor.map((u) => (
              <div key={u} className="field inline">
                <label htmlFor={`join-${o.id}-${u}`}>
                  {titleCase(u)} (have {fmt(available[u])})
                </label>
                <input id={`join-${o.id}-${u}`} className="input" inputMode="numeric" value={units[u]} onChange={(e) => setUnits({ ...units, [u]: e.target.value })} />
              </div>
            ))}
          </div>
          <div className="row">
            <ActionButton
              disabledReason={respondCheck("join")}
              onClick={() => {
                connection?.send(AllianceMessage.respondOperation, { operationId: o.id, response: "join", contribution });
                setJoining(false);
              }}
            >
              Confirm
            </ActionButton>
            <button type="button" className="btn ghost" onClick={() => setJoining(false)}>
              Back
            </button>
          </div>
        </div>
      )}
    </article>
  );
}

function DefenseRequests({ room, role, countryId, requests }: { room: AllianceRoomHandle; role: AllianceRole; countryId: number; requests: DefenseRequestSnapshot[] }) {
  const { connection } = room;
  const now = Date.now();
  const [asking, setAsking] = useState(false);
  const [need, setNeed] = useState({ military: true, intelligence: false, resources: false });
  const [urgency, setUrgency] = useState<DefenseUrgency>("medium");
  const [message, setMessage] = useState("");
  const mineOpen = requests.filter((r) => r.requesterId === countryId && r.expiresAt > now).length;
  const askReason = checkRequestDefense({ role, openRequests: mineOpen, supportNeeded: need })?.message ?? null;
  const open = requests.filter((r) => r.expiresAt > now);
  return (
    <div className="stack" data-testid="defense-requests">
      <div className="row">
        <button type="button" className="btn" onClick={() => setAsking((a) => !a)}>
          Request Defense
        </button>
      </div>
      {asking && (
        <Panel title="Request Defense">
          <div className="row">
            {(["military", "intelligence", "resources"] as const).map((k) => (
              <label key={k} className="row small">
                <input type="checkbox" checked={need[k]} onChange={(e) => setNeed({ ...need, [k]: e.target.checked })} /> {titleCase(k)}
              </label>
            ))}
            <select aria-label="Urgency" value={urgency} onChange={(e) => setUrgency(e.target.value as DefenseUrgency)}>
              {DEFENSE_URGENCIES.map((u) => (
                <option key={u} value={u}>
                  {titleCase(u)}
                </option>
              ))}
            </select>
          </div>
          <input className="input" aria-label="Message" placeholder="What is happening?" maxLength={200} value={message} onChange={(e) => setMessage(e.target.value)} />
          <ActionButton
            disabledReason={askReason}
            onClick={() => {
              connection?.send(AllianceMessage.requestDefense, { urgency, supportNeeded: need, message: message.trim() });
              setAsking(false);
            }}
          >
            Send request
          </ActionButton>
        </Panel>
      )}
      {open.length === 0 && <p className="muted panel">{DEFENSE_MESSAGES.noActiveRequests}</p>}
      {open.map((r) => (
        <DefenseRequestCard key={r.id} request={r} room={room} countryId={countryId} />
      ))}
    </div>
  );
}

function DefenseRequestCard({ request: r, room, countryId }: { request: DefenseRequestSnapshot; room: AllianceRoomHandle; countryId: number }) {
  const { connection } = room;
  const nameOf = useMemberNames(room);
  const { country } = useGame();
  const [sending, setSending] = useState(false);
  const [units, setUnits] = useState({ troops: "0", jets: "0", tanks: "0" });
  const now = Date.now();
  const responded = r.responses.some((x) => x.responderId === countryId);
  const commitment = { troops: Number(units.troops) || 0, jets: Number(units.jets) || 0, tanks: Number(units.tanks) || 0 };
  const check = (responseType: "military_support" | "intelligence" | "declined") =>
    checkRespondDefense({
      responderId: countryId,
      requesterId: r.requesterId,
      expiresAt: r.expiresAt,
      now,
      alreadyResponded: responded,
      responseType,
      supportNeeded: { military: r.needMilitary, intelligence: r.needIntelligence },
      commitment: responseType === "military_support" ? commitment : { troops: 0, jets: 0, tanks: 0 },
      available: { troops: country?.troops ?? 0, jets: country?.jets ?? 0, tanks: country?.tanks ?? 0 },
    })?.message ?? null;
  // "Share Intelligence" shares the player's freshest usable spy report on the attacker, if any
  const intel = useIntelligenceReports({ search: r.attackerName, type: "all", sort: "date", page: 1, limit: 20 }, r.needIntelligence && r.attackerId > 0 && !responded);
  const shareable = intel.data?.reports.find((x) => x.targetCountryId === r.attackerId && x.success && !x.expired && x.isOwn) ?? null;
  const respond = (responseType: "military_support" | "intelligence" | "declined") => {
    connection?.send(AllianceMessage.respondDefense, {
      requestId: r.id,
      responseType,
      commitment: responseType === "military_support" ? commitment : undefined,
      reportId: responseType === "intelligence" && shareable ? shareable.id : undefined,
    });
    setSending(false);
  };
  const needs = [r.needMilitary && "military", r.needIntelligence && "intelligence", r.needResources && "resources"].filter(Boolean).join(", ");
  return (
    <article className="panel defense" data-testid={`defense-${r.id}`}>
      <div className="row between">
        <strong>{r.requesterName}</strong>
        <span className={`badge ${URGENCY_CLASS[r.urgency]}`}>{titleCase(r.urgency)}</span>
      </div>
      <div className="small muted">
        {r.attackerName ? `Attacked by ${r.attackerName}` : "Help requested"}
        {r.attackType && ` · ${titleCase(r.attackType)}`} · expires {timeLeft(r.expiresAt, now)} · needs {needs}
      </div>
      {r.message && <p className="small">{r.message}</p>}
      {r.responses.length > 0 && (
        <ul className="plain-list small">
          {r.responses.map((x) => (
            <li key={x.responderId}>
              {nameOf(x.responderId)}:{" "}
              {x.responseType === "military_support"
                ? `${fmt(x.troops)} troops, ${fmt(x.jets)} jets, ${fmt(x.tanks)} tanks until ${monthDayTimeText(x.commitmentExpiresAt)}`
                : x.responseType === "intelligence"
                  ? "shares intelligence"
                  : "cannot assist"}
            </li>
          ))}
        </ul>
      )}
      {r.requesterId === countryId ? null : responded ? (
        <p className="small ok">{DEFENSE_MESSAGES.responded}</p>
      ) : r.expiresAt > now ? (
        <div className="stack">
          <div className="row">
            {r.needMilitary && !sending && (
              <button type="button" className="btn primary" onClick={() => setSending(true)}>
                Send Military Support
              </button>
            )}
            {r.needIntelligence && (
              <ActionButton variant="" disabledReason={check("intelligence")} onClick={() => respond("intelligence")} title={shareable ? `Shares your ${shareable.confidenceLevel}-confidence report on ${r.attackerName}` : undefined}>
                Share Intelligence
              </ActionButton>
            )}
            <ActionButton variant="ghost" disabledReason={check("declined")} onClick={() => respond("declined")}>
              Cannot Assist
            </ActionButton>
          </div>
          {sending && (
            <div className="row">
              {(["troops", "jets", "tanks"] as const).map((u) => (
                <div key={u} className="field inline">
                  <label htmlFor={`def-${r.id}-${u}`}>{titleCase(u)}</label>
                  <input id={`def-${r.id}-${u}`} className="input" inputMode="numeric" value={units[u]} onChange={(e) => setUnits({ ...units, [u]: e.target.value })} />
                </div>
              ))}
              <ActionButton disabledReason={check("military_support")} onClick={() => respond("military_support")}>
                Commit units
              </ActionButton>
            </div>
          )}
        </div>
      ) : null}
    </article>
  );
}
