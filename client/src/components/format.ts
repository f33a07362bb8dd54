const INT = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const ONE_DECIMAL = new Intl.NumberFormat("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const TWO_DECIMALS = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
const UP_TO_ONE_DECIMAL = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });
// Date formatters built once: `toLocale*String` with options builds a new Intl formatter on
// every call, which the overview's clock did every second (issue 30: the overview's blocking time).
const TIME_OF_DAY = new Intl.DateTimeFormat("en-US", { hour: "2-digit", minute: "2-digit" });
const CLOCK = new Intl.DateTimeFormat("en-US", { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
const DATE = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "long", day: "numeric" });
const DAY_AND_DATE = new Intl.DateTimeFormat("en-US", { weekday: "long", year: "numeric", month: "long", day: "numeric" });
// the options `toLocaleString("en-US")` and `toLocaleTimeString("en-US")` use when given none
const DATE_TIME = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "numeric", day: "numeric", hour: "numeric", minute: "numeric", second: "numeric" });
const TIME = new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "numeric", second: "numeric" });
const SHORT_DATE = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric" });
const SHORT_DATE_TIME = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
const MONTH_DAY_TIME = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });

/** 100000 -> "100,000" */
export function fmt(n: number): string {
  return INT.format(n);
}

/** 100000 -> "$100,000"; negative -> "-$500" */
export function money(n: number): string {
  return n < 0 ? `-$${INT.format(-n)}` : `$${INT.format(n)}`;
}

/** signed: +1,200 / -300 / 0 */
export function signed(n: number): string {
  return n > 0 ? `+${INT.format(n)}` : INT.format(n);
}

export function signedMoney(n: number): string {
  return n > 0 ? `+$${INT.format(n)}` : money(n);
}

export function decimal1(n: number): string {
  return ONE_DECIMAL.format(n);
}

export function decimal2(n: number): string {
  return TWO_DECIMALS.format(n);
}

/** At most one decimal: 12.25 -> "12.3", 12 -> "12" (market prices) */
export function decimalUpTo1(n: number): string {
  return UP_TO_ONE_DECIMAL.format(n);
}

export function percent(n: number, digits = 1): string {
  return `${n.toFixed(digits)}%`;
}

/** A rate in basis points as a percent: 500 -> "5%", 450 -> "4.5%" (fee rates of the rules). */
export function bpsPercent(bps: number): string {
  return `${TWO_DECIMALS.format(bps / 100)}%`;
}

/** "12 minutes 5 seconds", "45 seconds" (for countdowns) */
export function durationText(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const parts: string[] = [];
  if (h) parts.push(`${h} ${h === 1 ? "hour" : "hours"}`);
  if (m) parts.push(`${m} ${m === 1 ? "minute" : "minutes"}`);
  if (s || parts.length === 0) parts.push(`${s} ${s === 1 ? "second" : "seconds"}`);
  return parts.join(" ");
}

/** Days to one decimal: 20.9 */
export function daysText(ms: number): string {
  return ONE_DECIMAL.format(Math.max(0, ms) / 86_400_000);
}

/** A duration of whole hours as words: "12 hours", "1 hour" (rule durations in help text). */
export function hoursText(ms: number): string {
  const h = Math.round(Math.max(0, ms) / 3_600_000);
  return `${h} ${h === 1 ? "hour" : "hours"}`;
}

/** A duration of whole days as words: "7 days", "1 day". */
export function daysWords(ms: number): string {
  const d = Math.round(Math.max(0, ms) / 86_400_000);
  return `${d} ${d === 1 ? "day" : "days"}`;
}

export function capitalize(s: string): string {
  return s ? s.charAt(0).toUpperCase() + s.slice(1) : s;
}

/** "military_strategy" -> "Military Strategy" */
export function titleCase(s: string): string {
  return s
    .split(/[_\s-]+/)
    .filter(Boolean)
    .map(capitalize)
    .join(" ");
}

/** "06:40 PM" */
export function timeOfDay(ms: number): string {
  return TIME_OF_DAY.format(ms);
}

/** "16:20:43" (24-hour clock) */
export function clockText(ms: number): string {
  return CLOCK.format(ms);
}

export function dateText(ms: number): string {
  return DATE.format(ms);
}

/** "Friday, November 27, 2026" */
export function dayAndDateText(ms: number): string {
  return DAY_AND_DATE.format(ms);
}

/** "11/27/2026, 6:40:18 PM" (a record's timestamp in full; ms or an ISO string, as the API sends it) */
export function dateTimeText(at: number | string): string {
  return DATE_TIME.format(typeof at === "string" ? Date.parse(at) : at);
}

/** "6:40:18 PM" (ms or an ISO string) */
export function timeText(at: number | string): string {
  return TIME.format(typeof at === "string" ? Date.parse(at) : at);
}

/** "Nov 27, 2026" */
export function shortDateText(ms: number): string {
  return SHORT_DATE.format(ms);
}

/** "Nov 27, 2026, 06:40 PM" */
export function shortDateTimeText(ms: number): string {
  return SHORT_DATE_TIME.format(ms);
}

/** "Nov 27, 06:40 PM" (dates within the season: market and alliance lists, chart ticks) */
export function monthDayTimeText(ms: number): string {
  return MONTH_DAY_TIME.format(ms);
}
