import "../../zodConfig"; // first: this screen parses with zod (GameApp no longer loads it at the start)
import "../../zodConfig"; // first: registration parses with zod
import { useEffect, useMemo, useState, type FormEvent } from "react";
import { COUNTRY_NAME_MAX, countryNameSchema, registerAccountStepSchema } from "@game/schema/api";
import { GOVERNMENTS, TECHNOLOGIES, computeNetworth, startingCountry, type TechnologyId } from "@game/schema/rules";
import { useAuth } from "../../auth/AuthContext";
import { FALLBACK, REGISTRATION_STARTING_RESOURCES } from "../../api/endpoints";
import { ApiError } from "../../api/http";
import { ActionButton } from "../../components/ui";
import { fmt, money, titleCase } from "../../components/format";
import { fieldErrors } from "./validation";

interface AccountInfo {
  email: string;
  username: string;
  password: string;
  confirmPassword: string;
}

const EMPTY_ACCOUNT: AccountInfo = { email: "", username: "", password: "", confirmPassword: "" };

/** Registration steps 1 and 2; step 3 (the tutorial) follows a successful registration. */
export function RegisterFlow({ onSwitchToLogin }: { onSwitchToLogin(): void }) {
  const [step, setStep] = useState<"user-info" | "country">("user-info");
  const [account, setAccount] = useState<AccountInfo>(EMPTY_ACCOUNT);
  // a taken email or username found on submit: back to step 1, the message next to its field
  const [taken, setTaken] = useState<Partial<Record<keyof AccountInfo, string>>>({});
  return step === "user-info" ? (
    <AccountStep
      value={account}
      onChange={setAccount}
      serverErrors={taken}
      onContinue={() => {
        setTaken({});
        setStep("country");
      }}
      onSwitchToLogin={onSwitchToLogin}
    />
  ) : (
    <EmpireStep
      account={account}
      onBack={() => setStep("user-info")}
      onAccountTaken={(field, message) => {
        setTaken({ [field]: message });
        setStep("user-info");
      }}
    />
  );
}

function AccountStep({
  value,
  onChange,
  onContinue,
  onSwitchToLogin,
  serverErrors = {},
}: {
  value: AccountInfo;
  serverErrors?: Partial<Record<keyof AccountInfo, string>>;
  onChange(v: AccountInfo): void;
  onContinue(): void;
  onSwitchToLogin(): void;
}) {
  const [submitted, setSubmitted] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>(() => ({ ...serverErrors }));
  const [showPassword, setShowPassword] = useState(false);
  // the field the server refused: focused and scrolled into view (phones)
  useEffect(() => {
    const field = Object.keys(serverErrors)[0];
    if (!field) return;
    const el = document.getElementById(`reg-${field}`);
    el?.focus();
    el?.scrollIntoView?.({ block: "center" });
  }, [serverErrors]);

  const set = (field: keyof AccountInfo, v: string) => {
    const next = { ...value, [field]: v };
    onChange(next);
    if (submitted) setErrors(fieldErrors(registerAccountStepSchema, next));
    else
      setErrors((prev) => {
        const rest = { ...prev };
        delete rest[field];
        return rest;
      });
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    const found = fieldErrors(registerAccountStepSchema, value);
    setErrors(found);
    if (Object.keys(found).length === 0) onContinue();
  };

  const input = (field: keyof AccountInfo, label: string, type: string, autoComplete: string) => (
    <div className="field">
      <label htmlFor={`reg-${field}`}>{label}</label>
      <input
        id={`reg-${field}`}
        className="input"
        type={type === "password" && showPassword ? "text" : type}
        autoComplete={autoComplete}
        value={value[field]}
        aria-invalid={Boolean(errors[field])}
        aria-describedby={errors[field] ? `reg-${field}-error` : undefined}
        onChange={(e) => set(field, e.target.value)}
      />
      {errors[field] && (
        <span id={`reg-${field}-error`} className="field-error">
          {errors[field]}
        </span>
      )}
    </div>
  );

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Create Your Account">
      <h2>Create Your Account</h2>
      <p className="muted small">Step 1 of 3</p>
      {input("email", "Email", "email", "email")}
      {input("username", "Username", "text", "username")}
      {input("password", "Password", "password", "new-password")}
      {input("confirmPassword", "Confirm Password", "password", "new-password")}
      <label className="row small muted" style={{ marginBottom: "0.8rem" }}>
        <input type="checkbox" checked={showPassword} onChange={(e) => setShowPassword(e.target.checked)} /> Show passwords
      </label>
      <button type="submit" className="btn primary block">
        Continue to Empire Creation
      </button>
      <p className="center" style={{ marginTop: "0.9rem" }}>
        <button type="button" className="link-btn" onClick={onSwitchToLogin}>
          Already have an empire? Sign in
        </button>
      </p>
    </form>
  );
}

