import { lazy, Suspense, useState } from "react";
import { LoginForm } from "./LoginForm";

/** Registration (its rules, validators and previews) loads when the Register tab is opened. */
const RegisterFlow = lazy(() => import("./RegisterFlow").then((m) => ({ default: m.RegisterFlow })));

export const PRODUCT_TITLE = "Nation Command";
export const TAGLINE = "Explore. Expand. Exploit. Exterminate. Forge your empire in a live world of rival nations.";

/** The unauthenticated entry: title, tagline and the Login / Register toggle (starts on Login). */
export function EntryScreen() {
  const [mode, setMode] = useState<"login" | "register">("login");
  return (
    <div className="screen-center">
      <div className="card" style={{ maxWidth: mode === "register" ? 640 : 460 }}>
        <div className="brand">
          <h1>{PRODUCT_TITLE}</h1>
          <p className="tagline">{TAGLINE}</p>
        </div>
        <div className="toggle" role="group" aria-label="Login or register">
          <button type="button" className="btn" aria-pressed={mode === "login"} onClick={() => setMode("login")}>
            Login
          </button>
          <button type="button" className="btn" aria-pressed={mode === "register"} onClick={() => setMode("register")}>
            Register
          </button>
        </div>
        <div className="panel">
          <h2 className="center" style={{ borderBottom: "1px solid var(--border)", paddingBottom: "0.5rem", marginBottom: "1rem" }}>
            {mode === "login" ? "Correct Login to Your Empire" : "Create New Empire"}
          </h2>
          {mode === "login" ? (
            <LoginForm onSwitchToRegister={() => setMode("register")} />
          ) : (
            <Suspense fallback={<p className="muted center">Loading...</p>}>
              <RegisterFlow onSwitchToLogin={() => setMode("login")} />
            </Suspense>
          )}
        </div>
      </div>
    </div>
  );
}
