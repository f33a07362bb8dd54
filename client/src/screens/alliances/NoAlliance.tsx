import { useCallback, useState } from "react";
import { ALLIANCE_DESCRIPTION_MAX_LENGTH, ALLIANCE_FLAG_SYMBOLS, ALLIANCE_MESSAGES, ALLIANCE_MESSAGE_MAX_LENGTH, ALLIANCE_NAME_MAX_LENGTH, ALLIANCE_NAME_MIN_LENGTH, ALLIANCE_TAG_PATTERN, ALLY_SUPPORT_PCT } from "@game/schema/rules";
import { allianceApi, useAllianceList, useApplications, useInvitations } from "../../api/alliance";
import { useTargetCountries, useWarDeclarations } from "../../api/military";
import { ActionButton, Loading, Panel } from "../../components/ui";
import { fmt } from "../../components/format";
import { ActResult, AllianceFlag, CountedText, timeLeft, useAct } from "./shared";

/** Why join, the numbers from the rules (issue 26: help text from constants). */
export const allianceBenefits = () => [
  `Allies lend ${ALLY_SUPPORT_PCT}% of their forces to your battles`,
  "Bonus points buy permanent and temporary bonuses for every member",
  "Plan coordinated operations live with your alliance",
  "Ask for help when attacked: allies commit units to your defence",
  "Private alliance channels for members and leaders",
];

/**
 * The countries of alliance `allianceId` the player is at war with (either side declared), by
 * name: joining that alliance ends those wars (docs/rules.md, "Allies make peace").
 */
export function warsWithAlliance(
  wars: ReadonlyArray<{ declarerId: number | null; declarerName: string; targetId: number | null; targetName: string; status: string; isDeclarer: boolean }>,
  allianceOf: ReadonlyMap<number, number | null>,
  allianceId: number,
): string[] {
  return (
    wars
      .filter((w) => w.status === "active")
      .map((w) => (w.isDeclarer ? { id: w.targetId, name: w.targetName } : { id: w.declarerId, name: w.declarerName }))
      // a former country (null id: its account was deleted) is in no alliance
      .filter((other) => other.id !== null && allianceOf.get(other.id) === allianceId)
      .map((other) => other.name)
  );
}

/** What joining an alliance would end, as a warning line (null when nothing). */
function useJoinWarning(): (allianceId: number) => string | null {
  const wars = useWarDeclarations(true);
  const countries = useTargetCountries(true);
  return useCallback(
    (allianceId: number) => {
      const allianceOf = new Map((countries.data?.countries ?? []).map((c) => [c.id, c.alliance_id] as const));
      const names = warsWithAlliance(wars.data ?? [], allianceOf, allianceId);
      return names.length === 0 ? null : `You are at war with ${names.join(", ")}, of this alliance: joining it ends ${names.length === 1 ? "that war" : "those wars"}.`;
    },
    [wars.data, countries.data],
  );
}

/** Without an alliance: create one, answer invitations, browse and apply. */
export function NoAlliance() {
  const [creating, setCreating] = useState(false);
  return (
    <div className="stack" data-testid="no-alliance">
      <div className="grid two">
        <Panel title="Join forces">
          <ul className="benefits">
            {allianceBenefits().map((b) => (
              <li key={b}>{b}</li>
            ))}
          </ul>
          {!creating && (
            <button type="button" className="btn primary" onClick={() => setCreating(true)}>
              Create Alliance
            </button>
          )}
        </Panel>
        <PendingInvitations />
      </div>
      {creating && <CreateAlliance onCancel={() => setCreating(false)} />}
      <MyApplications />
      <BrowseAlliances />
    </div>
  );
}

