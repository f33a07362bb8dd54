import { describe, expect, it } from "vitest";
import { orderControlMessage } from "./StandingOrdersPanel";

describe("standing order control messages (issue 30 #24: 'Order cancelled (cancelled).')", () => {
  it("says what happened once, and the new status only when it differs", () => {
    expect(orderControlMessage("cancel", "cancelled")).toBe("Order cancelled.");
    expect(orderControlMessage("activate", "active")).toBe("Order activated: now active.");
    expect(orderControlMessage("pause", "paused")).toBe("Order paused.");
  });
});