function EmpireStep({ account, onBack, onAccountTaken }: { account: AccountInfo; onBack(): void; onAccountTaken(field: keyof AccountInfo, message: string): void }) {
  const { register } = useAuth();
  const [countryName, setCountryName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [nameTaken, setNameTaken] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const monarchy = GOVERNMENTS.monarchy;
  const startingNetworth = useMemo(() => computeNetworth(startingCountry()), []);
  const nameProblem = useMemo(() => {
    const parsed = countryNameSchema.safeParse(countryName);
    return parsed.success ? null : (parsed.error.issues[0]?.message ?? null);
  }, [countryName]);
  const trimmed = countryName.trim();

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (nameProblem || busy) return;
    setBusy(true);
    setError(null);
    try {
      await register({ email: account.email.trim(), username: account.username.trim(), password: account.password, countryName: trimmed });
    } catch (err) {
      const message = err instanceof Error && err.message ? err.message : FALLBACK.register;
      const code = err instanceof ApiError ? err.code : null;
      setBusy(false);
      if (code === "auth/email_taken") return onAccountTaken("email", message);
      if (code === "auth/username_taken") return onAccountTaken("username", message);
      if (code === "country/name_taken") {
        setNameTaken(message);
        const el = document.getElementById("country-name");
        el?.focus();
        el?.scrollIntoView?.({ block: "center" });
        return;
      }
      setError(message);
    }
  };

  const r = REGISTRATION_STARTING_RESOURCES;
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Create Your Empire">
      <h2>Create Your Empire</h2>
      <p className="muted small">Step 2 of 3</p>
      {error && (
        <div className="alert error" role="alert" data-testid="form-error">
          {error}
        </div>
      )}
      <div className="field">
        <label htmlFor="country-name">Country Name</label>
        <input
          id="country-name"
          className="input"
          value={countryName}
          maxLength={COUNTRY_NAME_MAX}
          autoComplete="off"
          aria-describedby="country-name-hint"
          aria-invalid={Boolean(nameTaken) || undefined}
          onChange={(e) => {
            setCountryName(e.target.value);
            setNameTaken(null);
          }}
        />
        <span id="country-name-hint" className="hint">
          Your country name must be unique, 3 to 50 characters.
        </span>
        {countryName.length > 0 && nameProblem && <span className="field-error">{nameProblem}</span>}
        {nameTaken && (
          <span className="field-error" role="alert" data-testid="country-name-taken">
            {nameTaken}
          </span>
        )}
      </div>

      <div className="panel" style={{ marginBottom: "0.85rem" }}>
        <h3>Government: {monarchy.name}</h3>
        <p className="small muted">{monarchy.description} Every new empire starts as a Monarchy.</p>
        <h4>Technology bonuses</h4>
        <div className="grid" style={{ gridTemplateColumns: "repeat(auto-fill, minmax(150px, 1fr))", gap: "0 1rem" }}>
          {Object.entries(monarchy.techBonuses).map(([tech, multiplier]) => (
            <div className="stat" key={tech}>
              <span className="k">{TECHNOLOGIES[tech as TechnologyId]?.name ?? titleCase(tech)}</span>
              <span className={`v ${multiplier > 1 ? "ok" : multiplier < 1 ? "bad" : ""}`}>x{multiplier}</span>
            </div>
          ))}
        </div>
      </div>

      <div className="panel" style={{ marginBottom: "0.85rem" }}>
        <h3>Starting resources</h3>
        <div className="grid" style={{ gridTemplateColumns: "repeat(auto-fill, minmax(150px, 1fr))", gap: "0 1rem" }}>
          <div className="stat">
            <span className="k">Cash</span>
            <span className="v">{money(r.cash)}</span>
          </div>
          <div className="stat">
            <span className="k">Food</span>
            <span className="v">{fmt(r.food)} bushels</span>
          </div>
          <div className="stat">
            <span className="k">Oil</span>
            <span className="v">{fmt(r.oil)} barrels</span>
          </div>
          <div className="stat">
            <span className="k">Land</span>
            <span className="v">{fmt(r.land)} acres</span>
          </div>
          <div className="stat">
            <span className="k">Population</span>
            <span className="v">{fmt(r.population)}</span>
          </div>
          <div className="stat">
            <span className="k">Troops</span>
            <span className="v">{fmt(r.troops)}</span>
          </div>
          <div className="stat">
            <span className="k">Jets</span>
            <span className="v">{fmt(r.jets)}</span>
          </div>
          <div className="stat">
            <span className="k">Turrets</span>
            <span className="v">{fmt(r.turrets)}</span>
          </div>
          <div className="stat">
            <span className="k">Tanks</span>
            <span className="v">{fmt(r.tanks)}</span>
          </div>
          <div className="stat">
            <span className="k">Spies</span>
            <span className="v">{fmt(r.spies)}</span>
          </div>
          <div className="stat">
            <span className="k">Turns</span>
            <span className="v">{fmt(r.turns)}</span>
          </div>
        </div>
        <div className="stat" style={{ marginTop: "0.4rem" }}>
          <span className="k">Starting networth</span>
          <span className="v" data-testid="starting-networth">
            {fmt(startingNetworth)}
          </span>
        </div>
      </div>

      <div className="row between">
        <button type="button" className="btn" onClick={onBack} disabled={busy}>
          Back to Account Info
        </button>
        <ActionButton type="submit" disabledReason={nameProblem} busy={busy} busyLabel="Creating Empire...">
          Create Empire: {trimmed}
        </ActionButton>
      </div>
    </form>
  );
}
