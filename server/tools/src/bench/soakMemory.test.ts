import { describe, expect, it } from "vitest";
import { memoryGrowth } from "./drills.js";

const MB = 2 ** 20;

/** A soak's /metrics samples every 10 s: RSS on a garbage-collector sawtooth around `base(t)`. */
function samples(seconds: number, base: (atSec: number) => number, afterLoad?: { fromSec: number; rssMb: number }) {
  const rows = [];
  for (let atSec = 0; atSec <= seconds; atSec += 10) {
    const idle = afterLoad && atSec >= afterLoad.fromSec;
    const saw = ((atSec / 10) % 6) * 30 - 75; // -75..+75 MB
    const rssMb = idle ? afterLoad.rssMb : base(atSec) + saw;
    rows.push({ atSec, rssBytes: rssMb * MB, heapUsedBytes: (rssMb / 3) * MB });
  }
  return rows;
}

describe("memoryGrowth (the soak's memory check)", () => {
  it("finds a flat sawtooth flat, though the server shrinks once the load stops", () => {
    // the 2,000-client hour's shape: ~360 MB under load, 281 MB in the sample after the load tester ended
    const rows = samples(3660, () => 360, { fromSec: 3610, rssMb: 281 });
    const growth = memoryGrowth(rows, { warmAtSec: 600, loadEndedAtSec: 3600 });
    expect(growth).not.toBeNull();
    expect(Math.abs(growth!.rssGrowth)).toBeLessThan(0.02);
    expect(growth!.windowSec).toBe(600);
  });

  it("finds a steady leak of 10% an hour", () => {
    const rows = samples(3600, (atSec) => 360 * (1 + (0.1 * atSec) / 3600));
    const growth = memoryGrowth(rows, { warmAtSec: 600, loadEndedAtSec: 3600 });
    expect(growth!.rssGrowth).toBeGreaterThan(0.05);
    expect(growth!.heapGrowth).toBeGreaterThan(0.05);
  });

  it("has nothing to judge when the load ended before warm-up", () => {
    expect(
      memoryGrowth(
        samples(300, () => 300),
        { warmAtSec: 600, loadEndedAtSec: 300 },
      ),
    ).toBeNull();
  });
});
