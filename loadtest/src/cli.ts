import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseCliArgs, USAGE } from "./args.js";
import { writeCredentialsFile } from "./bots.js";
import { TargetRefusedError } from "./hostGuard.js";
import { renderHtml } from "./html.js";
import { ProgressPrinter } from "./progress.js";
import { renderText } from "./report.js";
import { loadReuseFile, runLoadTest } from "./runner.js";

/** loadtest/reports, beside this package's src/. */
const REPORTS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../reports");

function timestampDir(): string {
  return new Date()
    .toISOString()
    .replace(/[:]/g, "-")
    .replace(/\.\d+Z$/, "Z");
}

async function main(): Promise<number> {
  let args;
  try {
    args = parseCliArgs(process.argv.slice(2), process.env);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n\n${USAGE}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const reportDir = path.resolve(args.reportDir ?? path.join(REPORTS_DIR, timestampDir()));
  const reuse = args.reuse ? loadReuseFile(args.reuse) : undefined;
  const abort = new AbortController();
  process.once("SIGINT", () => {
    process.stderr.write("\nInterrupted: stopping the schedule, draining in-flight actions (Ctrl-C again to quit)\n");
    abort.abort();
    process.once("SIGINT", () => process.exit(130));
  });
  const printer = new ProgressPrinter(process.stderr);
  let result;
  try {
    result = await runLoadTest({
      url: args.url,
      allowHosts: args.allowHosts,
      countries: args.countries,
      durationSec: args.durationSec,
      rate: args.rate,
      steps: args.steps,
      mix: args.mix,
      seed: args.seed,
      reuse,
      setupConcurrency: args.setupConcurrency,
      joinConcurrency: args.joinConcurrency,
      maxInFlight: args.maxInFlight,
      requestTimeoutMs: args.requestTimeoutMs,
      chatTimeoutMs: args.chatTimeoutMs,
      decodeSample: args.decodeSample,
      rooms: args.rooms,
      watch: args.watch,
      ...(args.viewTtlMs !== undefined ? { viewTtlMs: args.viewTtlMs } : {}),
      metricsToken: args.metricsToken,
      onProgress: (p) => printer.update(p),
      onBotsReady: (credentials) => writeCredentialsFile(path.join(reportDir, "credentials.json"), credentials),
      signal: abort.signal,
    });
  } catch (err) {
    printer.done();
    process.stderr.write(`${err instanceof TargetRefusedError ? "" : "Load test failed: "}${(err as Error).message}\n`);
    return 2;
  }
  printer.done();
  const report = result.report;
  report.command = `npm run loadtest -- ${process.argv.slice(2).join(" ")}`;
  fs.mkdirSync(reportDir, { recursive: true });
  fs.writeFileSync(path.join(reportDir, "report.json"), JSON.stringify(report, null, 1));
  fs.writeFileSync(path.join(reportDir, "report.html"), renderHtml(report));
  writeCredentialsFile(path.join(reportDir, "credentials.json"), result.credentials);
  process.stdout.write(`${renderText(report)}\n\n`);
  process.stdout.write(`Report: ${path.join(reportDir, "report.html")} (and report.json)\n`);
  process.stdout.write(`Reuse these countries: --reuse ${path.join(reportDir, "credentials.json")}\n`);
  return report.totals.serverErrors5xx > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`${(err as Error).stack ?? err}\n`);
    process.exit(2);
  },
);
