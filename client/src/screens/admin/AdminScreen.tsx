import { useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AdminUserJson } from "@game/schema/api";
import { shellApi, shellKeys, useIsAdmin } from "../../api/shell";
import { useSeason } from "../../realtime/hooks";
import { ActionButton, Panel, Stat } from "../../components/ui";
import { dateText, fmt, money } from "../../components/format";

/**
 * Administration (visible to administrators only; the server refuses everyone else): the
 * season, an announcement to global chat, players (suspend, unsuspend, view their country)
 * and the log of every administrator action.
 */
export function AdminScreen() {
  const isAdmin = useIsAdmin();
  if (!isAdmin) return <div className="panel center muted">Administrators only.</div>;
  return (
    <div className="stack" data-testid="admin">
      <div className="page-header">
        <h1>Administration</h1>
      </div>
      <SeasonPanel />
      <AnnouncementPanel />
      <PlayersPanel />
      <AiPanel />
      <LogPanel />
    </div>
  );
}

function useLogRefresh() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: shellKeys.adminLog });
}

function SeasonPanel() {
  const season = useSeason();
  const refreshLog = useLogRefresh();
  const [startNext, setStartNext] = useState(true);
  const [confirming, setConfirming] = useState(false);
  const [result, setResult] = useState<string | null>(null);
  const end = useMutation({
    mutationFn: () => shellApi.endSeason(startNext),
    onSuccess: (r) => {
      setConfirming(false);
      setResult(r.started ? `${r.ended} ended; ${r.started} started.` : `${r.ended} ended; no season is running.`);
      refreshLog();
    },
  });
  const start = useMutation({
    mutationFn: () => shellApi.startSeason(),
    onSuccess: (r) => {
      setResult(`${r.started} started.`);
      refreshLog();
    },
  });
  const active = season?.active === "ACTIVE";
  return (
    <Panel title="Season">
      <div className="grid" style={{ gridTemplateColumns: "repeat(auto-fit, minmax(150px, 1fr))" }}>
        <Stat label="Season" value={<span data-testid="admin-season-name">{season?.name ?? "..."}</span>} />
        <Stat label="Status" value={season?.active ?? "..."} />
        <Stat label="Ends" value={season?.endsAt ? dateText(season.endsAt) : "..."} />
      </div>
      <label className="row small" style={{ gap: "0.5rem", margin: "0.6rem 0" }}>
        <input type="checkbox" checked={startNext} onChange={(e) => setStartNext(e.target.checked)} /> Start the next season at once
      </label>
      <div className="row" style={{ gap: "0.75rem", flexWrap: "wrap" }}>
        {confirming ? (
          <>
            <ActionButton variant="danger" busy={end.isPending} busyLabel="Ending..." onClick={() => end.mutate()} data-testid="confirm-end-season">
              Archive scores and reset every country
            </ActionButton>
            <button type="button" className="btn ghost" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </>
        ) : (
          <ActionButton variant="danger" disabledReason={active ? null : "No season is running"} onClick={() => setConfirming(true)} data-testid="end-season">
            End season
          </ActionButton>
        )}
        <ActionButton disabledReason={active ? "A season is running; end it first" : null} busy={start.isPending} onClick={() => start.mutate()}>
          Start season
        </ActionButton>
      </div>
      {(end.error || start.error) && (
        <div className="field-error" role="alert">
          {(end.error ?? start.error)!.message}
        </div>
      )}
      {result && (
        <p className="hint" role="status">
          {result}
        </p>
      )}
    </Panel>
  );
}

function AnnouncementPanel() {
  const [message, setMessage] = useState("");
  const [sent, setSent] = useState(false);
  const refreshLog = useLogRefresh();
  const post = useMutation({
    mutationFn: () => shellApi.announce(message),
    onSuccess: () => {
      setMessage("");
      setSent(true);
      refreshLog();
    },
  });
  const trimmed = message.trim();
  return (
    <Panel title="Announcement to global chat">
      <div className="field">
        <label htmlFor="admin-announcement">Message ({trimmed.length}/500)</label>
        <textarea
          id="admin-announcement"
          className="input"
          rows={3}
          maxLength={500}
          value={message}
          onChange={(e) => {
            setMessage(e.target.value);
            setSent(false);
          }}
        />
      </div>
      <ActionButton disabledReason={trimmed ? null : "Write a message first"} busy={post.isPending} onClick={() => post.mutate()}>
        Post announcement
      </ActionButton>
      {post.error && (
        <div className="field-error" role="alert">
          {post.error.message}
        </div>
      )}
      {sent && (
        <p className="hint" role="status">
          Posted to the General channel and the news.
        </p>
      )}
    </Panel>
  );
}

function PlayersPanel() {
  const [search, setSearch] = useState("");
  const [viewing, setViewing] = useState<number | null>(null);
  const users = useQuery({ queryKey: shellKeys.adminUsers(search.trim()), queryFn: () => shellApi.adminUsers(search.trim()) });
  return (
    <Panel title="Players">
      <div className="field">
        <label htmlFor="admin-search">Find a player (username, email or country)</label>
        <input id="admin-search" className="input" value={search} onChange={(e) => setSearch(e.target.value)} />
      </div>
      {users.error && <div className="field-error">{users.error.message}</div>}
      <div className="stack" style={{ gap: "0.4rem" }}>
        {(users.data ?? []).map((u) => (
          <PlayerRow key={u.id} user={u} onView={() => setViewing(u.countryId)} />
        ))}
        {users.data?.length === 0 && <p className="muted">No player matches.</p>}
      </div>
      {viewing !== null && <CountryView countryId={viewing} onClose={() => setViewing(null)} />}
    </Panel>
  );
}

