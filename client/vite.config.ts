import { defineConfig, type Plugin } from "vite";
import react from "@vitejs/plugin-react";
import { VitePWA } from "vite-plugin-pwa";

/**
 * The browser's REST catalogue without its zod schemas (issue 30, the overview's Lighthouse
 * score). The client calls every route through `@game/schema/routes` (callRoute reads an
 * entry's method, path, fallback message and whether it has parameters, a query or a body;
 * it never parses with the entry's schemas: the server does). Importing the real catalogue
 * built every domain's request, answer and room-message schemas when the game started, the
 * largest share of the overview's main-thread work. In the build, client modules that import
 * `@game/schema/routes` get this table instead: the same entries (and METRIC_RANKING_ROUTES),
 * generated from the built catalogue (schema/dist, built first by every npm script), with
 * `true` where an entry has a schema. Types still come from the real catalogue. Client unit
 * tests (vitest, no plugin) use the real catalogue; `client/e2e/firstLoad.e2e.ts` checks the
 * built game starts without the catalogue's chunk.
 */
const ROUTE_TABLE = "\0game-route-table";
function routeTable(): Plugin {
  return {
    name: "game-route-table",
    enforce: "pre",
    resolveId(source, importer) {
      if (source === "@game/schema/routes" && importer && /[\\/]client[\\/]src[\\/]/.test(importer)) return ROUTE_TABLE;
      return undefined;
    },
    async load(id) {
      if (id !== ROUTE_TABLE) return undefined;
      // a computed specifier: loaded by Node from schema/dist, not bundled into the config
      const specifier = ["@game", "schema", "routes"].join("/");
      const catalogue = (await import(specifier)) as { routes: Record<string, RouteLike>; METRIC_RANKING_ROUTES: Record<string, RouteLike> };
      const light = (entry: RouteLike) => ({
        method: entry.method,
        path: entry.path,
        fallback: entry.fallback,
        auth: entry.auth,
        status: entry.status,
        contentType: entry.contentType,
        ...(entry.params ? { params: true } : {}),
        ...(entry.query ? { query: true } : {}),
        ...(entry.body ? { body: true } : {}),
      });
      const table = (entries: Record<string, RouteLike>) => JSON.stringify(Object.fromEntries(Object.entries(entries).map(([name, entry]) => [name, light(entry)])));
      return [`export { routeParts, routeUrl } from "@game/schema/routes/url";`, `export const routes = ${table(catalogue.routes)};`, `export const METRIC_RANKING_ROUTES = ${table(catalogue.METRIC_RANKING_ROUTES)};`].join("\n");
    },
  };
}
interface RouteLike {
  method: string;
  path: string;
  fallback: string;
  auth: string;
  status: number;
  contentType: string;
  params?: unknown;
  query?: unknown;
  body?: unknown;
}

/** The game server in development (npm run dev -w @game/server). */
const SERVER = "http://localhost:3000";

/**
 * Dev: Vite serves the client and forwards the REST API and Colyseus to the game server.
 * Colyseus is reached under /colyseus in dev (matchmaking at /colyseus/matchmake/..., room
 * sockets at /colyseus/<processId>/<roomId>); the prefix is stripped before forwarding, so
 * the proxy never has to guess which bare paths are room sockets and Vite's own HMR socket
 * stays untouched. In production the server serves client/dist and Colyseus on one origin.
 */
export default defineConfig({
  plugins: [
    routeTable(),
    react(),
    // Installable (issue 30): a web app manifest, and a service worker (Workbox) that precaches
    // the hashed assets and the page, so a return visit starts from cache and an offline start
    // opens the game (which says it is reconnecting) instead of the browser's error page. The
    // API and the room sockets are never cached. Registered by main.tsx in production builds.
    VitePWA({
      injectRegister: false,
      registerType: "autoUpdate",
      includeAssets: ["icon.svg"],
      manifest: {
        name: "Nation Command",
        short_name: "Nation Command",
        description: "A persistent, turn-based strategy game of rival nations.",
        start_url: "/",
        scope: "/",
        display: "standalone",
        background_color: "#0c100c",
        theme_color: "#101410",
        icons: [
          { src: "/icon.svg", sizes: "any", type: "image/svg+xml", purpose: "any" },
          { src: "/icon-maskable.svg", sizes: "any", type: "image/svg+xml", purpose: "maskable" },
        ],
      },
      workbox: {
        globPatterns: ["**/*.{js,css,html,svg,webmanifest}"],
        navigateFallback: "/index.html",
        navigateFallbackDenylist: [/^\/api\//, /^\/matchmake\//, /^\/metrics/],
        cleanupOutdatedCaches: true,
        maximumFileSizeToCacheInBytes: 2 * 1024 * 1024,
      },
    }),
  ],
  // Hidden source maps: built for debugging, but no sourceMappingURL in the bundle; the server
  // serves them only with SERVE_SOURCE_MAPS=true (and then points browsers at them by header).
  // Fonts are never inlined as data: URLs: the CSP's font-src is 'self' (the flag fonts, issue 30).
  build: { outDir: "dist", emptyOutDir: true, sourcemap: "hidden", chunkSizeWarningLimit: 900, assetsInlineLimit: (file) => (/\.woff2?$/.test(file) ? false : undefined) },
  server: {
    port: 5173,
    proxy: {
      "/api": { target: SERVER, changeOrigin: true },
      "/matchmake": { target: SERVER, changeOrigin: true },
      "/colyseus": {
        target: SERVER,
        changeOrigin: true,
        ws: true,
        rewrite: (path) => path.replace(/^\/colyseus/, "") || "/",
      },
    },
  },
});
