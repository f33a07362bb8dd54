import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { VitePWA } from "vite-plugin-pwa";

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
  build: { outDir: "dist", emptyOutDir: true, sourcemap: "hidden", chunkSizeWarningLimit: 900 },
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
