import { describe, expect, it } from "vitest";
import { bpsPercent, dateTimeText, decimalUpTo1, monthDayTimeText, shortDateText, shortDateTimeText, timeOfDay, timeText } from "./format";

// local time, so the expectations hold in any time zone; newer ICU puts a narrow no-break space before AM/PM
const AT = new Date(2026, 10, 27, 18, 40, 18).getTime();
const MORNING = new Date(2026, 0, 5, 0, 3, 4).getTime();
const text = (s: string) => s.replace(/\s/g, " ");

describe("date and time formatters (built once, the strings the screens' inline toLocale*String calls gave)", () => {
  it("dateTimeText: a timestamp in full, as toLocaleString('en-US')", () => {
    expect(text(dateTimeText(AT))).toBe("11/27/2026, 6:40:18 PM");
    expect(text(dateTimeText(MORNING))).toBe("1/5/2026, 12:03:04 AM");
    expect(dateTimeText(AT)).toBe(new Date(AT).toLocaleString("en-US"));
    expect(dateTimeText(new Date(AT).toISOString())).toBe(dateTimeText(AT));
  });

  it("timeText: the time with seconds, as toLocaleTimeString('en-US')", () => {
    expect(text(timeText(AT))).toBe("6:40:18 PM");
    expect(timeText(MORNING)).toBe(new Date(MORNING).toLocaleTimeString("en-US"));
    expect(timeText(new Date(MORNING).toISOString())).toBe(timeText(MORNING));
  });

  it("timeOfDay: hours and minutes, two digits (chat lines)", () => {
    expect(text(timeOfDay(AT))).toBe("06:40 PM");
    expect(text(timeOfDay(MORNING))).toBe("12:03 AM");
  });

  it("shortDateText, shortDateTimeText, monthDayTimeText: short month names", () => {
    expect(shortDateText(AT)).toBe("Nov 27, 2026");
    expect(text(shortDateTimeText(AT))).toBe("Nov 27, 2026, 06:40 PM");
    expect(text(monthDayTimeText(AT))).toBe("Nov 27, 06:40 PM");
    expect(text(monthDayTimeText(MORNING))).toBe("Jan 5, 12:03 AM");
  });
});

describe("number formatters", () => {
  it("decimalUpTo1: at most one decimal, with thousands separators", () => {
    expect(decimalUpTo1(12)).toBe("12");
    expect(decimalUpTo1(12.25)).toBe("12.3");
    expect(decimalUpTo1(1234.04)).toBe("1,234");
  });

  it("bpsPercent: basis points as a percent, up to two decimals", () => {
    expect(bpsPercent(500)).toBe("5%");
    expect(bpsPercent(450)).toBe("4.5%");
    expect(bpsPercent(1234)).toBe("12.34%");
    expect(bpsPercent(1)).toBe("0.01%");
  });
});
