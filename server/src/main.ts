// Node 20 has no global WebSocket; @colyseus/core reads WebSocket.OPEN during reconnection.
import { WebSocket } from "ws";
(globalThis as { WebSocket?: unknown }).WebSocket ??= WebSocket;

import { loadConfig } from "./config.js";
import { createLogger } from "./logger.js";
import { startGameServer } from "./server.js";

const config = loadConfig();
const logger = createLogger(config.logLevel);
const server = await startGameServer(config, { logger });

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    logger.info({ signal }, "shutting down");
    server.close().then(
      () => process.exit(0),
      (err) => {
        logger.error({ err }, "shutdown failed");
        process.exit(1);
      },
    );
  });
}
