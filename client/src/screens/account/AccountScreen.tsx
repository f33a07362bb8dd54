import "../../zodConfig"; // first: this screen parses with zod (GameApp no longer loads it at the start)
import { useState, type FormEvent } from "react";
import { ACCOUNT_MESSAGES, DELETE_ACCOUNT_CONFIRMATION, changePasswordFormSchema, type AccountStatsJson } from "@game/schema/api";
import { accountApi, downloadJson, useAccountStats } from "../../api/account";
import { useAuth } from "../../auth/AuthContext";
import { ActionButton, Loading, Panel, Stat } from "../../components/ui";
import { fieldErrors } from "../entry/validation";
import { fmt, shortDateTimeText } from "../../components/format";

const date = (iso: string | null) => (iso ? shortDateTimeText(Date.parse(iso)) : "Never");

/**
 * The Account screen (issue 13, "Settings and account"): password change (every other
 * session is signed out at once), data export (a JSON file with the date in its name), account
 * deletion (typed confirmation and password), and account statistics from the server.
 */
export function AccountScreen() {
  return (
    <div className="stack" data-testid="account">
      <div className="page-header">
        <h1>Account</h1>
      </div>
      <AccountStatistics />
      <ChangePassword />
      <ExportData />
      <DeleteAccount />
    </div>
  );
}

function AccountStatistics() {
  const stats = useAccountStats();
  return (
    <Panel title="Account Statistics" testId="account-stats">
      {stats.isPending ? (
        <Loading text="Loading account statistics..." />
      ) : stats.error ? (
        <div className="alert error" role="alert">
          {stats.error.message}
        </div>
      ) : (
        <StatsGrid stats={stats.data} />
      )}
    </Panel>
  );
}

function StatsGrid({ stats }: { stats: AccountStatsJson }) {
  return (
    <div className="grid stats-grid" style={{ gridTemplateColumns: "repeat(auto-fit, minmax(230px, 1fr))" }}>
      <Stat label="Account created" value={date(stats.memberSince)} testId="stat-created" />
      <Stat label="Last login" value={date(stats.lastLogin)} />
      <Stat label="Account age" value={`${fmt(stats.accountAgeDays)} ${stats.accountAgeDays === 1 ? "day" : "days"}`} />
      <Stat label="Country" value={stats.country ? stats.country.name : "None"} />
      <Stat label="Account value (networth)" value={stats.country ? fmt(stats.country.networth) : "-"} testId="stat-networth" />
      <Stat label="Land" value={stats.country ? `${fmt(stats.country.land)} acres` : "-"} />
      <Stat label="Battles (won / lost)" value={`${fmt(stats.battles.fought)} (${fmt(stats.battles.won)} / ${fmt(stats.battles.lost)})`} />
      <Stat label="Wars participated" value={fmt(stats.wars)} />
      <Stat label="Market trades" value={`${fmt(stats.trades.count)} ($${fmt(stats.trades.volume)})`} testId="stat-trades" />
      <Stat label="Chat messages" value={fmt(stats.chatMessages)} testId="stat-chat" />
      <Stat label="News read" value={fmt(stats.newsRead)} />
      <Stat label="Alliance" value={stats.alliance ? `[${stats.alliance.tag}] ${stats.alliance.name} (${stats.alliance.role})` : "None"} />
    </div>
  );
}

