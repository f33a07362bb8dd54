/**
 * How a call's URL is made from its catalogue entry, without the catalogue: the browser's HTTP
 * client imports only this, so the sign-in form does not load every call's zod schemas
 * (`@game/schema/routes/url`; the catalogue re-exports both).
 */

/** What of an entry these functions read. */
export interface RouteShape {
  method: string;
  path: string;
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

/** The request parts of a caller's input, whichever form it took. */
export function routeParts(entry: RouteShape, input: unknown): { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown } {
  if (entry.params || entry.query) return (input ?? {}) as { params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown };
  if (entry.body) return { body: input };
  return {};
}

/** The path with its parameters filled in ("/country/:id" with { id: 3 } is "/country/3"), and the query string. */
export function routeUrl(entry: RouteShape, parts: { params?: Record<string, unknown>; query?: Record<string, unknown> }): string {
  const path = entry.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = parts.params?.[name];
    if (value === undefined || value === null) throw new Error(`${entry.method} ${entry.path}: parameter ${name} missing`);
    return encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(parts.query ?? {})) {
    if (value === undefined || value === null || value === "") continue;
    query.set(name, String(value));
  }
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}
