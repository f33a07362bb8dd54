import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "./config.js";

/** PORT accepts 0 (the system picks the port at the bind: issue 29, the test harness's race). */
describe("config: PORT", () => {
  const before = process.env.PORT;
  afterEach(() => {
    if (before === undefined) delete process.env.PORT;
    else process.env.PORT = before;
  });

  it("reads 0 and any port up to 65535; defaults to 3000", () => {
    for (const [raw, port] of [
      ["0", 0],
      ["3001", 3001],
      ["65535", 65535],
      ["", 3000],
    ] as const) {
      process.env.PORT = raw;
      expect(loadConfig().port).toBe(port);
    }
  });

  it("refuses what is not a port number, saying which variable and what it got", () => {
    for (const raw of ["-1", "65536", "3.5", "abc", " 80", "0x50"]) {
      process.env.PORT = raw;
      expect(() => loadConfig(), raw).toThrow(`PORT must be a port number from 0 to 65535, got "${raw}"`);
    }
  });
});