function ChangePassword() {
  const [form, setForm] = useState({ currentPassword: "", newPassword: "", confirmPassword: "" });
  const [show, setShow] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const filled = form.currentPassword && form.newPassword && form.confirmPassword;

  const set = (key: keyof typeof form) => (value: string) => {
    const next = { ...form, [key]: value };
    setForm(next);
    if (Object.keys(errors).length) setErrors(fieldErrors(changePasswordFormSchema, next));
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    const found = fieldErrors(changePasswordFormSchema, form);
    setErrors(found);
    setResult(null);
    if (Object.keys(found).length) return;
    setBusy(true);
    try {
      const message = await accountApi.changePassword({ currentPassword: form.currentPassword, newPassword: form.newPassword });
      setResult({ ok: true, message });
      setForm({ currentPassword: "", newPassword: "", confirmPassword: "" });
    } catch (err) {
      setResult({ ok: false, message: err instanceof Error ? err.message : "Failed to change password" });
    } finally {
      setBusy(false);
    }
  };

  const field = (key: keyof typeof form, label: string, autoComplete: string) => (
    <div className="field">
      <label htmlFor={`account-${key}`}>{label}</label>
      <input
        id={`account-${key}`}
        type={show ? "text" : "password"}
        autoComplete={autoComplete}
        value={form[key]}
        onChange={(e) => set(key)(e.target.value)}
        aria-invalid={Boolean(errors[key])}
        aria-describedby={errors[key] ? `account-${key}-error` : undefined}
      />
      {errors[key] && (
        <span id={`account-${key}-error`} className="field-error" role="alert">
          {errors[key]}
        </span>
      )}
    </div>
  );

  return (
    <Panel title="Change Password" testId="account-password">
      <form onSubmit={onSubmit} noValidate aria-label="Change password" className="stack">
        {field("currentPassword", "Current password", "current-password")}
        {field("newPassword", "New password (at least 8 characters)", "new-password")}
        {field("confirmPassword", "Confirm new password", "new-password")}
        <label className="checkbox">
          <input type="checkbox" checked={show} onChange={(e) => setShow(e.target.checked)} /> Show passwords
        </label>
        <p className="muted">Changing your password signs out every other session of your account at once.</p>
        {result && (
          <div className={`alert ${result.ok ? "info" : "error"}`} role={result.ok ? "status" : "alert"} data-testid="password-result">
            {result.message}
          </div>
        )}
        <ActionButton type="submit" busy={busy} busyLabel="Changing..." disabledReason={filled ? null : "Fill in all three fields"}>
          Change Password
        </ActionButton>
      </form>
    </Panel>
  );
}

function ExportData() {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);
  const onExport = async () => {
    setBusy(true);
    setResult(null);
    try {
      const { filename, export: data } = await accountApi.exportData();
      downloadJson(filename, data);
      setResult({ ok: true, message: `Downloaded ${filename}` });
    } catch (err) {
      setResult({ ok: false, message: err instanceof Error ? err.message : "Failed to export account data" });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Panel title="Export Data" testId="account-export">
      <p className="muted">Download everything the game keeps about you as a JSON file: your account, settings, country, battle reports, market trades, chat messages, news read state and alliance membership.</p>
      {result && (
        <div className={`alert ${result.ok ? "info" : "error"}`} role={result.ok ? "status" : "alert"}>
          {result.message}
        </div>
      )}
      <ActionButton onClick={onExport} busy={busy} busyLabel="Preparing...">
        Export My Data
      </ActionButton>
    </Panel>
  );
}

function DeleteAccount() {
  const { logout } = useAuth();
  const [confirmation, setConfirmation] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const reason = confirmation !== DELETE_ACCOUNT_CONFIRMATION ? `Type ${DELETE_ACCOUNT_CONFIRMATION} exactly to confirm` : !password ? ACCOUNT_MESSAGES.deletePasswordRequired : null;
  const onDelete = async () => {
    setBusy(true);
    setError(null);
    try {
      await accountApi.deleteAccount({ confirmation: DELETE_ACCOUNT_CONFIRMATION, password });
      await logout();
    } catch (err) {
      setError(err instanceof Error ? err.message : "Failed to delete account");
      setBusy(false);
    }
  };
  return (
    <Panel title="Delete Account" testId="account-delete" className="danger-zone">
      <div className="alert error" role="note">
        Deleting your account is irreversible: your country leaves the world, your open market listings and orders are cancelled, and you leave your alliance (its ownership passes to the next member). Your email can be used to register
        again.
      </div>
      <div className="field">
        <label htmlFor="account-delete-confirmation">Type {DELETE_ACCOUNT_CONFIRMATION} to confirm</label>
        <input id="account-delete-confirmation" autoComplete="off" value={confirmation} onChange={(e) => setConfirmation(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="account-delete-password">Password</label>
        <input id="account-delete-password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
      </div>
      {error && (
        <div className="alert error" role="alert" data-testid="delete-error">
          {error}
        </div>
      )}
      <ActionButton variant="danger" onClick={onDelete} busy={busy} busyLabel="Deleting..." disabledReason={reason}>
        Delete My Account
      </ActionButton>
    </Panel>
  );
}
