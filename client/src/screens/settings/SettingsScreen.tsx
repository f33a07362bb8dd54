import "../../zodConfig"; // first: this screen parses with zod (GameApp no longer loads it at the start)
import { useEffect, useMemo, useState } from "react";
import { browserNotificationsSupported, setBrowserNotifications, useBrowserNotificationsOn } from "../../realtime/browserNotifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  DISPLAY_NAME_MAX,
  SETTINGS_COMBAT_VIEWS,
  SETTINGS_FONT_SIZES,
  SETTINGS_LANGUAGES,
  SETTINGS_REFRESH_INTERVALS,
  SETTINGS_THEMES,
  SETTINGS_TIMEZONES,
  settingsSchema,
  firstIssueMessage,
  type GameSettings,
  type SettingsJson,
} from "@game/schema/api";
import { shellApi, shellKeys, useSettings } from "../../api/shell";
import { ActionButton, Loading, Panel, Tabs } from "../../components/ui";
import { AVAILABLE_VIEWS, type Route, type ViewId } from "../shell/navigation";

type TabId = "profile" | "notifications" | "privacy" | "gameplay" | "display" | "account";
const TABS: { id: TabId; label: string }[] = [
  { id: "profile", label: "Profile" },
  { id: "notifications", label: "Notifications" },
  { id: "privacy", label: "Privacy" },
  { id: "gameplay", label: "Gameplay" },
  { id: "display", label: "Display" },
  { id: "account", label: "Account" },
];

/** Labels of the switches, by tab and key (the spec's settings). */
const FLAGS: Partial<Record<keyof GameSettings, Record<string, string>>> = {
  notifications: {
    allianceMessages: "Alliance messages",
    warAlerts: "War alerts",
    marketUpdates: "Market updates",
    achievementAlerts: "Achievement alerts",
    diplomaticEvents: "Diplomatic events",
    soundEnabled: "Sound",
    pushNotifications: "Push notifications",
    emailNotifications: "Email notifications",
  },
  privacy: {
    showOnlineStatus: "Show my online status",
    allowSpyOperations: "Allow spy operations against my country",
    showInRankings: "Show me in the rankings",
    allowDirectMessages: "Allow direct messages",
    shareActivityData: "Share activity data",
  },
  gameplay: {
    autoSaveTurns: "Auto-save turns",
    confirmActions: "Confirm actions",
    showAdvancedStats: "Show advanced statistics",
    autoRefresh: "Auto-refresh",
  },
  display: {
    compactMode: "Compact mode",
    showAnimations: "Show animations",
    colorBlindMode: "Colour-blind mode",
  },
};

/** The account view (password change, export, deletion) belongs to the account work. */
const ACCOUNT_VIEW = "account" as ViewId;

/**
 * Settings (document 3: Settings): six tabs over the server's per-user settings. An edit sets
 * the unsaved-changes flag and shows Save Changes; saving writes the whole document
 * (PUT /settings) and clears the flag.
 */
export function SettingsScreen({ onNavigate }: { onNavigate(route: Route): void }) {
  const settings = useSettings();
  if (settings.isPending) return <Loading text="Loading settings..." />;
  if (settings.isError || !settings.data)
    return (
      <div className="panel error" role="alert">
        {settings.error?.message ?? "Failed to get settings"}
      </div>
    );
  return <SettingsForm saved={settings.data} onNavigate={onNavigate} />;
}

