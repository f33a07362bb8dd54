import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { SignJWT, jwtVerify, errors as joseErrors } from "jose";
import type { Config } from "../config.js";
import type { Db } from "../db/pool.js";
import type { Logger } from "../logger.js";
import type { GameMetrics } from "../metrics.js";
import type { RedisFailureSink } from "../services/context.js";
import { revokeToken } from "../db/users.js";

export const TOKEN_ISSUER = "nation-game";
export const TOKEN_AUDIENCE = "nation-game-client";
const ALGORITHM = "HS256";

/** What a verified access token says. */
export interface TokenClaims {
  userId: number;
  jti: string;
  expiresAt: Date;
  /** the user's country when the token was checked against the database; null without one */
  countryId: number | null;
}

/** Raised for any token that must answer 401: missing, malformed, tampered, expired, revoked, unknown user. */
export class InvalidTokenError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = "InvalidTokenError";
  }
}

/**
 * Reads JWT_SECRET, or generates a secret once and keeps it under DATA_DIR so tokens stay
 * valid across restarts of the embedded default.
 */
export function resolveJwtSecret(config: Config): Uint8Array {
  if (config.jwtSecret) return new TextEncoder().encode(config.jwtSecret);
  const file = path.join(config.dataDir, "jwt-secret");
  if (!fs.existsSync(file)) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    fs.writeFileSync(file, crypto.randomBytes(48).toString("base64url"), { mode: 0o600, flag: "wx" });
  }
  return new TextEncoder().encode(fs.readFileSync(file, "utf8").trim());
}

/**
 * How long a verified token's database answer (user exists, not revoked, country id) is
 * reused without asking again, milliseconds. The bound on how stale a process can be when a
 * revocation event does not reach it: a revoked token is refused everywhere within this.
 */
export const TOKEN_CACHE_MS = 1_000;
/**
 * How often each process reads the authentication epoch (migration 019), ms: a verdict older
 * than TOKEN_CACHE_MS is still used while the epoch it was read under is the one a read sent
 * less than TOKEN_CACHE_MS ago found, since no revocation has committed anywhere since.
 */
export const AUTH_EPOCH_POLL_MS = 250;
/** A verdict is asked again after this long whatever the epoch says, ms. */
export const TOKEN_VERDICT_MAX_AGE_MS = 60_000;
/** Most verified tokens remembered per process (oldest forgotten first). */
export const TOKEN_CACHE_MAX = 20_000;
/**
 * Presence topic of revocation events: `{ jti }` (one token) or `{ userId, exceptJti? }`
 * (every token of a user but the one named).
 */
const REVOKED_TOPIC = "auth:revoked";

/** A revocation as published to every process. */
export type Revocation = { jti: string } | { userId: number; exceptJti?: string };

/** Heard for every revocation, from this process or another (the room sessions close theirs). */
export type RevocationListener = (revocation: Revocation) => void;

/** The publish/subscribe half of Colyseus presence (local in one process, Redis across processes). */
export interface RevocationChannel {
  publish(topic: string, data: unknown): unknown;
  subscribe(topic: string, callback: (data: Revocation) => void): unknown;
}

/** What the token's signature vouches for (checked once per token text). */
interface SignedClaims {
  userId: number;
  jti: string;
  expiresAt: Date;
  issuedAtMs: number;
}

interface CachedVerdict {
  /** Date.now() when Postgres was asked */
  checkedAt: number;
  /** the authentication epoch known when Postgres was asked (undefined: none known yet) */
  epoch: string | undefined;
  claims?: TokenClaims;
  /** why the token is refused (revoked, no such user) */
  refusal?: string;
  /**
   * the signature's claims: a stale entry asks Postgres again, but the same text needs no
   * second signature check (its expiry is still checked)
   */
  signed: SignedClaims;
}

/**
 * Issues, verifies and revokes access tokens. One instance per process.
 *
 * The fast path: an authenticated request repeats the same token many times a second. The
 * signature check (jose, HS256 with a CryptoKey imported once) runs on the first sight of a
 * token; one indexed query then answers whether the user still exists, whether the token was
 * revoked and which country the user has. That verdict is kept under the token's exact text,
 * so a repeat costs one Map lookup: for TOKEN_CACHE_MS, and beyond that for as long as the
 * authentication epoch (a counter every committed revocation moves, migration 019, read every
 * AUTH_EPOCH_POLL_MS) has not moved since the verdict was read. Revoking a token deletes it
 * from this process's cache and publishes a revocation event that every other process applies
 * at once; if an event is lost, the epoch or the entry's age still refuses the token within
 * TOKEN_CACHE_MS. docs/architecture.md ("Requests") has the picture; docs/performance.md the
 * measurements.
 */
