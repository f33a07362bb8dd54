// Lint fixture (eslint.config.test.ts): the client may not import the server package.
import { startTestServer } from "@game/server/src/test/harness.ts";

export const start = startTestServer;
