import { useState } from "react";
import type { AllianceStatusJson } from "@game/schema/api";
import { ALLIANCE_BONUSES, ALLIANCE_MESSAGES, alliancePermissions, isLeaderRole, type AllianceRole } from "@game/schema/rules";
import { allianceApi } from "../../api/alliance";
import type { AllianceRoomHandle, AllianceSnapshot } from "../../realtime/allianceRoom";
import { ActionButton, Panel, Stat, Tabs } from "../../components/ui";
import { fmt, titleCase } from "../../components/format";
import { ActResult, AllianceFlag, ROLE_ICON, ROLE_LABEL, timeLeft, useAct } from "./shared";
import { AllianceManagement } from "./AllianceManagement";
import { AllianceBonuses } from "./AllianceBonuses";
import { AllianceChat } from "./AllianceChat";
import { AllianceWarfare } from "./AllianceWarfare";

type SubTab = "overview" | "management" | "bonuses" | "chat" | "warfare";

/** A member's alliance: the header, Leave Alliance and the Alliance System tabs. */
export function AllianceHome({ status, room, countryId }: { status: AllianceStatusJson; room: AllianceRoomHandle; countryId: number }) {
  const [tab, setTab] = useState<SubTab>("overview");
  const act = useAct();
  const live = room.snapshot;
  const alliance = status.alliance!;
  // The room knows the role first (a promotion shows at once); REST is the fallback before it joins.
  const role: AllianceRole = (live.members.find((m) => m.countryId === countryId)?.role as AllianceRole | undefined) ?? status.role ?? "member";
  const h = live.header;
  const header = {
    tag: h?.tag ?? alliance.tag,
    name: h?.name ?? alliance.name,
    description: h?.description ?? alliance.description,
    background: h?.flagBackground ?? alliance.flag.backgroundColor,
    symbol: h?.flagSymbol ?? alliance.flag.symbol,
    symbolColor: h?.flagSymbolColor ?? alliance.flag.symbolColor,
    rank: h?.rank ?? alliance.rank,
    members: h?.memberCount ?? alliance.memberCount,
    max: h?.maxMembers ?? alliance.maxMembers,
    total: h?.totalNetworth ?? alliance.totalNetworth,
    average: h?.averageNetworth ?? alliance.averageNetworth,
    points: h?.bonusPoints ?? alliance.bonusPoints,
  };
  const leave = () => {
    if (!window.confirm(ALLIANCE_MESSAGES.leaveConfirm)) return;
    void act.run("leave", () => allianceApi.leave());
  };
  return (
    <div className="stack" data-testid="alliance-home">
      <section className="panel alliance-header" data-testid="alliance-header">
        <AllianceFlag background={header.background} symbol={header.symbol} color={header.symbolColor} size={64} />
        <div className="alliance-title">
          <h2>
            <span className="tag">[{header.tag}]</span> {header.name}
          </h2>
          {header.description && <p className="muted small">{header.description}</p>}
          <div className="row small">
            <span className="badge">Rank #{header.rank}</span>
            <span className="badge" data-testid="alliance-members-count">
              {fmt(header.members)}/{fmt(header.max)} members
            </span>
            <span className="badge">Networth {fmt(header.total)}</span>
            <span className="badge">Average {fmt(header.average)}</span>
            <span className="badge warn">{fmt(header.points)} bonus points</span>
            <span className="badge ok">
              {ROLE_ICON[role]} {ROLE_LABEL[role]}
            </span>
            <span role="img" className={`conn ${live.status}`} title={live.statusMessage || live.status} aria-label={`Alliance room ${live.status}`} />
          </div>
        </div>
        <ActionButton variant="danger" busy={act.busy === "leave"} busyLabel="Leaving..." onClick={leave}>
          Leave Alliance
        </ActionButton>
      </section>
      <ActResult error={act.error} message={act.message} />
      {live.alerts.length > 0 && (
        <div className="alert error" role="alert" data-testid="ally-alert">
          ⚔ {live.alerts[live.alerts.length - 1]!.countryName} was attacked by {live.alerts[live.alerts.length - 1]!.attackerName} — see Defense Requests.
        </div>
      )}
      <Tabs
        label="Alliance System"
        value={tab}
        onChange={setTab}
        tabs={[
          { id: "overview", label: "Overview" },
          { id: "management", label: isLeaderRole(role) && live.leadership?.pendingApplications ? `Management (${live.leadership.pendingApplications})` : "Management" },
          { id: "bonuses", label: "Bonuses" },
          { id: "chat", label: "Chat" },
          { id: "warfare", label: "Warfare" },
        ]}
      />
      {tab === "overview" && <Overview status={status} live={live} />}
      {tab === "management" && <AllianceManagement status={status} live={live} role={role} countryId={countryId} />}
      {tab === "bonuses" && <AllianceBonuses role={role} livePoints={live.header?.bonusPoints ?? null} liveBonuses={live.bonuses.map((b) => `${b.bonusId}:${b.level}:${b.expiresAt}`).join()} />}
      {tab === "chat" && <AllianceChat room={room} role={role} countryId={countryId} />}
      {tab === "warfare" && <AllianceWarfare room={room} role={role} countryId={countryId} />}
    </div>
  );
}

