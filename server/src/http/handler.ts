import type { IncomingHttpHeaders } from "node:http";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { z } from "zod";
import type { AnyRoute, RouteBody, RouteParams, RouteQuery } from "@game/schema/routes";
import { firstIssueMessage } from "@game/schema/api";
import { AppError, badRequest, forbidden, unauthorized } from "../errors.js";
import { bearerToken, InvalidTokenError, type TokenClaims } from "../auth/tokens.js";
import type { ServiceContext } from "../services/context.js";
import type { CountryRow } from "../db/countries.js";
import { countryById } from "../services/countries.js";

/** Marks a thrown error with the route's fallback message for the 500 answer. */
export class RouteFailure extends Error {
  constructor(
    readonly fallback: string,
    readonly cause: unknown,
  ) {
    super(fallback);
  }
}

/**
 * What a handler gets of its request (pipeline.ts): the headers, the caller's address, the
 * path's parameters, query and JSON body parsed with its catalogue entry's schemas, the
 * verified token when the entry asks for a signed-in caller, and the answer's status and
 * headers to change (a creation that is sometimes not one, a download's file name).
 */
export interface ApiCall<E extends AnyRoute = AnyRoute> {
  readonly headers: IncomingHttpHeaders;
  readonly ip: string;
  readonly params: RouteParams<E>;
  readonly query: RouteQuery<E>;
  readonly body: RouteBody<E>;
  /** the verified token (entries with auth "user" or "admin"); authenticate() reads it from here */
  readonly claims?: TokenClaims;
  setStatus(status: number): void;
  setHeader(name: string, value: string): void;
}

/** A route's failure as the error handler takes it: rule refusals as they are, anything else marked with the fallback. */
export function routeError(fallback: string, err: unknown): unknown {
  return err instanceof AppError || err instanceof InvalidTokenError ? err : new RouteFailure(fallback, err);
}

/**
 * Wraps an async route: its returned object is sent as `{ success: true, ...result }`; an
 * AppError becomes its status and message; anything else is a 500 with `fallback` (the spec's
 * fallback message for that call).
 */
export function route(fallback: string, handler: (req: Request, res: Response) => Promise<object | void>): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    handler(req, res).then(
      (result) => {
        if (res.headersSent) return;
        res.json({ success: true, ...(result ?? {}) });
      },
      (err) => next(routeError(fallback, err)),
    );
  };
}

/** Parses `value` with a zod schema or throws 400 with the first issue's message. */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw badRequest(firstIssueMessage(result.error));
  return result.data;
}

/** The verified token of the request, or 401. Any 401 means missing, bad, expired or revoked. */
export async function authenticate(ctx: ServiceContext, req: Pick<ApiCall, "headers" | "claims">): Promise<TokenClaims> {
  if (req.claims) return req.claims;
  try {
    return await ctx.tokens.verify(bearerToken(req.headers.authorization));
  } catch (err) {
    if (err instanceof InvalidTokenError) throw unauthorized(err.message, "auth/invalid_token");
    throw err;
  }
}

/**
 * Authenticates and checks that `countryId` (from the path or the body) is the caller's own
 * country: 403 otherwise, before anything is read or changed. The caller's country comes with
 * the verified token (no query); actions check ownership again under the row lock.
 */
export async function authorizeCountryId(ctx: ServiceContext, req: Pick<ApiCall, "headers" | "claims">, countryId: number): Promise<TokenClaims> {
  const claims = await authenticate(ctx, req);
  if (claims.countryId !== countryId) throw forbidden();
  return claims;
}

/** authorizeCountryId, then the country's row (read models computed from it). */
export async function authorizeCountry(ctx: ServiceContext, req: Pick<ApiCall, "headers" | "claims">, countryId: number): Promise<{ claims: TokenClaims; country: CountryRow }> {
  const claims = await authorizeCountryId(ctx, req, countryId);
  const country = await countryById(ctx, countryId);
  if (!country || country.user_id !== claims.userId) throw forbidden();
  return { claims, country };
}

/**
 * The caller's token with its country (for actions without a country id in the path or body),
 * or 404 if they have none: no query, the action checks ownership under the row lock.
 */
export async function ownCountryClaims(ctx: ServiceContext, req: Pick<ApiCall, "headers" | "claims">): Promise<TokenClaims & { countryId: number }> {
  const claims = await authenticate(ctx, req);
  if (claims.countryId === null) throw new AppError(404, "You have no country", "country/none");
  return claims as TokenClaims & { countryId: number };
}

/** The caller's own country (for routes without a country id), or 404 if they have none. */
export async function ownCountry(ctx: ServiceContext, req: Pick<ApiCall, "headers" | "claims">): Promise<{ claims: TokenClaims; country: CountryRow }> {
  const claims = await authenticate(ctx, req);
  const country = claims.countryId === null ? undefined : await countryById(ctx, claims.countryId);
  if (!country || country.user_id !== claims.userId) throw new AppError(404, "You have no country", "country/none");
  return { claims, country };
}
