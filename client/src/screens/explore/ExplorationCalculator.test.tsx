import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { ExplorationCalculator } from "./ExplorationCalculator";
import { testCountry } from "../../test/render";

afterEach(cleanup);

const text = (id: string) => screen.getByTestId(id).textContent;
const exploreButton = () => screen.getByRole("button", { name: /^Explore/ });

describe("ExplorationCalculator", () => {
  it("previews one turn for a new monarchy: 45 acres at $55", () => {
    render(<ExplorationCalculator country={testCountry()} onExplore={vi.fn()} />);
    expect(text("preview-acres-per-turn")).toBe("45");
    expect(text("preview-cost-per-acre")).toBe("$55");
    expect(text("preview-total-acres")).toBe("45");
    expect(text("preview-total-cost")).toBe("$2,475");
    expect(text("preview-remaining-cash")).toBe("$97,525");
    expect((exploreButton() as HTMLButtonElement).disabled).toBe(false);
  });

  it("'5 Turns', '10 Turns' and 'Max' set the turns (Max = the most turns held and affordable)", () => {
    render(<ExplorationCalculator country={testCountry()} onExplore={vi.fn()} />);
    fireEvent.click(screen.getByRole("button", { name: "5 Turns" }));
    expect(text("preview-total-acres")).toBe("225");
    expect(text("preview-total-cost")).toBe("$12,375");
    expect(text("preview-remaining-cash")).toBe("$87,625");
    fireEvent.click(screen.getByRole("button", { name: "10 Turns" }));
    expect(text("preview-total-acres")).toBe("450");
    fireEvent.click(screen.getByRole("button", { name: "Max" }));
    // $100,000 at 45 acres x $55 = $2,475 a turn: 40 turns, not 50
    expect((screen.getByLabelText(/Turns to spend/) as HTMLInputElement).value).toBe("40");
    expect(text("preview-total-acres")).toBe("1,800");
  });

  it("Max is 50 with cash for more, and a fraction of a turn is refused, not floored", () => {
    render(<ExplorationCalculator country={testCountry({ cash: "10000000" })} onExplore={vi.fn()} />);
    fireEvent.click(screen.getByRole("button", { name: "Max" }));
    expect((screen.getByLabelText(/Turns to spend/) as HTMLInputElement).value).toBe("50");
    fireEvent.change(screen.getByLabelText(/Turns to spend/), { target: { value: "2.5" } });
    expect(screen.getByTestId("disabled-reason").textContent).toBe("Turns must be a whole number");
  });

  it("Max is capped by available turns", () => {
    render(<ExplorationCalculator country={testCountry({ turns: 7 })} onExplore={vi.fn()} />);
    fireEvent.click(screen.getByRole("button", { name: "Max" }));
    expect((screen.getByLabelText(/Turns to spend/) as HTMLInputElement).value).toBe("7");
    fireEvent.click(screen.getByRole("button", { name: "10 Turns" }));
    expect((screen.getByLabelText(/Turns to spend/) as HTMLInputElement).value).toBe("7");
  });

  it("applies the republic's table and discount", () => {
    render(<ExplorationCalculator country={testCountry({ government_type: "republic" })} onExplore={vi.fn()} />);
    expect(text("preview-acres-per-turn")).toBe("54");
    expect(text("preview-cost-per-acre")).toBe("$49");
  });

  it("disables Explore with 'Insufficient funds. Need $N more.' when unaffordable", () => {
    render(<ExplorationCalculator country={testCountry({ cash: "1000" })} onExplore={vi.fn()} />);
    expect((exploreButton() as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId("disabled-reason").textContent).toBe("Insufficient funds. Need $1,475 more.");
    expect(text("preview-remaining-cash")).toBe("-$1,475");
  });

  it("disables Explore when no turns are available and says why", () => {
    render(<ExplorationCalculator country={testCountry({ turns: 0 })} onExplore={vi.fn()} />);
    expect((exploreButton() as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByTestId("disabled-reason").textContent).toBe("No turns available");
  });

  it("rejects turns above the maximum with the rule's message", () => {
    render(<ExplorationCalculator country={testCountry()} onExplore={vi.fn()} />);
    fireEvent.change(screen.getByLabelText(/Turns to spend/), { target: { value: "60" } });
    expect(screen.getByTestId("disabled-reason").textContent).toBe("Turns must be between 1 and 50");
  });

  it("explores with the chosen turns, then resets to 1", async () => {
    const onExplore = vi.fn().mockResolvedValue(undefined);
    render(<ExplorationCalculator country={testCountry()} onExplore={onExplore} />);
    fireEvent.click(screen.getByRole("button", { name: "5 Turns" }));
    await act(async () => {
      fireEvent.click(exploreButton());
    });
    expect(onExplore).toHaveBeenCalledWith(5);
    expect((screen.getByLabelText(/Turns to spend/) as HTMLInputElement).value).toBe("1");
  });

  it("shows the server's error when exploring fails", async () => {
    const onExplore = vi.fn().mockRejectedValue(new Error("Exploration failed"));
    render(<ExplorationCalculator country={testCountry()} onExplore={onExplore} />);
    await act(async () => {
      fireEvent.click(exploreButton());
    });
    expect(screen.getByRole("alert").textContent).toBe("Exploration failed");
  });
});