function Overview({ status, live }: { status: AllianceStatusJson; live: AllianceSnapshot }) {
  const members = live.members.length ? live.members : status.members.map((m) => ({ ...m, contributionPoints: m.contributions.bonusPoints, militarySupport: m.contributions.militarySupport }));
  const online = members.filter((m) => m.isOnline).length;
  const h = live.header;
  const stats = status.alliance!.stats;
  const permissions = alliancePermissions(status.role);
  return (
    <div className="stack">
      <div className="grid">
        <Panel title="Statistics">
          <Stat label="Total land" value={`${fmt(h?.totalLand ?? stats.totalLand)} acres`} />
          <Stat label="Total military" value={fmt(h?.totalMilitary ?? stats.totalMilitary ?? 0)} />
          <Stat label="Wars won" value={fmt(h?.warsWon ?? stats.warsWon)} />
          <Stat label="Wars lost" value={fmt(h?.warsLost ?? stats.warsLost)} />
          <Stat label="Active wars" value={fmt(h?.activeWars ?? stats.activeWars)} />
          <Stat label="Online now" value={`${online} of ${members.length}`} />
        </Panel>
        <Panel title="Bonuses in force">
          {live.bonuses.filter((b) => b.level > 0).length === 0 && <p className="muted">No bonuses yet: earn points and let the owner buy them.</p>}
          <ul className="plain-list">
            {live.bonuses
              .filter((b) => b.level > 0)
              .map((b) => {
                const def = ALLIANCE_BONUSES.find((x) => x.id === b.bonusId);
                return (
                  <li key={b.bonusId}>
                    <strong>{def?.name ?? b.bonusId}</strong> {def?.isPermanent ? `level ${b.level}` : `ends ${timeLeft(b.expiresAt)}`}
                  </li>
                );
              })}
          </ul>
          {permissions.canViewFinances && status.finances && (
            <>
              <h3>Finances</h3>
              <Stat label="Points earned" value={fmt(status.finances.pointsEarned)} />
              <Stat label="Points spent" value={fmt(status.finances.pointsSpent)} />
              <ul className="plain-list small">
                {status.finances.recent.slice(0, 6).map((l, i) => (
                  <li key={i}>
                    +{fmt(l.points)} {titleCase(l.source)} {l.countryName && `· ${l.countryName}`}
                  </li>
                ))}
              </ul>
            </>
          )}
        </Panel>
      </div>
      <Panel title="Members">
        <div className="table-wrap">
          <table className="table" data-testid="alliance-members">
            <thead>
              <tr>
                <th>Country</th>
                <th>Role</th>
                <th className="n">Networth</th>
                <th className="n hide-sm">Land</th>
                <th className="n hide-sm">Points</th>
              </tr>
            </thead>
            <tbody>
              {members.map((m) => (
                <tr key={m.countryId}>
                  <td>
                    <span role="img" className={`conn ${m.isOnline ? "connected" : ""}`} aria-label={m.isOnline ? "online" : "offline"} /> {m.countryName}
                  </td>
                  <td>
                    {ROLE_ICON[m.role as AllianceRole]} {ROLE_LABEL[m.role as AllianceRole] ?? m.role}
                  </td>
                  <td className="n">{fmt(m.networth)}</td>
                  <td className="n hide-sm">{fmt(m.landAcres)}</td>
                  <td className="n hide-sm">{fmt(m.contributionPoints)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Panel>
    </div>
  );
}
