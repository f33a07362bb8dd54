import { describe, expect, it } from "vitest";
import { MENU } from "./navigation";

describe("the side menu", () => {
  it("marks one entry per screen: no two entries open the same view with the same intent (issue 30 #12: Cash and Market both lit)", () => {
    const keys = MENU.flatMap((g) => g.entries).map((e) => `${e.view}?${e.intent ?? ""}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