export function SettingsForm({ saved, onNavigate }: { saved: SettingsJson; onNavigate(route: Route): void }) {
  const queryClient = useQueryClient();
  const [tab, setTab] = useState<TabId>("profile");
  const [draft, setDraft] = useState<GameSettings>(saved.settings);
  const [savedJson, setSavedJson] = useState(() => JSON.stringify(saved.settings));
  const [message, setMessage] = useState<string | null>(null);
  useEffect(() => {
    setDraft(saved.settings);
    setSavedJson(JSON.stringify(saved.settings));
  }, [saved]);
  const dirty = JSON.stringify(draft) !== savedJson;
  const invalid = useMemo(() => {
    const r = settingsSchema.safeParse(draft);
    return r.success ? null : firstIssueMessage(r.error);
  }, [draft]);

  const save = useMutation({
    mutationFn: () => shellApi.saveSettings(draft),
    onSuccess: (data) => {
      queryClient.setQueryData(shellKeys.settings, data);
      setDraft(data.settings);
      setSavedJson(JSON.stringify(data.settings));
      setMessage("Settings saved");
    },
    onError: () => setMessage(null),
  });

  const set = <T extends keyof GameSettings>(section: T, key: keyof GameSettings[T], value: unknown) => {
    setMessage(null);
    setDraft((d) => ({ ...d, [section]: { ...d[section], [key]: value } }));
  };

  const flags = (section: keyof GameSettings) => (
    <div className="stack" style={{ gap: "0.5rem", marginBottom: "0.85rem" }}>
      {Object.entries(FLAGS[section] ?? {}).map(([key, label]) => (
        <label key={key} className="row small" style={{ gap: "0.5rem" }}>
          <input type="checkbox" data-testid={`setting-${section}-${key}`} checked={Boolean((draft[section] as Record<string, unknown>)[key])} onChange={(e) => set(section, key as never, e.target.checked)} />
          {label}
        </label>
      ))}
    </div>
  );

  const select = <T extends keyof GameSettings>(section: T, key: keyof GameSettings[T] & string, label: string, options: readonly (string | number)[], disabledReason?: string) => (
    <div className="field">
      <label htmlFor={`setting-${section}-${key}`}>{label}</label>
      <select
        id={`setting-${section}-${key}`}
        value={String((draft[section] as Record<string, unknown>)[key])}
        disabled={Boolean(disabledReason)}
        title={disabledReason}
        onChange={(e) => set(section, key, typeof options[0] === "number" ? Number(e.target.value) : e.target.value)}
      >
        {options.map((o) => (
          <option key={o} value={String(o)}>
            {typeof o === "number" ? `${o} seconds` : o}
          </option>
        ))}
      </select>
      {disabledReason && <span className="hint">{disabledReason}</span>}
    </div>
  );

  const accountAvailable = AVAILABLE_VIEWS.has(ACCOUNT_VIEW);

  return (
    <div className="stack" data-testid="settings">
      <div className="page-header row between">
        <h1>Settings</h1>
        {dirty && (
          <span className="badge warn" data-testid="unsaved-changes" role="status">
            Unsaved changes
          </span>
        )}
      </div>
      <Tabs label="Settings tabs" value={tab} onChange={setTab} tabs={TABS} />
      <Panel title={TABS.find((t) => t.id === tab)!.label}>
        {tab === "profile" && (
          <>
            <div className="field">
              <label htmlFor="setting-displayName">Display name</label>
              <input id="setting-displayName" className="input" maxLength={DISPLAY_NAME_MAX} placeholder={saved.username} value={draft.profile.displayName} onChange={(e) => set("profile", "displayName", e.target.value)} />
              <span className="hint">Empty: your username, {saved.username}.</span>
            </div>
            <div className="field">
              <label htmlFor="setting-email">Email</label>
              <input id="setting-email" className="input" value={saved.email} readOnly aria-describedby="email-hint" />
              <span className="hint" id="email-hint">
                Your account's email; it is not changed here.
              </span>
            </div>
            {select("profile", "timezone", "Timezone", SETTINGS_TIMEZONES)}
            {select("profile", "language", "Language", SETTINGS_LANGUAGES)}
          </>
        )}
        {tab === "notifications" && (
          <>
            {flags("notifications")}
            <BrowserNotificationsToggle />
          </>
        )}
        {tab === "privacy" && (
          <>
            {flags("privacy")}
            <p className="hint">Whether spy operations can target you is decided by the espionage rules; this choice is kept with your account.</p>
          </>
        )}
        {tab === "gameplay" && (
          <>
            {flags("gameplay")}
            {select("gameplay", "defaultCombatView", "Default combat view", SETTINGS_COMBAT_VIEWS)}
            {select("gameplay", "refreshInterval", "Refresh interval", SETTINGS_REFRESH_INTERVALS, draft.gameplay.autoRefresh ? undefined : "Turn on auto-refresh to choose an interval")}
          </>
        )}
        {tab === "display" && (
          <>
            {select("display", "theme", "Theme", SETTINGS_THEMES)}
            {select("display", "fontSize", "Font size", SETTINGS_FONT_SIZES)}
            {flags("display")}
          </>
        )}
        {tab === "account" && (
          <div className="stack">
            <p>
              Signed in as <strong>{saved.username}</strong> ({saved.email}).
            </p>
            <ActionButton variant="" disabledReason={accountAvailable ? null : "Account management is not available on this server yet"} onClick={() => onNavigate({ view: ACCOUNT_VIEW })} data-testid="open-account">
              Password, data export and account deletion
            </ActionButton>
          </div>
        )}
      </Panel>
      {dirty && (
        <div className="row" style={{ gap: "0.75rem", flexWrap: "wrap" }}>
          <ActionButton disabledReason={invalid} busy={save.isPending} busyLabel="Saving..." onClick={() => save.mutate()} data-testid="save-settings">
            Save Changes
          </ActionButton>
          <button type="button" className="btn ghost" onClick={() => setDraft(JSON.parse(savedJson) as GameSettings)}>
            Discard
          </button>
        </div>
      )}
      {save.isError && (
        <div className="field-error" role="alert">
          {save.error.message}
        </div>
      )}
      {message && !dirty && (
        <div className="hint" role="status" data-testid="settings-saved">
          {message}
        </div>
      )}
    </div>
  );
}

/** The opt-in for browser notifications on this device (realtime/browserNotifications.ts). */
function BrowserNotificationsToggle() {
  const on = useBrowserNotificationsOn();
  const [denied, setDenied] = useState(false);
  if (!browserNotificationsSupported()) return <p className="hint">This browser cannot show notifications.</p>;
  return (
    <div className="field">
      <label className="row small" style={{ gap: "0.5rem" }}>
        <input
          type="checkbox"
          checked={on}
          data-testid="browser-notifications"
          onChange={(e) => {
            const wanted = e.target.checked;
            void setBrowserNotifications(wanted).then((now) => setDenied(wanted && !now));
          }}
        />
        Browser notifications on this device
      </label>
      <span className="hint">While the game is in a background tab: attacks on you, spies detected, allies calling for help. Saved in this browser at once.</span>
      {denied && (
        <span className="field-error" role="alert">
          The browser did not allow notifications for this site.
        </span>
      )}
    </div>
  );
}