function CreateAlliance({ onCancel }: { onCancel(): void }) {
  const act = useAct();
  const [name, setName] = useState("");
  const [tag, setTag] = useState("");
  const [description, setDescription] = useState("");
  const [background, setBackground] = useState("#1e3a8a");
  const [symbol, setSymbol] = useState<(typeof ALLIANCE_FLAG_SYMBOLS)[number]>("⚔");
  const [symbolColor, setSymbolColor] = useState("#facc15");
  const trimmed = name.trim();
  const upperTag = tag.trim().toUpperCase();
  const reason =
    trimmed.length < ALLIANCE_NAME_MIN_LENGTH
      ? `Alliance name must be at least ${ALLIANCE_NAME_MIN_LENGTH} characters`
      : trimmed.length > ALLIANCE_NAME_MAX_LENGTH
        ? `Alliance name must be at most ${ALLIANCE_NAME_MAX_LENGTH} characters`
        : !ALLIANCE_TAG_PATTERN.test(upperTag)
          ? "Tag must be 2 to 5 letters or digits"
          : description.length > ALLIANCE_DESCRIPTION_MAX_LENGTH
            ? `Description must be at most ${ALLIANCE_DESCRIPTION_MAX_LENGTH} characters`
            : null;
  const create = () => act.run("create", () => allianceApi.create({ name: trimmed, tag: upperTag, description, flag: { backgroundColor: background, symbol, symbolColor } }));
  return (
    <Panel title="Create Alliance" testId="create-alliance">
      <div className="grid two">
        <div>
          <div className="field">
            <label htmlFor="alliance-name">Alliance name</label>
            <input id="alliance-name" className="input" value={name} maxLength={ALLIANCE_NAME_MAX_LENGTH + 10} onChange={(e) => setName(e.target.value)} />
          </div>
          <div className="field">
            <label htmlFor="alliance-tag">Tag</label>
            <input id="alliance-tag" className="input" value={tag} maxLength={5} onChange={(e) => setTag(e.target.value.toUpperCase())} placeholder="2-5 letters" />
          </div>
          <CountedText id="alliance-description" label="Description" value={description} onChange={setDescription} max={ALLIANCE_DESCRIPTION_MAX_LENGTH} rows={3} />
        </div>
        <div>
          <div className="row" style={{ alignItems: "center", gap: "1rem", marginBottom: "0.8rem" }}>
            <AllianceFlag background={background} symbol={symbol} color={symbolColor} size={72} />
            <strong>
              [{upperTag || "TAG"}] {trimmed || "Your alliance"}
            </strong>
          </div>
          <div className="row">
            <div className="field inline">
              <label htmlFor="flag-bg">Flag colour</label>
              <input id="flag-bg" type="color" value={background} onChange={(e) => setBackground(e.target.value)} />
            </div>
            <div className="field inline">
              <label htmlFor="flag-color">Symbol colour</label>
              <input id="flag-color" type="color" value={symbolColor} onChange={(e) => setSymbolColor(e.target.value)} />
            </div>
          </div>
          <div className="field">
            <span className="label">Symbol</span>
            <div className="symbol-picker" role="radiogroup" aria-label="Flag symbol">
              {ALLIANCE_FLAG_SYMBOLS.map((s) => (
                <button key={s} type="button" role="radio" aria-checked={s === symbol} className="btn small flag-symbol" onClick={() => setSymbol(s)}>
                  {s}
                </button>
              ))}
            </div>
          </div>
        </div>
      </div>
      <ActResult error={act.error} message={act.message} />
      <div className="row">
        <ActionButton disabledReason={reason} busy={act.busy === "create"} busyLabel="Creating..." onClick={create}>
          Create Alliance
        </ActionButton>
        <button type="button" className="btn ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </Panel>
  );
}

function PendingInvitations() {
  const invitations = useInvitations();
  const act = useAct();
  const joinWarning = useJoinWarning();
  const received = invitations.data?.received ?? [];
  return (
    <Panel title="Pending invitations" testId="pending-invitations">
      {invitations.isLoading && <p className="muted">Loading invitations...</p>}
      {!invitations.isLoading && received.length === 0 && <p className="muted">{ALLIANCE_MESSAGES.noPendingInvitations}</p>}
      <ul className="plain-list">
        {received.map((i) => (
          <li key={i.id} className="list-card">
            <div>
              <strong>
                [{i.allianceTag}] {i.allianceName}
              </strong>
              <div className="small muted">
                from {i.invitedBy}, expires {timeLeft(Date.parse(i.expiresAt))}
              </div>
              {i.message && <p className="small">“{i.message}”</p>}
              {joinWarning(i.allianceId) && (
                <p className="small warn" role="note" data-testid={`join-war-warning-${i.allianceId}`}>
                  {joinWarning(i.allianceId)}
                </p>
              )}
            </div>
            <div className="row">
              <ActionButton busy={act.busy === `accept-${i.id}`} onClick={() => act.run(`accept-${i.id}`, () => allianceApi.answerInvitation(i.id, "accept"))}>
                Accept
              </ActionButton>
              <ActionButton variant="ghost" busy={act.busy === `decline-${i.id}`} onClick={() => act.run(`decline-${i.id}`, () => allianceApi.answerInvitation(i.id, "decline"))}>
                Decline
              </ActionButton>
            </div>
          </li>
        ))}
      </ul>
      <ActResult error={act.error} message={act.message} />
    </Panel>
  );
}

