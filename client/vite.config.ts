import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

/** The game server in development (npm run dev -w server). */
const SERVER = "http://localhost:3000";

/**
 * Dev: Vite serves the client and forwards the REST API and Colyseus to the game server.
 * Colyseus is reached under /colyseus in dev (matchmaking at /colyseus/matchmake/..., room
 * sockets at /colyseus/<processId>/<roomId>); the prefix is stripped before forwarding, so
 * the proxy never has to guess which bare paths are room sockets and Vite's own HMR socket
 * stays untouched. In production the server serves client/dist and Colyseus on one origin.
 */
export default defineConfig({
  plugins: [react()],
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
