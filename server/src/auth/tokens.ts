import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { SignJWT, jwtVerify, errors as joseErrors } from "jose";
import type { Config } from "../config.js";
import type { Db } from "../db/pool.js";
import { isTokenRevoked, revokeToken } from "../db/users.js";

export const TOKEN_ISSUER = "nation-game";
export const TOKEN_AUDIENCE = "nation-game-client";
const ALGORITHM = "HS256";

/** What a verified access token says. */
export interface TokenClaims {
  userId: number;
  jti: string;
  expiresAt: Date;
}

/** Raised for any token that must answer 401: missing, malformed, tampered, expired, revoked. */
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

/** Issues, verifies and revokes access tokens. One instance per process. */
export class TokenService {
  constructor(
    private readonly secret: Uint8Array,
    private readonly db: Db,
    private readonly ttlSeconds: number,
  ) {}

  async issue(userId: number): Promise<string> {
    return new SignJWT({})
      .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
      .setSubject(String(userId))
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setJti(crypto.randomUUID())
      .setIssuedAt()
      .setExpirationTime(`${this.ttlSeconds}s`)
      .sign(this.secret);
  }

  /** Verifies signature (HS256 only), issuer, audience, expiry, subject and revocation. */
  async verify(token: string | undefined): Promise<TokenClaims> {
    if (!token) throw new InvalidTokenError("Authentication required");
    let payload;
    try {
      ({ payload } = await jwtVerify(token, this.secret, {
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
    if (!Number.isSafeInteger(userId) || userId <= 0 || typeof payload.jti !== "string") {
      throw new InvalidTokenError("Invalid token");
    }
    if (await isTokenRevoked(this.db, payload.jti)) throw new InvalidTokenError("Token revoked");
    return { userId, jti: payload.jti, expiresAt: new Date(payload.exp! * 1000) };
  }

  async revoke(claims: TokenClaims): Promise<void> {
    await revokeToken(this.db, claims.jti, claims.expiresAt);
  }
}

/** The bearer token of an Authorization header, if any. */
export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match?.[1];
}
