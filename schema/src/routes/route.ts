import { z } from "zod";
import { API_ERROR_CODES } from "../api/common.js";

/**
 * One REST call of the game, described once: the server registers its handler from it, the
 * client and the load tester call it by it, and the OpenAPI document is generated from it.
 * A path is written here and nowhere else (docs/api.md, docs/architecture.md "One request").
 */
export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * Who may call: anybody (none), a signed-in player (user: the pipeline verifies the bearer
 * token before it reads the query or body), or an administrator (admin: a user whose role the
 * handler checks).
 */
export type RouteAuth = "none" | "user" | "admin";

/** What a route answers besides the JSON envelope: a download (CSV, the account export) or text. */
export type RouteContentType = "application/json" | "text/csv" | "text/plain" | "text/html";

export interface RouteEntry<
  M extends HttpMethod = HttpMethod,
  Path extends string = string,
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType = z.ZodType,
> {
  readonly method: M;
  /** under /api, parameters as `:name` ("/country/:id") */
  readonly path: Path;
  /** one line for the reference page */
  readonly summary: string;
  /** the domain the reference page groups it under */
  readonly tag: string;
  /** the spec's failure message of the call: the 500 answer and the client's fallback */
  readonly fallback: string;
  readonly auth: RouteAuth;
  readonly params: P;
  readonly query: Q;
  readonly body: B;
  /** the success answer, envelope included (`success: true`) */
  readonly response: R;
  /** status of a success (201 for a creation) */
  readonly status: 200 | 201;
  /** the refusal codes (ApiFailure.code) it can answer, besides the request and token ones every route shares */
  readonly refusals: readonly string[];
  /** on the action path: a player sends it most, its CPU per request is measured (docs/performance.md) */
  readonly hot: boolean;
  /** what a success answers, when not JSON */
  readonly contentType: RouteContentType;
}

/** Any catalogue entry. */
export type AnyRoute = RouteEntry<HttpMethod, string, z.ZodType | undefined, z.ZodType | undefined, z.ZodType | undefined, z.ZodType>;

type RouteDefinition<M extends HttpMethod, Path extends string, P, Q, B, R> = {
  method: M;
  path: Path;
  summary: string;
  tag: string;
  fallback: string;
  auth: RouteAuth;
  params?: P;
  query?: Q;
  body?: B;
  response: R;
  status?: 200 | 201;
  refusals?: readonly string[];
  hot?: boolean;
  contentType?: RouteContentType;
};

/** A catalogue entry; what is left out is absent (no parameters, no body, 200, not hot, JSON). */
export function defineRoute<const M extends HttpMethod, const Path extends string, R extends z.ZodType, P extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  definition: RouteDefinition<M, Path, P, Q, B, R>,
): RouteEntry<M, Path, P, Q, B, R> {
  return {
    method: definition.method,
    path: definition.path,
    summary: definition.summary,
    tag: definition.tag,
    fallback: definition.fallback,
    auth: definition.auth,
    params: definition.params as P,
    query: definition.query as Q,
    body: definition.body as B,
    response: definition.response,
    status: definition.status ?? 200,
    refusals: definition.refusals ?? [],
    hot: definition.hot ?? false,
    contentType: definition.contentType ?? "application/json",
  };
}

/** The refusal codes every route can answer: a request its schemas refuse, and for a signed-in route a bad token. */
export function sharedRefusals(entry: AnyRoute): string[] {
  const codes: string[] = [API_ERROR_CODES.server, "server/unavailable"];
  if (entry.params || entry.query || entry.body) codes.push(API_ERROR_CODES.invalidRequest);
  if (entry.body) codes.push(API_ERROR_CODES.malformedJson, API_ERROR_CODES.tooLarge, API_ERROR_CODES.unsupportedMediaType);
  if (entry.auth !== "none") codes.push(API_ERROR_CODES.invalidToken);
  return codes;
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type In<S> = S extends z.ZodType ? z.input<S> : undefined;

/** The parsed parameters, query and body a handler gets. */
export type RouteParams<E extends AnyRoute> = Out<E["params"]>;
export type RouteQuery<E extends AnyRoute> = Out<E["query"]>;
export type RouteBody<E extends AnyRoute> = Out<E["body"]>;
/** A query as a caller writes it (every field may be left to its default). */
export type RouteQueryInput<E extends AnyRoute> = Partial<In<E["query"]>>;
/** The whole success answer (`{ success: true, ... }`). */
export type RouteAnswer<E extends AnyRoute> = z.output<E["response"]>;
/** What a handler returns: the answer without its envelope. */
export type RouteResult<E extends AnyRoute> = WithoutEnvelope<z.input<E["response"]>>;
type WithoutEnvelope<T> = T extends unknown ? Omit<T, "success"> : never;

/**
 * What a caller sends: for a route with only a body, the body itself; with parameters or a
 * query, `{ params, query, body }`; with nothing, nothing.
 */
export type RouteInput<E extends AnyRoute> = E["params"] extends z.ZodType ? RouteParts<E> : E["query"] extends z.ZodType ? RouteParts<E> : E["body"] extends z.ZodType ? In<E["body"]> : void;

type RouteParts<E extends AnyRoute> = (E["params"] extends z.ZodType ? { params: In<E["params"]> } : { params?: undefined }) &
  (E["query"] extends z.ZodType ? { query?: Partial<In<E["query"]>> } : { query?: undefined }) &
  (E["body"] extends z.ZodType ? { body: In<E["body"]> } : { body?: undefined });

import { routeParts, routeUrl } from "./url.js";

export { routeParts, routeUrl };

/** An answer of `fields` with the envelope: `{ success: true, ...fields }`. */
export function envelope<S extends z.ZodRawShape>(fields: S) {
  return z.object({ success: z.literal(true), ...fields });
}

/** The answer of an object schema of `schema/src/api` with the envelope: `{ success: true, ...schema's fields }`. */
export function answer<S extends z.ZodRawShape>(schema: z.ZodObject<S>) {
  return envelope(schema.shape);
}

/** The envelope around a schema that is not one object (a union of answers): `{ success: true } & schema`. */
export function answerOneOf<S extends z.ZodType>(schema: S) {
  return z.intersection(z.object({ success: z.literal(true) }), schema);
}

/** `{ success: true, data }`: the answer of a read model whose fields are under `data`. */
export function dataAnswer<S extends z.ZodType>(data: S) {
  return envelope({ data });
}

/** A download (CSV, JSON file): not an envelope. */
export const downloadAnswer = z.string();

/** The entry's pattern as the server's request metrics label it ("/api/country/:id"). */
export function apiPattern(entry: AnyRoute): string {
  return `/api${entry.path}`;
}

/** The URL of a call under the server's origin ("/api/country/3"). */
export function apiUrl(entry: AnyRoute, parts: { params?: Record<string, unknown>; query?: Record<string, unknown> } = {}): string {
  return `/api${routeUrl(entry, parts)}`;
}
