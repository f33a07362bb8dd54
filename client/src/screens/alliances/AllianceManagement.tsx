import { useEffect, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import type { AllianceStatusJson } from "@game/schema/api";
import {
  ALLIANCE_DESCRIPTION_MAX_LENGTH,
  ALLIANCE_MAX_MANAGERS,
  ALLIANCE_MAX_MEMBERS,
  ALLIANCE_MESSAGES,
  ALLIANCE_MESSAGE_MAX_LENGTH,
  ALLIANCE_ROLES,
  alliancePermissions,
  checkAlliancePermission,
  checkDemote,
  checkKick,
  checkPromote,
  type AllianceRole,
} from "@game/schema/rules";
import { allianceApi, allianceKeys, useApplications, useInvitations } from "../../api/alliance";
import type { AllianceSnapshot } from "../../realtime/allianceRoom";
import { ActionButton, Panel, Tabs } from "../../components/ui";
import { fmt, titleCase } from "../../components/format";
import { ActResult, CountedText, ROLE_ICON, ROLE_LABEL, timeLeft, useAct } from "./shared";

type Tab = "members" | "invitations" | "applications" | "permissions" | "settings";

/** Management (spec: Members, Invitations, Applications, Permissions), with the server's permission checks as button reasons. */
export function AllianceManagement({ status, live, role, countryId }: { status: AllianceStatusJson; live: AllianceSnapshot; role: AllianceRole; countryId: number }) {
  const [tab, setTab] = useState<Tab>("members");
  const queryClient = useQueryClient();
  // The leaders' counters move live: the lists follow.
  const counters = live.leadership ? `${live.leadership.pendingApplications}:${live.leadership.pendingInvitations}` : "";
  useEffect(() => {
    if (!counters) return;
    void queryClient.invalidateQueries({ queryKey: allianceKeys.applications });
    void queryClient.invalidateQueries({ queryKey: allianceKeys.invitations });
  }, [counters, queryClient]);
  return (
    <div className="stack" data-testid="alliance-management">
      <Tabs
        label="Management"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: "members", label: "Members" },
          { id: "invitations", label: "Invitations" },
          { id: "applications", label: "Applications" },
          { id: "permissions", label: "Permissions" },
          { id: "settings", label: "Settings" },
        ]}
      />
      {tab === "members" && <Members status={status} live={live} role={role} countryId={countryId} />}
      {tab === "invitations" && <Invitations role={role} />}
      {tab === "applications" && <Applications role={role} />}
      {tab === "permissions" && <Permissions />}
      {tab === "settings" && <Settings status={status} role={role} />}
    </div>
  );
}

function Members({ status, live, role, countryId }: { status: AllianceStatusJson; live: AllianceSnapshot; role: AllianceRole; countryId: number }) {
  const [search, setSearch] = useState("");
  const act = useAct();
  const rows = live.members.length ? live.members : status.members.map((m) => ({ ...m, contributionPoints: m.contributions.bonusPoints }));
  const managers = rows.filter((m) => m.role === "manager").length;
  const q = search.trim().toLowerCase();
  const shown = rows.filter((m) => !q || m.countryName.toLowerCase().includes(q) || m.governmentType.toLowerCase().includes(q));
  const kick = (id: number, name: string) => {
    if (!window.confirm(ALLIANCE_MESSAGES.kickConfirm)) return;
    void act.run(`kick-${id}`, () => allianceApi.kick(id), `${name} was removed`);
  };
  return (
    <Panel title={`Members (${rows.length}/${ALLIANCE_MAX_MEMBERS})`}>
      <input className="input" aria-label="Search members by name or government type" placeholder="Search by name or government" value={search} onChange={(e) => setSearch(e.target.value)} />
      <ActResult error={act.error} message={act.message} />
      <ul className="plain-list" data-testid="management-members">
        {shown.map((m) => {
          const targetRole = m.role as AllianceRole;
          const kickReason = checkKick({ actorRole: role, actorCountryId: countryId, targetCountryId: m.countryId, targetRole })?.message ?? null;
          const promoteReason = checkPromote({ actorRole: role, targetRole, managerCount: managers })?.message ?? null;
          const demoteReason = checkDemote({ actorRole: role, targetRole })?.message ?? null;
          return (
            <li key={m.countryId} className="list-card" data-testid={`member-${m.countryId}`}>
              <div>
                <strong>
                  {ROLE_ICON[targetRole]} {m.countryName}
                </strong>
                <div className="small muted">
                  {ROLE_LABEL[targetRole]} · {titleCase(m.governmentType)} · networth {fmt(m.networth)} · {fmt(m.landAcres)} acres · {fmt(m.contributionPoints)} points
                </div>
              </div>
              {m.countryId !== countryId && (
                <div className="row">
                  {targetRole === "member" ? (
                    <ActionButton
                      variant=""
                      disabledReason={promoteReason}
                      busy={act.busy === `promote-${m.countryId}`}
                      onClick={() => act.run(`promote-${m.countryId}`, () => allianceApi.promote(m.countryId), `${m.countryName} is now a manager`)}
                    >
                      Promote
                    </ActionButton>
                  ) : targetRole === "manager" ? (
                    <ActionButton
                      variant=""
                      disabledReason={demoteReason}
                      busy={act.busy === `demote-${m.countryId}`}
                      onClick={() => act.run(`demote-${m.countryId}`, () => allianceApi.demote(m.countryId), `${m.countryName} is now a member`)}
                    >
                      Demote
                    </ActionButton>
                  ) : null}
                  {targetRole !== "owner" && (
                    <ActionButton variant="danger" disabledReason={kickReason} busy={act.busy === `kick-${m.countryId}`} onClick={() => kick(m.countryId, m.countryName)}>
                      Kick
                    </ActionButton>
                  )}
                </div>
              )}
            </li>
          );
        })}
      </ul>
      <p className="small muted">
        Managers: {managers}/{ALLIANCE_MAX_MANAGERS}
      </p>
    </Panel>
  );
}