function MyApplications() {
  const applications = useApplications();
  const mine = applications.data?.mine ?? [];
  if (mine.length === 0) return null;
  return (
    <Panel title="Your applications">
      <ul className="plain-list">
        {mine.map((a) => (
          <li key={a.id} className="list-card">
            <span>
              {a.allianceName} <span className="badge">pending</span>
            </span>
            <span className="small muted">expires {timeLeft(Date.parse(a.expiresAt))}</span>
          </li>
        ))}
      </ul>
    </Panel>
  );
}

function BrowseAlliances() {
  const [search, setSearch] = useState("");
  const [query, setQuery] = useState("");
  const [page, setPage] = useState(1);
  const [applyTo, setApplyTo] = useState<number | null>(null);
  const joinWarning = useJoinWarning();
  const [message, setMessage] = useState("");
  const list = useAllianceList(page, query);
  const act = useAct();
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / 20));
  return (
    <Panel title="Browse Alliances" testId="browse-alliances">
      <form
        className="search-row"
        onSubmit={(e) => {
          e.preventDefault();
          setPage(1);
          setQuery(search.trim());
        }}
      >
        <input className="input" aria-label="Search alliances by name or tag" placeholder="Name or tag" value={search} onChange={(e) => setSearch(e.target.value)} />
        <button type="submit" className="btn">
          Search
        </button>
      </form>
      {list.isLoading && <Loading text="Loading alliances..." />}
      {list.error && <div className="alert error">{(list.error as Error).message}</div>}
      {list.data && list.data.data.length === 0 && <p className="muted">No alliances found</p>}
      <ul className="plain-list">
        {list.data?.data.map((a) => (
          <li key={a.id} className="list-card" data-testid={`alliance-row-${a.id}`}>
            <div className="row" style={{ alignItems: "center" }}>
              <AllianceFlag background={a.flag.backgroundColor} symbol={a.flag.symbol} color={a.flag.symbolColor} size={36} />
              <div>
                <strong>
                  #{a.rank} [{a.tag}] {a.name}
                </strong>
                <div className="small muted">
                  {fmt(a.memberCount)}/{fmt(a.maxMembers)} members · networth {fmt(a.totalNetworth)} · avg {fmt(a.averageNetworth)}
                  {a.requirements.minNetworth > 0 && ` · needs networth ${fmt(a.requirements.minNetworth)}`}
                  {a.requirements.minLand > 0 && ` · needs ${fmt(a.requirements.minLand)} acres`}
                </div>
                {a.description && <p className="small">{a.description}</p>}
                {joinWarning(a.id) && (
                  <p className="small warn" role="note" data-testid={`join-war-warning-${a.id}`}>
                    {joinWarning(a.id)}
                  </p>
                )}
              </div>
            </div>
            {applyTo === a.id ? (
              <div className="stack" style={{ minWidth: 240 }}>
                <CountedText id={`apply-${a.id}`} label="Message" value={message} onChange={setMessage} max={ALLIANCE_MESSAGE_MAX_LENGTH} />
                <div className="row">
                  <ActionButton
                    disabledReason={message.length > ALLIANCE_MESSAGE_MAX_LENGTH ? `Message must be at most ${ALLIANCE_MESSAGE_MAX_LENGTH} characters` : null}
                    busy={act.busy === `apply-${a.id}`}
                    onClick={async () => {
                      if (await act.run(`apply-${a.id}`, () => allianceApi.apply(a.id, message.trim()), `Application sent to ${a.name}`)) setApplyTo(null);
                    }}
                  >
                    Send application
                  </ActionButton>
                  <button type="button" className="btn ghost" onClick={() => setApplyTo(null)}>
                    Cancel
                  </button>
                </div>
              </div>
            ) : (
              <ActionButton variant="" disabledReason={a.requirements.acceptApplications ? null : ALLIANCE_MESSAGES.closedApplications} onClick={() => setApplyTo(a.id)}>
                Apply
              </ActionButton>
            )}
          </li>
        ))}
      </ul>
      <ActResult error={act.error} message={act.message} />
      {pages > 1 && (
        <div className="row">
          <button type="button" className="btn small" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous
          </button>
          <span className="muted small">
            Page {page} of {pages}
          </span>
          <button type="button" className="btn small" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Next
          </button>
        </div>
      )}
    </Panel>
  );
}
