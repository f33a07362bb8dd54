// Node 20 has no global WebSocket; @colyseus/core reads WebSocket.OPEN during reconnection.
import { WebSocket } from "ws";
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

import { loadConfig } from "./config.js";
import { createLogger } from "./logger.js";
import { startGameServer, type GameServer } from "./server.js";

const config = loadConfig();
const logger = createLogger(config.logLevel);
let server: GameServer;
try {
  server = await startGameServer(config, { logger });
} catch (err) {
  // e.g. EADDRINUSE: say why and exit non-zero at once, so a supervisor sees the failure
  logger.fatal({ err }, "server failed to start");
  process.exit(1);
}

/** A shutdown that has not finished by then exits 1 anyway (close() itself cuts connections after 5 s). */
const SHUTDOWN_LIMIT_MS = 9_000;

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    logger.info({ signal }, "shutting down");
    setTimeout(() => {
      logger.error("shutdown took too long");
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS).unref();
    server.close().then(
      () => {
        logger.info("shut down");
        process.exit(0);
      },
      (err) => {
        logger.error({ err }, "shutdown failed");
        process.exit(1);
      },
    );
  });
}