function Invitations({ role }: { role: AllianceRole }) {
  const invitations = useInvitations();
  const act = useAct();
  const [target, setTarget] = useState("");
  const [message, setMessage] = useState("");
  const inviteReason =
    checkAlliancePermission(role, "canInvite")?.message ?? (!target.trim() ? "Enter the country's name" : message.length > ALLIANCE_MESSAGE_MAX_LENGTH ? `Message must be at most ${ALLIANCE_MESSAGE_MAX_LENGTH} characters` : null);
  const cancelReason = checkAlliancePermission(role, "canCancelInvitations")?.message ?? null;
  const send = async () => {
    if (await act.run("invite", () => allianceApi.invite(target.trim(), message.trim()), `Invitation sent to ${target.trim()}`)) {
      setTarget("");
      setMessage("");
    }
  };
  return (
    <div className="grid two">
      <Panel title="Invite a country">
        <div className="field">
          <label htmlFor="invite-target">Country name</label>
          <input id="invite-target" className="input" value={target} onChange={(e) => setTarget(e.target.value)} />
        </div>
        <CountedText id="invite-message" label="Message" value={message} onChange={setMessage} max={ALLIANCE_MESSAGE_MAX_LENGTH} />
        <ActResult error={act.error} message={act.message} />
        <ActionButton disabledReason={inviteReason} busy={act.busy === "invite"} onClick={send}>
          Send Invitation
        </ActionButton>
      </Panel>
      <Panel title="Sent invitations">
        {(invitations.data?.sent ?? []).length === 0 && <p className="muted">{ALLIANCE_MESSAGES.noPendingInvitations}</p>}
        <ul className="plain-list">
          {invitations.data?.sent.map((i) => (
            <li key={i.id} className="list-card">
              <span>
                <strong>{i.targetCountryName}</strong>
                <span className="small muted">
                  {" "}
                  by {i.invitedBy}, expires {timeLeft(Date.parse(i.expiresAt))}
                </span>
              </span>
              <ActionButton variant="ghost" disabledReason={cancelReason} busy={act.busy === `cancel-${i.id}`} onClick={() => act.run(`cancel-${i.id}`, () => allianceApi.cancelInvitation(i.id))}>
                Cancel
              </ActionButton>
            </li>
          ))}
        </ul>
      </Panel>
    </div>
  );
}

