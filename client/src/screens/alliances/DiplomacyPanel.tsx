import { useState } from "react";
import type { ActiveRelationJson } from "@game/schema/api";
import { DIPLOMACY_MESSAGES, DIPLOMATIC_RELATION_TYPES, PROPOSAL_MESSAGE_MAX_LENGTH, checkCancelRelation, findRelationType, trustRatingColor, type RelationType } from "@game/schema/rules";
import { allianceApi, useDiplomaticRelations, usePartnerCandidates } from "../../api/alliance";
import { ActionButton, Loading, Panel, Tabs } from "../../components/ui";
import { fmt, money, monthDayTimeText, titleCase } from "../../components/format";
import { ActResult, CountedText, timeLeft, useAct } from "./shared";

type Tab = "active" | "proposals" | "negotiate";

/** Diplomatic Relations (spec): Active Relations, Proposals (incoming and outgoing), Negotiate; the daily total in the header. */
export function DiplomacyPanel({ countryId }: { countryId: number }) {
  const [tab, setTab] = useState<Tab>("active");
  const relations = useDiplomaticRelations(countryId);
  const act = useAct();
  if (relations.isLoading) return <Loading text="Loading diplomatic relations..." />;
  if (relations.error || !relations.data) return <div className="alert error">{(relations.error as Error | null)?.message ?? "Failed to get diplomatic relations"}</div>;
  const d = relations.data;
  const pending = d.incoming.length + d.outgoing.length;
  return (
    <div className="stack" data-testid="diplomacy">
      <div className="row between">
        <span className="badge warn big-badge" data-testid="daily-diplomacy-cost">
          Daily diplomatic costs: {money(d.dailyTotal)}
        </span>
      </div>
      <Tabs
        label="Diplomacy"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: "active", label: `Active Relations (${d.active.length})` },
          { id: "proposals", label: `Proposals (${pending})` },
          { id: "negotiate", label: "Negotiate" },
        ]}
      />
      <ActResult error={act.error} message={act.message} />
      {tab === "active" && (
        <div className="stack">
          {d.active.length === 0 && <p className="muted panel">{DIPLOMACY_MESSAGES.noRelations}</p>}
          {d.active.map((r) => (
            <RelationCard key={r.id} relation={r} act={act} />
          ))}
        </div>
      )}
      {tab === "proposals" && (
        <div className="grid two">
          <Panel title="Incoming">
            {d.incoming.length === 0 && <p className="muted">{DIPLOMACY_MESSAGES.noProposals}</p>}
            <ul className="plain-list">
              {d.incoming.map((p) => (
                <li key={p.id} className="list-card" data-testid={`incoming-${p.id}`}>
                  <div>
                    <strong>{findRelationType(p.relationType)?.name}</strong> from {p.fromCountryName}
                    <div className="small muted">expires {timeLeft(Date.parse(p.expiresAt))}</div>
                    {p.message && <p className="small">“{p.message}”</p>}
                  </div>
                  <div className="row">
                    <ActionButton busy={act.busy === `accept-${p.id}`} onClick={() => act.run(`accept-${p.id}`, () => allianceApi.answerProposal(p.id, "accept"), "Relation established")}>
                      Accept
                    </ActionButton>
                    <ActionButton variant="ghost" busy={act.busy === `reject-${p.id}`} onClick={() => act.run(`reject-${p.id}`, () => allianceApi.answerProposal(p.id, "reject"))}>
                      Reject
                    </ActionButton>
                  </div>
                </li>
              ))}
            </ul>
          </Panel>
          <Panel title="Outgoing">
            {d.outgoing.length === 0 && <p className="muted">{DIPLOMACY_MESSAGES.noProposals}</p>}
            <ul className="plain-list">
              {d.outgoing.map((p) => (
                <li key={p.id} className="list-card">
                  <div>
                    <strong>{findRelationType(p.relationType)?.name}</strong> to {p.toCountryName} <span className="badge">pending</span>
                    <div className="small muted">expires {timeLeft(Date.parse(p.expiresAt))}</div>
                  </div>
                  <ActionButton variant="ghost" busy={act.busy === `withdraw-${p.id}`} onClick={() => act.run(`withdraw-${p.id}`, () => allianceApi.answerProposal(p.id, "cancel"))}>
                    Withdraw
                  </ActionButton>
                </li>
              ))}
            </ul>
          </Panel>
        </div>
      )}
      {tab === "negotiate" && <Negotiate act={act} onSent={() => setTab("proposals")} />}
    </div>
  );
}

