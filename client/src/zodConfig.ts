import { z } from "zod";

/**
 * The server's Content-Security-Policy has no 'unsafe-eval'. zod would probe for
 * `new Function` on its first parse, and even the caught probe is reported as a
 * securitypolicyviolation; jitless parses without compiled fast paths and skips the probe.
 * Imported first by main.tsx, before any module can parse.
 */
z.config({ jitless: true });
