import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import type { NoticePayload } from "@game/schema/messages";
import { world } from "../realtime/worldRoom";
import { NOTICE_SHOW_MS, NoticeToasts, noticeRoute } from "./NoticeToasts";

afterEach(() => {
  cleanup();
  act(() => world.update({ notices: [] }));
  vi.useRealTimers();
});

const notice = (id: string, patch: Partial<NoticePayload> = {}): NoticePayload => ({
  id,
  kind: "attacked",
  severity: "danger",
  title: `Raider ${id} attacked you`,
  body: "Standard Strike: your defence held.",
  at: 0,
  view: "military",
  refId: 42,
  ...patch,
});

function renderToasts() {
  const onOpen = vi.fn();
  // the notify options never answer here: every notice shows, as before they load
  const client = new QueryClient({ defaultOptions: { queries: { queryFn: () => new Promise(() => {}) } } });
  render(
    <QueryClientProvider client={client}>
      <NoticeToasts onOpen={onOpen} />
    </QueryClientProvider>,
  );
  return { onOpen };
}

const arrive = (...list: NoticePayload[]) => act(() => world.update({ notices: [...world.getSnapshot().notices, ...list] }));

describe("notice toasts (issue 30 #3, #17)", () => {
  it("each card expires NOTICE_SHOW_MS after it came, even when later notices arrive meanwhile (they never expired)", () => {
    vi.useFakeTimers();
    renderToasts();
    arrive(notice("a"));
    act(() => vi.advanceTimersByTime(NOTICE_SHOW_MS / 2));
    arrive(notice("b", { kind: "spy_detected", title: "Spy caught" }));
    expect(screen.getByTestId("notice-attacked")).toBeTruthy();
    act(() => vi.advanceTimersByTime(NOTICE_SHOW_MS / 2 + 1));
    expect(screen.queryByTestId("notice-attacked")).toBeNull();
    expect(screen.getByTestId("notice-spy_detected")).toBeTruthy();
    act(() => vi.advanceTimersByTime(NOTICE_SHOW_MS / 2));
    expect(screen.queryByTestId("notices")).toBeNull();
  });

  it("repeats of one notice share one card with a count instead of stacking", () => {
    renderToasts();
    arrive(notice("a", { title: "AI raid" }));
    arrive(notice("b", { title: "AI raid" }), notice("c", { title: "AI raid" }));
    expect(screen.getAllByTestId("notice-attacked")).toHaveLength(1);
    expect(screen.getByTestId("notice-count").textContent).toBe(" ×3");
  });

  it("View opens the battle report for a battle and the diplomacy tab for a proposal", () => {
    const { onOpen } = renderToasts();
    arrive(notice("battle-42"));
    fireEvent.click(screen.getByRole("button", { name: "View" }));
    expect(onOpen).toHaveBeenLastCalledWith({ view: "military", intent: "warlog-42" });
    expect(noticeRoute(notice("p", { kind: "diplomacy_proposal", view: "alliances", refId: 3 }))).toEqual({ view: "alliances", intent: "diplomacy" });
    expect(noticeRoute(notice("w", { kind: "war_declared", view: "war-room" }))).toEqual({ view: "war-room" });
  });
});