function RelationCard({ relation: r, act }: { relation: ActiveRelationJson; act: ReturnType<typeof useAct> }) {
  const def = findRelationType(r.relationType)!;
  const lock = checkCancelRelation({ status: r.status, isParty: true, isHolder: r.pays, canCancelAfter: Date.parse(r.canCancelAfter), now: Date.now() });
  const cancel = () => {
    if (!window.confirm(DIPLOMACY_MESSAGES.cancelConfirm)) return;
    void act.run(`cancel-${r.id}`, () => allianceApi.cancelRelation(r.id), "Relation cancelled");
  };
  return (
    <article className="panel" data-testid={`relation-${r.id}`}>
      <div className="row between">
        <strong>
          {def.name} with {r.partnerName}
        </strong>
        <span className="badge ok">{r.status}</span>
      </div>
      <div className="small muted">
        {titleCase(r.partnerGovernment)} · since {monthDayTimeText(Date.parse(r.establishedAt))} · {r.pays ? `${money(r.dailyCost)} per day` : "paid by the partner"} · {money(r.totalPaid)} paid so far
      </div>
      <div className="small">{def.benefits.join(" · ")}</div>
      <div className="row">
        <ActionButton variant="danger" disabledReason={lock?.message ?? null} busy={act.busy === `cancel-${r.id}`} onClick={cancel}>
          Cancel Relation
        </ActionButton>
      </div>
    </article>
  );
}

function Negotiate({ act, onSent }: { act: ReturnType<typeof useAct>; onSent(): void }) {
  const [search, setSearch] = useState("");
  const [query, setQuery] = useState("");
  const [partner, setPartner] = useState<{ id: number; name: string } | null>(null);
  const [type, setType] = useState<RelationType>("trade");
  const [message, setMessage] = useState("");
  const candidates = usePartnerCandidates(query);
  const def = findRelationType(type)!;
  const reason = !partner ? "Choose a partner" : message.length > PROPOSAL_MESSAGE_MAX_LENGTH ? `Message must be at most ${PROPOSAL_MESSAGE_MAX_LENGTH} characters` : null;
  const send = async () => {
    if (!partner) return;
    const ok = await act.run(
      "propose",
      () => allianceApi.propose({ toCountryId: partner.id, relationType: type, message: message.trim() }),
      def.requiresMutual ? `Proposal sent to ${partner.name}` : `${def.name} signed with ${partner.name}`,
    );
    if (ok) {
      setMessage("");
      if (def.requiresMutual) onSent();
    }
  };
  return (
    <div className="grid two">
      <Panel title="Partner candidates">
        <form
          className="search-row"
          onSubmit={(e) => {
            e.preventDefault();
            setQuery(search.trim());
          }}
        >
          <input className="input" aria-label="Search country or alliance" placeholder="Country or alliance name" value={search} onChange={(e) => setSearch(e.target.value)} />
          <button type="submit" className="btn">
            Search
          </button>
        </form>
        {candidates.isLoading && <p className="muted">Loading candidates...</p>}
        <ul className="plain-list">
          {candidates.data?.map((c) => (
            <li key={c.id}>
              <button type="button" className={`list-card pick ${partner?.id === c.id ? "selected" : ""}`} aria-pressed={partner?.id === c.id} onClick={() => setPartner({ id: c.id, name: c.name })}>
                <span>
                  <strong>{c.name}</strong>
                  <span className="small muted">
                    {" "}
                    {titleCase(c.government)} · networth {fmt(c.networth)}
                    {c.allianceName && ` · ${c.allianceName}`} · {c.distance} sectors
                  </span>
                </span>
                <span className={`trust ${trustRatingColor(c.trustRating)}`} title="Trust rating">
                  {c.trustRating}
                </span>
              </button>
            </li>
          ))}
          {candidates.data?.length === 0 && <li className="muted">No countries found</li>}
        </ul>
      </Panel>
      <Panel title="Propose a relation">
        <p className="small">Partner: {partner ? <strong>{partner.name}</strong> : <span className="muted">none chosen</span>}</p>
        <div className="field">
          <label htmlFor="relation-type">Relation</label>
          <select id="relation-type" value={type} onChange={(e) => setType(e.target.value as RelationType)}>
            {DIPLOMATIC_RELATION_TYPES.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name} ({money(t.dailyCost)}/day)
              </option>
            ))}
          </select>
        </div>
        <ul className="plain-list small">
          {def.benefits.map((b) => (
            <li key={b} className="ok">
              + {b}
            </li>
          ))}
          {def.drawbacks.map((b) => (
            <li key={b} className="warn">
              − {b}
            </li>
          ))}
          <li className="muted">
            Cancel after {def.cooldownHours} hours · {def.requiresMutual ? "the partner must accept" : "no consent needed: you hold and pay it"}
          </li>
        </ul>
        <CountedText id="proposal-message" label="Message" value={message} onChange={setMessage} max={PROPOSAL_MESSAGE_MAX_LENGTH} />
        <ActionButton disabledReason={reason} busy={act.busy === "propose"} onClick={send}>
          Send Proposal
        </ActionButton>
      </Panel>
    </div>
  );
}
