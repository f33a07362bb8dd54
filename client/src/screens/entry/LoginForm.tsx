import { useState, type FormEvent } from "react";
import { useAuth } from "../../auth/AuthContext";
import { FALLBACK } from "../../api/auth";
import { fieldErrors } from "./validation";
import { loadLoginSchema } from "./loginValidation";

export function LoginForm({ onSwitchToRegister }: { onSwitchToRegister(): void }) {
  const { login, signedOutNotice } = useAuth();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [showPassword, setShowPassword] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [debug, setDebug] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);

  // validation runs on submit, and again on every change after the first submit (spec)
  const revalidate = (next: { email: string; password: string }) => {
    if (submitted) void loadLoginSchema().then((schema) => setErrors(fieldErrors(schema, next)));
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    const found = fieldErrors(await loadLoginSchema(), { email, password });
    setErrors(found);
    if (Object.keys(found).length) return;
    setBusy(true);
    setError(null);
    const started = Date.now();
    try {
      await login(email.trim(), password);
    } catch (err) {
      const message = err instanceof Error && err.message ? err.message : FALLBACK.login;
      setError(message);
      setDebug((d) => [...d, `${new Date().toLocaleTimeString()} POST /api/auth/login failed after ${Date.now() - started} ms: ${message}`].slice(-20));
      setBusy(false);
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label="Login" onFocus={() => void loadLoginSchema()}>
      {signedOutNotice && !error && (
        <div className="alert" role="status" data-testid="signed-out-notice">
          {signedOutNotice}
        </div>
      )}
      {error && (
        <div className="alert error" role="alert" data-testid="form-error">
          {error}
        </div>
      )}
      <div className="field">
        <label htmlFor="login-email">Email</label>
        <input
          id="login-email"
          className="input"
          type="email"
          autoComplete="email"
          value={email}
          aria-invalid={Boolean(errors.email)}
          aria-describedby={errors.email ? "login-email-error" : undefined}
          onChange={(e) => {
            setEmail(e.target.value);
            revalidate({ email: e.target.value, password });
          }}
        />
        {errors.email && (
          <span id="login-email-error" className="field-error">
            {errors.email}
          </span>
        )}
      </div>
      <div className="field">
        <label htmlFor="login-password">Password</label>
        <div className="input-wrap">
          <input
            id="login-password"
            className="input"
            type={showPassword ? "text" : "password"}
            autoComplete="current-password"
            value={password}
            aria-invalid={Boolean(errors.password)}
            aria-describedby={errors.password ? "login-password-error" : undefined}
            onChange={(e) => {
              setPassword(e.target.value);
              revalidate({ email, password: e.target.value });
            }}
          />
          <button type="button" className="btn small ghost reveal" aria-pressed={showPassword} aria-label={showPassword ? "Hide password" : "Show password"} onClick={() => setShowPassword((s) => !s)}>
            {showPassword ? "Hide" : "Show"}
          </button>
        </div>
        {errors.password && (
          <span id="login-password-error" className="field-error">
            {errors.password}
          </span>
        )}
      </div>
      <button type="submit" className="btn primary block" disabled={busy}>
        {busy ? "Signing In..." : "Sign In"}
      </button>
      <p className="center" style={{ marginTop: "0.9rem" }}>
        <button type="button" className="link-btn" onClick={onSwitchToRegister}>
          Don't have an account? Create your empire
        </button>
      </p>
      {/* for support, folded away: request paths and timings mean nothing to a player (issue 30 #10) */}
      {debug.length > 0 && (
        <details className="debug-details" data-testid="login-debug">
          <summary className="small muted">Technical details for support</summary>
          <pre className="debug-log">{debug.join("\n")}</pre>
        </details>
      )}
    </form>
  );
}
