import { parseArgs } from "node:util";
import { WATCH_TOPICS, type WatchTopic } from "@game/schema/messages";
import { resolveMix, type Mix } from "./mix.js";

/** Everything the command line sets. */
export interface CliOptions {
  url: string;
  allowHosts: string[];
  countries: number;
  durationSec: number;
  rate: number;
  /** --rates: the steps before the last rate (which is `rate`) */
  steps: number[];
  mix: Mix;
  seed: number | undefined;
  reuse: string | undefined;
  reportDir: string | undefined;
  setupConcurrency: number;
  joinConcurrency: number;
  maxInFlight: number;
  requestTimeoutMs: number;
  chatTimeoutMs: number;
  decodeSample: number;
  rooms: boolean;
  /** what every bot's screen shows (world room "watch") */
  watch: WatchTopic[];
  /** --view-ttl in ms, when given */
  viewTtlMs: number | undefined;
  metricsToken: string | undefined;
  help: boolean;
}

export const USAGE = `Usage: npm run loadtest -- --countries N --duration S --rate R [options]

  --countries N          countries (players) to simulate                  default 10
  --duration S           seconds of actions                               default 30
  --rate R               actions per second in total (open loop)          default 10
  --rates R1,R2,...      a rate search: the same clients play --duration at each rate in turn;
                         the report lists each step and the highest rate with every call
                         answered and whole-call p99 under 250 ms (the last rate is the main phase)
  --url URL              server origin                                    default http://127.0.0.1:3000
  --allow-host HOST      allow a non-loopback host (repeatable); only loopback is allowed otherwise
  --mix SPEC             weights, e.g. explore=3,build=2,research=1,chat=1,rankings=2,country=2
                         play=1 plays the AI strategy (schema nextAiIntent) per bot: a personality
                         each from --seed, its view read over REST, the intent sent on the
                         browser's route; reported per intent kind (play:explore, play:attack, ...)
                         with ok / refused (a game rule's 4xx) / errors; a bot in an alliance
                         also uses its alliance room (play:alliance_chat, play:operation_plan,
                         play:operation_respond) unless --no-rooms
  --mix-file FILE        weights as a JSON object
  --reuse FILE           reuse the countries of an earlier run (its credentials.json)
  --report-dir DIR       where to write report.json, report.html, credentials.json
                         default loadtest/reports/<timestamp>
  --seed N               seed for the mix and bot order                   default random
  --setup-concurrency N  concurrent registrations/logins                  default 8
  --join-concurrency N   concurrent room joins                            default 20
  --max-in-flight N      actions in flight before due ones are dropped    default 1000
  --timeout MS           per REST request                                 default 10000
  --chat-timeout MS      wait for chat fan-out                            default 10000
  --decode-sample N      clients that decode patches (chat observers)     default 20
  --no-rooms             do not join the world room (REST only)
  --watch TOPICS         what every bot's screen shows, e.g. chat,rankings (of ${WATCH_TOPICS.join(", ")})
                         default none: the overview (the decoding sample always shows the chat)
  --view-ttl S           play: seconds a read of brigades, espionage, market, alliance or
                         diplomacy is used         default 30 (market) to 60 (the others)
  --metrics-token TOKEN  bearer token for GET /metrics (or env METRICS_TOKEN)
  --help`;

function positiveNumber(name: string, raw: string | undefined, fallback: number, integer = true): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new Error(`--${name} must be a positive ${integer ? "whole " : ""}number, got "${raw}"`);
  }
  return value;
}

/** Parses argv (without node and script). @throws with a message for the user on bad input */
export function parseCliArgs(argv: string[], env: Record<string, string | undefined> = {}): CliOptions {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      countries: { type: "string" },
      duration: { type: "string" },
      rate: { type: "string" },
      rates: { type: "string" },
      url: { type: "string" },
      "allow-host": { type: "string", multiple: true },
      mix: { type: "string" },
      "mix-file": { type: "string" },
      reuse: { type: "string" },
      "report-dir": { type: "string" },
      seed: { type: "string" },
      "setup-concurrency": { type: "string" },
      "join-concurrency": { type: "string" },
      "max-in-flight": { type: "string" },
      timeout: { type: "string" },
      "chat-timeout": { type: "string" },
      "decode-sample": { type: "string" },
      "no-rooms": { type: "boolean" },
      watch: { type: "string" },
      "view-ttl": { type: "string" },
      "metrics-token": { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const decodeRaw = values["decode-sample"];
  const decodeSample = decodeRaw === undefined ? 20 : Number(decodeRaw);
  if (!Number.isInteger(decodeSample) || decodeSample < 0) throw new Error(`--decode-sample must be a whole number >= 0, got "${decodeRaw}"`);
  const rates = values.rates === undefined ? [] : values.rates.split(",").map((r) => positiveNumber("rates", r.trim(), 0, false));
  if (values.rates !== undefined && rates.length === 0) throw new Error("--rates needs at least one rate");
  if (rates.length && values.rate !== undefined) throw new Error("--rate and --rates do not go together: the last of --rates is the main phase");
  const watch = (values.watch ?? "")
    .split(",")
    .map((t) => t.trim())
    .filter(Boolean);
  for (const topic of watch) if (!(WATCH_TOPICS as readonly string[]).includes(topic)) throw new Error(`--watch takes ${WATCH_TOPICS.join(", ")}, got "${topic}"`);
  return {
    url: values.url ?? "http://127.0.0.1:3000",
    allowHosts: values["allow-host"] ?? [],
    countries: positiveNumber("countries", values.countries, 10),
    durationSec: positiveNumber("duration", values.duration, 30, false),
    rate: rates.length ? rates[rates.length - 1]! : positiveNumber("rate", values.rate, 10, false),
    steps: rates.slice(0, -1),
    mix: resolveMix(values.mix, values["mix-file"]),
    seed: values.seed === undefined ? undefined : positiveNumber("seed", values.seed, 1),
    reuse: values.reuse,
    reportDir: values["report-dir"],
    setupConcurrency: positiveNumber("setup-concurrency", values["setup-concurrency"], 8),
    joinConcurrency: positiveNumber("join-concurrency", values["join-concurrency"], 20),
    maxInFlight: positiveNumber("max-in-flight", values["max-in-flight"], 1000),
    requestTimeoutMs: positiveNumber("timeout", values.timeout, 10_000),
    chatTimeoutMs: positiveNumber("chat-timeout", values["chat-timeout"], 10_000),
    decodeSample,
    rooms: !values["no-rooms"],
    watch: watch as WatchTopic[],
    viewTtlMs: values["view-ttl"] === undefined ? undefined : positiveNumber("view-ttl", values["view-ttl"], 0, false) * 1000,
    metricsToken: values["metrics-token"] ?? env.METRICS_TOKEN,
    help: Boolean(values.help),
  };
}
