import client from "prom-client";
import { describe, expect, it } from "vitest";
import { readAtMostEvery } from "./metrics.js";

describe("readAtMostEvery", () => {
  it("runs a metric's collect at most once per max age and reports the last reading in between", async () => {
    const registry = new client.Registry();
    let readings = 0;
    new client.Gauge({
      name: "walks_every_socket",
      help: "a gauge whose reading is costly",
      registers: [registry],
      collect() {
        readings += 1;
        this.set(readings * 10);
      },
    });
    new client.Gauge({
      name: "cheap",
      help: "a gauge left alone",
      registers: [registry],
      collect() {
        this.set(readings);
      },
    });
    let clock = 1_000;
    readAtMostEvery(registry, ["walks_every_socket", "not_registered"], 15_000, () => clock);

    const value = async (name: string) => (await registry.getSingleMetricAsString(name)).match(new RegExp(`^${name} (\\d+)$`, "m"))?.[1];
    expect(await value("walks_every_socket")).toBe("10");
    clock += 14_999;
    expect(await value("walks_every_socket")).toBe("10");
    expect(readings).toBe(1);
    clock += 1;
    expect(await value("walks_every_socket")).toBe("20");
    expect(readings).toBe(2);
    // a metric not named keeps its collect on every scrape
    expect(await value("cheap")).toBe("2");
  });
});