function Applications({ role }: { role: AllianceRole }) {
  const canSee = alliancePermissions(role).canManageApplications;
  const applications = useApplications(canSee);
  const act = useAct();
  if (!canSee)
    return (
      <Panel title="Applications">
        <p className="muted">{ALLIANCE_MESSAGES.leadersOnly}</p>
      </Panel>
    );
  const received = applications.data?.received ?? [];
  return (
    <Panel title="Applications" testId="applications">
      {applications.isLoading && <p className="muted">Loading applications...</p>}
      {!applications.isLoading && received.length === 0 && <p className="muted">{ALLIANCE_MESSAGES.noPendingApplications}</p>}
      <ActResult error={act.error} message={act.message} />
      <ul className="plain-list">
        {received.map((a) => (
          <li key={a.id} className="list-card">
            <div>
              <strong>{a.applicantName}</strong> {!a.meetRequirements && <span className="badge warn">{ALLIANCE_MESSAGES.requirementsNotMet}</span>}
              <div className="small muted">
                {titleCase(a.applicantGovernment)} · networth {fmt(a.applicantNetworth)} · {fmt(a.applicantLand)} acres · expires {timeLeft(Date.parse(a.expiresAt))}
              </div>
              {a.message && <p className="small">“{a.message}”</p>}
            </div>
            <div className="row">
              <ActionButton busy={act.busy === `accept-${a.id}`} onClick={() => act.run(`accept-${a.id}`, () => allianceApi.answerApplication(a.id, "accept"), `${a.applicantName} joined`)}>
                Accept
              </ActionButton>
              <ActionButton variant="ghost" busy={act.busy === `reject-${a.id}`} onClick={() => act.run(`reject-${a.id}`, () => allianceApi.answerApplication(a.id, "reject"))}>
                Reject
              </ActionButton>
            </div>
          </li>
        ))}
      </ul>
    </Panel>
  );
}

const MATRIX: Array<[string, keyof ReturnType<typeof alliancePermissions>]> = [
  ["Invite countries", "canInvite"],
  ["Kick members", "canKick"],
  ["Accept or reject applications", "canManageApplications"],
  ["Cancel invitations", "canCancelInvitations"],
  ["Promote and demote", "canPromote"],
  ["Buy bonuses", "canManageBonuses"],
  ["View finances", "canViewFinances"],
  ["Plan and launch operations", "canCoordinateWarfare"],
  ["Intelligence and leadership channels", "canUsePrivateChannels"],
];

function Permissions() {
  return (
    <Panel title="Role hierarchy">
      <p className="small muted">
        Owner ♛ (one) → Managers ◆ (at most {ALLIANCE_MAX_MANAGERS}) → Members • ({ALLIANCE_MAX_MEMBERS} in all). When the owner leaves, the longest-serving manager (else member) takes over; the last to leave disbands the alliance.
      </p>
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              <th>Permission</th>
              {ALLIANCE_ROLES.map((r) => (
                <th key={r} className="n">
                  {ROLE_LABEL[r]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {MATRIX.map(([label, key]) => (
              <tr key={key}>
                <td>{label}</td>
                {ALLIANCE_ROLES.map((r) => (
                  <td key={r} className={`n ${alliancePermissions(r)[key] ? "ok" : "faint"}`}>
                    {alliancePermissions(r)[key] ? "✓" : "—"}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </Panel>
  );
}

function Settings({ status, role }: { status: AllianceStatusJson; role: AllianceRole }) {
  const alliance = status.alliance!;
  const act = useAct();
  const [description, setDescription] = useState(alliance.description);
  const [minNetworth, setMinNetworth] = useState(String(alliance.requirements.minNetworth));
  const [minLand, setMinLand] = useState(String(alliance.requirements.minLand));
  const [open, setOpen] = useState(alliance.requirements.acceptApplications);
  const whole = (v: string) => /^\d+$/.test(v.trim());
  const reason =
    checkAlliancePermission(role, "canEditSettings")?.message ??
    (!whole(minNetworth) || !whole(minLand) ? "Requirements are whole numbers" : description.length > ALLIANCE_DESCRIPTION_MAX_LENGTH ? `Description must be at most ${ALLIANCE_DESCRIPTION_MAX_LENGTH} characters` : null);
  return (
    <Panel title="Alliance settings">
      <CountedText id="settings-description" label="Description" value={description} onChange={setDescription} max={ALLIANCE_DESCRIPTION_MAX_LENGTH} rows={3} />
      <div className="row">
        <div className="field inline">
          <label htmlFor="req-networth">Minimum networth</label>
          <input id="req-networth" className="input" inputMode="numeric" value={minNetworth} onChange={(e) => setMinNetworth(e.target.value)} />
        </div>
        <div className="field inline">
          <label htmlFor="req-land">Minimum land (acres)</label>
          <input id="req-land" className="input" inputMode="numeric" value={minLand} onChange={(e) => setMinLand(e.target.value)} />
        </div>
        <label className="row small">
          <input type="checkbox" checked={open} onChange={(e) => setOpen(e.target.checked)} /> Accept applications
        </label>
      </div>
      <ActResult error={act.error} message={act.message} />
      <ActionButton
        disabledReason={reason}
        busy={act.busy === "settings"}
        onClick={() => act.run("settings", () => allianceApi.settings({ description, requirements: { minNetworth: Number(minNetworth), minLand: Number(minLand), acceptApplications: open } }), "Settings saved")}
      >
        Save Changes
      </ActionButton>
    </Panel>
  );
}