function PlayerRow({ user, onView }: { user: AdminUserJson; onView(): void }) {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ["admin"] });
  const suspend = useMutation({ mutationFn: () => shellApi.suspend(user.id, ""), onSuccess: refresh });
  const unsuspend = useMutation({ mutationFn: () => shellApi.unsuspend(user.id), onSuccess: refresh });
  return (
    <div className="row between" style={{ flexWrap: "wrap", gap: "0.5rem", borderBottom: "1px solid var(--border)", paddingBottom: "0.4rem" }} data-testid={`admin-user-${user.id}`}>
      <div>
        <strong>{user.username}</strong> {user.isAdmin && <span className="badge ok">admin</span>} {user.suspendedAt && <span className="badge bad">suspended</span>}
        <div className="small muted">
          {user.email} · {user.countryName ?? "no country"}
        </div>
      </div>
      <div className="row" style={{ gap: "0.5rem" }}>
        <ActionButton variant="" disabledReason={user.countryId === null ? "No country" : null} onClick={onView}>
          View country
        </ActionButton>
        {user.suspendedAt ? (
          <ActionButton variant="" busy={unsuspend.isPending} onClick={() => unsuspend.mutate()}>
            Unsuspend
          </ActionButton>
        ) : (
          <ActionButton variant="danger" busy={suspend.isPending} onClick={() => suspend.mutate()}>
            Suspend
          </ActionButton>
        )}
      </div>
      {(suspend.error || unsuspend.error) && <div className="field-error">{(suspend.error ?? unsuspend.error)!.message}</div>}
    </div>
  );
}

function CountryView({ countryId, onClose }: { countryId: number; onClose(): void }) {
  const q = useQuery({ queryKey: ["admin", "country", countryId], queryFn: () => shellApi.adminCountry(countryId) });
  const c = q.data?.country;
  return (
    <Panel
      title={c ? `${c.name} (#${c.id})` : "Country"}
      actions={
        <button type="button" className="btn small ghost" onClick={onClose}>
          Close
        </button>
      }
    >
      {q.error && <div className="field-error">{q.error.message}</div>}
      {c && (
        <div className="grid" style={{ gridTemplateColumns: "repeat(auto-fit, minmax(130px, 1fr))" }}>
          <Stat label="Networth" value={fmt(Number(c.networth))} />
          <Stat label="Cash" value={money(Number(c.cash))} />
          <Stat label="Land" value={fmt(Number(c.land))} />
          <Stat label="Population" value={fmt(Number(c.population))} />
          <Stat label="Turns" value={fmt(Number(c.turns))} />
          <Stat label="Troops" value={fmt(Number(c.troops))} />
          <Stat label="Tanks" value={fmt(Number(c.tanks))} />
          <Stat label="Jets" value={fmt(Number(c.jets))} />
          <Stat label="Victories" value={fmt(Number(c.victories))} />
        </div>
      )}
    </Panel>
  );
}

/** AI countries (AI_COUNTRIES keeps their number): what each has done, pause or resume one. */
function AiPanel() {
  const queryClient = useQueryClient();
  const ai = useQuery({ queryKey: ["admin", "ai"], queryFn: shellApi.aiCountries, refetchInterval: 30_000 });
  const toggle = useMutation({
    mutationFn: (row: { countryId: number; paused: boolean }) => shellApi.pauseAi(row.countryId, !row.paused),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ["admin"] }),
  });
  return (
    <Panel title="AI countries">
      {ai.error && <div className="field-error">{ai.error.message}</div>}
      {toggle.error && (
        <div className="field-error" role="alert">
          {toggle.error.message}
        </div>
      )}
      <div className="stack" style={{ gap: "0.4rem" }} data-testid="admin-ai">
        {(ai.data ?? []).map((row) => (
          <div key={row.countryId} className="row between" style={{ flexWrap: "wrap", gap: "0.5rem", borderBottom: "1px solid var(--border)", paddingBottom: "0.4rem" }}>
            <div>
              <strong>{row.countryName}</strong> <span className="badge">{row.personality}</span> {row.paused && <span className="badge bad">paused</span>}
              <div className="small muted">
                {fmt(row.actions)} action{row.actions === 1 ? "" : "s"} in {fmt(row.rounds)} round{row.rounds === 1 ? "" : "s"}, {fmt(row.refused)} refused · last {row.lastActedAt ? new Date(row.lastActedAt).toLocaleString() : "never"}
              </div>
            </div>
            <ActionButton variant={row.paused ? "" : "danger"} busy={toggle.isPending && toggle.variables?.countryId === row.countryId} onClick={() => toggle.mutate(row)}>
              {row.paused ? "Resume" : "Pause"}
            </ActionButton>
          </div>
        ))}
        {ai.data?.length === 0 && <p className="muted">No AI countries (AI_COUNTRIES is 0).</p>}
      </div>
    </Panel>
  );
}

function LogPanel() {
  const log = useQuery({ queryKey: shellKeys.adminLog, queryFn: shellApi.adminLog });
  return (
    <Panel title="Administrator log">
      {log.error && <div className="field-error">{log.error.message}</div>}
      <div className="stack" style={{ gap: "0.3rem" }} data-testid="admin-log">
        {(log.data ?? []).map((e) => (
          <div key={e.id} className="small">
            <span className="muted">{new Date(e.createdAt).toLocaleString()}</span> <strong>{e.adminUsername}</strong> {e.action.replace(/_/g, " ")}
            {e.targetUsername ? ` ${e.targetUsername}` : ""}
            {typeof e.details.season === "string" ? ` (${e.details.season})` : ""}
          </div>
        ))}
        {log.data?.length === 0 && <p className="muted">Nothing yet.</p>}
      </div>
    </Panel>
  );
}