export class TokenService {
  private readonly key: Promise<CryptoKey>;
  private readonly verdicts = new Map<string, CachedVerdict>();
  /** jti -> token text, to find a revoked token's cache entry */
  private readonly tokensByJti = new Map<string, string>();
  /**
   * Bumped by every revocation seen: a verdict read from Postgres before a revocation arrived
   * may predate it, so it is answered but not kept.
   */
  private generation = 0;
  /** checks in flight, by token text */
  private readonly checking = new Map<string, Promise<TokenClaims>>();
  /** the authentication epoch as last read, and when that read was sent (Date.now()) */
  private epoch: string | undefined;
  private epochAskedAt = Number.NEGATIVE_INFINITY;
  private epochPoller: NodeJS.Timeout | undefined;
  private epochReadFailing = false;
  private stopped = false;

  private readonly channel: RevocationChannel | undefined;
  private readonly logger: Logger | undefined;
  private readonly metrics: Pick<GameMetrics, "authTokenLookups"> | undefined;
  private readonly outage: RedisFailureSink | undefined;
  private readonly revocationListeners = new Set<RevocationListener>();
  private readonly revokedTopic: string;

  /**
   * @param options.channel where revocations are published and heard (the process's Colyseus
   *   presence); without one, revocations reach other processes only through cache expiry
   * @param options.revokedTopic the channel name on it, this world's (worldChannel); @default "auth:revoked"
   * @param options.logger reports a failed subscription (revocations then rely on expiry)
   * @param options.metrics counts the verdicts asked of Postgres
   * @param options.outage notes a Redis that stopped answering (one log line per outage, not per logout)
   */
  constructor(
    secret: Uint8Array,
    private readonly db: Db,
    private readonly ttlSeconds: number,
    options: { channel?: RevocationChannel; revokedTopic?: string; logger?: Logger; metrics?: Pick<GameMetrics, "authTokenLookups">; outage?: RedisFailureSink } = {},
  ) {
    // jose with a raw secret imports it as a key on every call (~150 us); import it once.
    this.key = crypto.webcrypto.subtle.importKey("raw", secret as Uint8Array<ArrayBuffer>, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
    this.channel = options.channel;
    this.logger = options.logger;
    this.metrics = options.metrics;
    this.outage = options.outage;
    this.revokedTopic = options.revokedTopic ?? REVOKED_TOPIC;
    Promise.resolve(this.channel?.subscribe(this.revokedTopic, (revocation: Revocation) => this.forget(revocation))).catch((err) =>
      options.logger?.error({ err }, "revocation events unavailable: revoked tokens are refused elsewhere only when cached verdicts expire"),
    );
  }

  /**
   * Whether a cached verdict can answer at `now`: younger than TOKEN_CACHE_MS, or read under the
   * epoch that a read sent less than TOKEN_CACHE_MS ago still found (and younger than
   * TOKEN_VERDICT_MAX_AGE_MS). A revocation committed at t moves the epoch, so from the first
   * epoch read sent after t every older verdict is asked again; if reads fail, verdicts fall back
   * to TOKEN_CACHE_MS alone. Either way a revoked token is refused within TOKEN_CACHE_MS.
   */
  private usable(verdict: CachedVerdict, now: number): boolean {
    if (now - verdict.checkedAt < TOKEN_CACHE_MS) return true;
    if (now - verdict.checkedAt >= TOKEN_VERDICT_MAX_AGE_MS) return false;
    return verdict.epoch !== undefined && verdict.epoch === this.epoch && Date.now() - this.epochAskedAt < TOKEN_CACHE_MS;
  }

  /** Starts reading the authentication epoch every AUTH_EPOCH_POLL_MS (from the first verify). */
  private pollEpoch(): void {
    if (this.epochPoller || this.stopped) return;
    const read = async () => {
      const askedAt = Date.now();
      try {
        const { rows } = await this.db.query<{ epoch: string }>({ name: "auth_epoch", text: "SELECT epoch::text AS epoch FROM auth_epoch" });
        this.epoch = rows[0]?.epoch;
        this.epochAskedAt = askedAt;
        this.epochReadFailing = false;
      } catch (err) {
        if (!this.epochReadFailing) this.logger?.warn({ err }, "authentication epoch unreadable: token verdicts are asked of Postgres every second until it is");
        this.epochReadFailing = true;
      }
    };
    let reading = false;
    this.epochPoller = setInterval(() => {
      if (reading) return;
      reading = true;
      void read().finally(() => (reading = false));
    }, AUTH_EPOCH_POLL_MS);
    this.epochPoller.unref();
  }

  /** Stops reading the epoch (the server closes its pool next). */
  stop(): void {
    this.stopped = true;
    clearInterval(this.epochPoller);
    this.epochPoller = undefined;
  }

  async issue(userId: number): Promise<string> {
    // iat is in seconds; the millisecond issue time orders a token against revokeUserTokens.
    return new SignJWT({ iat_ms: Date.now() })
      .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
      .setSubject(String(userId))
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setJti(crypto.randomUUID())
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(await this.key);
  }

  /**
   * Verifies signature (HS256 only), issuer, audience, expiry and subject, then that the user
   * still exists and the token is not revoked; answers the claims with the user's country.
   */
  async verify(token: string | undefined, now = Date.now()): Promise<TokenClaims> {
    if (!token) throw new InvalidTokenError("Authentication required");
    this.pollEpoch();
    const cached = this.verdicts.get(token);
    if (cached && this.usable(cached, now)) {
      if (cached.refusal) throw new InvalidTokenError(cached.refusal);
      if (cached.claims!.expiresAt.getTime() <= now) throw new InvalidTokenError("Token expired");
      return cached.claims!;
    }
    // Concurrent first uses of one token share one check.
    let checking = this.checking.get(token);
    if (!checking) {
      checking = this.check(token, cached?.signed, now).finally(() => this.checking.delete(token));
      this.checking.set(token, checking);
    }
    return checking;
  }

  /**
   * Signature (unless this text's was checked before: `signed`), then one query: the user
   * exists, the token is not revoked, the user's country.
   */
  private async check(token: string, signed: SignedClaims | undefined, now: number): Promise<TokenClaims> {
    if (signed && signed.expiresAt.getTime() <= now) throw new InvalidTokenError("Token expired");
    signed ??= await this.verifySignature(token);
    const { userId, jti, expiresAt, issuedAtMs } = signed;
    const generation = this.generation;
    const epoch = this.epoch;
    const askedAt = Date.now();
    this.metrics?.authTokenLookups.inc();
    const { rows } = await this.db.query<{ country_id: number | null; revoked: boolean; valid_after: Date | null; kept_jti: string | null; suspended: boolean }>({
      // named: pg prepares it once per connection
      name: "token_verdict",
      text: `SELECT c.id AS country_id, EXISTS (SELECT 1 FROM revoked_tokens WHERE jti = $2) AS revoked,
              u.tokens_valid_after AS valid_after, u.tokens_kept_jti AS kept_jti, u.suspended_at IS NOT NULL AS suspended
         FROM users u LEFT JOIN countries c ON c.user_id = u.id
        WHERE u.id = $1`,
      values: [userId, jti],
    });
    const row = rows[0];
    const revokedWithUser = row?.valid_after != null && issuedAtMs <= row.valid_after.getTime() && row.kept_jti !== jti;
    const refusal = !row ? "Account no longer exists" : row.revoked || revokedWithUser ? "Token revoked" : row.suspended ? "Account suspended" : undefined;
    const claims = refusal ? undefined : { userId, jti, expiresAt, countryId: row!.country_id };
    if (generation === this.generation) this.remember(token, jti, { checkedAt: askedAt, epoch, claims, refusal, signed });
    if (refusal) throw new InvalidTokenError(refusal);
    return claims!;
  }

  /** Revokes one token here and, through the revocation channel, in every process. */
  async revoke(claims: Pick<TokenClaims, "jti" | "expiresAt">): Promise<void> {
    await revokeToken(this.db, claims.jti, claims.expiresAt);
    this.forget({ jti: claims.jti });
    await this.announce({ jti: claims.jti });
  }

  /**
   * Revokes every token of a user issued until now except `exceptJti` (a password change keeps
   * the session that made it), here and in every process: their cached verdicts go, their room
   * sessions close (rooms/sessions.ts listens), and Postgres refuses them from now on.
   */
  async revokeUserTokens(userId: number, options: { exceptJti?: string } = {}, db: Db = this.db): Promise<void> {
    await db.query("UPDATE users SET tokens_valid_after = $2, tokens_kept_jti = $3 WHERE id = $1", [userId, new Date(), options.exceptJti ?? null]);
    const revocation: Revocation = options.exceptJti ? { userId, exceptJti: options.exceptJti } : { userId };
    if (db === this.db) await this.announceRevocation(revocation);
  }

  /**
   * Applies and publishes a user-wide revocation whose database write was committed by the
   * caller's transaction (revokeUserTokens with a transaction client, account deletion).
   */
  async announceRevocation(revocation: Revocation): Promise<void> {
    this.forget(revocation);
    await this.announce(revocation);
  }

  /**
   * Drops every cached verdict of a user here and in every process (account deletion): the
   * next request asks Postgres; the user's room sessions close.
   */
  async forgetUser(userId: number): Promise<void> {
    this.forget({ userId });
    await this.announce({ userId });
  }

  /** Hears every revocation applied in this process (local or announced by another). */
  onRevocation(listener: RevocationListener): () => void {
    this.revocationListeners.add(listener);
    return () => this.revocationListeners.delete(listener);
  }

  /** Publishes a revocation; if that fails the revocation stands and expiry bounds the rest. */
  private async announce(revocation: Revocation): Promise<void> {
    try {
      await this.channel?.publish(this.revokedTopic, revocation);
    } catch (err) {
      if (this.outage?.noteFailure(err, "revocation publish")) return;
      this.logger?.warn({ err }, "revocation event not published: other processes refuse the token when their cached verdict expires");
    }
  }

  private async verifySignature(token: string): Promise<SignedClaims> {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, await this.key, {
        algorithms: [ALGORITHM],
        issuer: TOKEN_ISSUER,
        audience: TOKEN_AUDIENCE,
        requiredClaims: ["exp", "jti", "sub", "iat"],
      }));
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw new InvalidTokenError("Token expired");
      throw new InvalidTokenError("Invalid token");
    }
    const userId = Number(payload.sub);
    if (!Number.isSafeInteger(userId) || userId <= 0 || String(userId) !== payload.sub || typeof payload.jti !== "string") {
      throw new InvalidTokenError("Invalid token");
    }
    const issuedAtMs = typeof payload.iat_ms === "number" && Number.isFinite(payload.iat_ms) ? payload.iat_ms : payload.iat! * 1000;
    return { userId, jti: payload.jti, expiresAt: new Date(payload.exp! * 1000), issuedAtMs };
  }

  private remember(token: string, jti: string, verdict: CachedVerdict): void {
    // Re-inserting moves the entry to the end, so the Map's order is oldest-first.
    this.verdicts.delete(token);
    this.verdicts.set(token, verdict);
    this.tokensByJti.set(jti, token);
    while (this.verdicts.size > TOKEN_CACHE_MAX) {
      const [oldest, entry] = this.verdicts.entries().next().value as [string, CachedVerdict];
      this.verdicts.delete(oldest);
      if (entry.claims) this.tokensByJti.delete(entry.claims.jti);
    }
    if (this.tokensByJti.size > TOKEN_CACHE_MAX * 2) this.sweepJtiIndex();
  }

  private forget(revocation: Revocation): void {
    this.generation++;
    for (const listener of this.revocationListeners) {
      try {
        listener(revocation);
      } catch (err) {
        this.logger?.error({ err }, "revocation listener failed");
      }
    }
    if ("jti" in revocation) {
      const token = this.tokensByJti.get(revocation.jti);
      if (token !== undefined) this.verdicts.delete(token);
      this.tokensByJti.delete(revocation.jti);
      return;
    }
    for (const [token, verdict] of this.verdicts) {
      if (verdict.claims?.userId === revocation.userId && verdict.claims.jti !== revocation.exceptJti) {
        this.verdicts.delete(token);
        this.tokensByJti.delete(verdict.claims.jti);
      }
    }
  }

  /** Refused verdicts carry no jti to unindex by; drop index entries whose token is gone. */
  private sweepJtiIndex(): void {
    for (const [jti, token] of this.tokensByJti) if (!this.verdicts.has(token)) this.tokensByJti.delete(jti);
  }
}

/** The bearer token of an Authorization header, if any. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match?.[1];
}
