import { z } from "zod";

/**
 * The server's Content-Security-Policy has no 'unsafe-eval'. zod would probe for
 * `new Function` on its first parse, and even the caught probe is reported as a
 * securitypolicyviolation; jitless parses without compiled fast paths and skips the probe.
 * Imported first by every module that parses with zod (the login validator, registration, the
 * settings and account screens), never by the game's start: zod loads only with those chunks
 * (issue 30, docs/performance.md; client/e2e/firstLoad.e2e.ts checks the overview's start).
 */
z.config({ jitless: true });
