import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { SideScroll } from "./SideScroll";

// jsdom lays nothing out: the widths a browser would measure are given here
function layout({ content, box, scrolled = 0 }: { content: number; box: number; scrolled?: number }) {
  vi.spyOn(Element.prototype, "scrollWidth", "get").mockReturnValue(content);
  vi.spyOn(Element.prototype, "clientWidth", "get").mockReturnValue(box);
  vi.spyOn(Element.prototype, "scrollLeft", "get").mockReturnValue(scrolled);
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

const table = (
  <table>
    <tbody>
      <tr>
        <td>wide</td>
      </tr>
    </tbody>
  </table>
);

describe("SideScroll (the battle report's units table scrolled sideways on a phone with no cue)", () => {
  it("content that fits: a labelled region, no caption, no extra tab stop", () => {
    layout({ content: 300, box: 300 });
    render(<SideScroll label="Units of both sides">{table}</SideScroll>);
    const region = screen.getByRole("region", { name: "Units of both sides" });
    expect(region.getAttribute("tabindex")).toBeNull();
    expect(region.getAttribute("aria-describedby")).toBeNull();
    expect(screen.queryByText(/scroll sideways/i)).toBeNull();
  });

  it("content wider than the box: a caption, a fade on the side with more, and a focusable region described by the caption", () => {
    layout({ content: 600, box: 300 });
    const { container } = render(<SideScroll label="Units of both sides">{table}</SideScroll>);
    const region = screen.getByRole("region", { name: "Units of both sides" });
    const hint = screen.getByText(/scroll sideways for more/i);
    expect(region.getAttribute("tabindex")).toBe("0");
    expect(region.getAttribute("aria-describedby")).toBe(hint.id);
    const outer = container.querySelector(".side-scroll")!;
    expect(outer.hasAttribute("data-more-right")).toBe(true);
    expect(outer.hasAttribute("data-more-left")).toBe(false);

    // scrolled to the end: the fade moves to the left edge, the caption stays
    vi.spyOn(Element.prototype, "scrollLeft", "get").mockReturnValue(300);
    fireEvent.scroll(region);
    expect(outer.hasAttribute("data-more-right")).toBe(false);
    expect(outer.hasAttribute("data-more-left")).toBe(true);
    expect(screen.getByText(/scroll sideways for more/i)).toBeTruthy();
  });
});
