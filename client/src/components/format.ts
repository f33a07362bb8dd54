const INT = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });
const ONE_DECIMAL = new Intl.NumberFormat("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const TWO_DECIMALS = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
// Date formatters built once: `toLocale*String` with options builds a new Intl formatter on
// every call, which the overview's clock did every second (issue 30: the overview's blocking time).
const TIME_OF_DAY = new Intl.DateTimeFormat("en-US", { hour: "2-digit", minute: "2-digit" });
const CLOCK = new Intl.DateTimeFormat("en-US", { hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" });
const DATE = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "long", day: "numeric" });
const DAY_AND_DATE = new Intl.DateTimeFormat("en-US", { weekday: "long", year: "numeric", month: "long", day: "numeric" });

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

export function percent(n: number, digits = 1): string {
  return `${n.toFixed(digits)}%`;
}

/** A rate in basis points as a percent: 500 -> "5%", 450 -> "4.5%" (fee rates of the rules). */
export function bpsPercent(bps: number): string {
  return `${(bps / 100).toLocaleString("en-US", { maximumFractionDigits: 2 })}%`;
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
