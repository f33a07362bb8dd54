import type { ProgressSnapshot } from "./runner.js";

const BAR_WIDTH = 24;

/** One progress line (no newline), e.g. `[#######.....] 12.3/60s  done 1234  err 5  41.0/s  inflight 3`. */
export function formatProgress(p: ProgressSnapshot): string {
  if (p.phase === "setup" || p.phase === "join") {
    const fraction = p.setupTotal ? p.setupDone / p.setupTotal : 0;
    return `${bar(fraction)} ${p.phase === "setup" ? "countries" : "joined"} ${p.setupDone}/${p.setupTotal}  ${p.elapsedSec.toFixed(1)}s`;
  }
  const fraction = p.durationSec ? Math.min(1, p.elapsedSec / p.durationSec) : 1;
  return (
    `${bar(fraction)} ${p.elapsedSec.toFixed(1)}/${p.durationSec}s  done ${p.completed}/${p.issued}  err ${p.errors}` +
    `${p.dropped ? `  dropped ${p.dropped}` : ""}  ${p.ratePerSec}/s  inflight ${p.inFlight}${p.phase === "actions" ? "" : `  (${p.phase})`}`
  );
}

function bar(fraction: number): string {
  const filled = Math.round(Math.max(0, Math.min(1, fraction)) * BAR_WIDTH);
  return `[${"#".repeat(filled)}${".".repeat(BAR_WIDTH - filled)}]`;
}

/**
 * Live progress on a stream: on a TTY one line redrawn in place with \r; otherwise a plain
 * line every `plainIntervalMs` (CI logs stay readable).
 */
export class ProgressPrinter {
  private lastPlain = 0;
  private lastLength = 0;

  constructor(
    private readonly stream: NodeJS.WriteStream = process.stderr,
    private readonly plainIntervalMs = 5000,
  ) {}

  update(p: ProgressSnapshot): void {
    const line = formatProgress(p);
    if (this.stream.isTTY) {
      const padded = line.padEnd(this.lastLength);
      this.lastLength = line.length;
      this.stream.write(`\r${padded}`);
      return;
    }
    const now = Date.now();
    if (now - this.lastPlain >= this.plainIntervalMs) {
      this.lastPlain = now;
      this.stream.write(`${line}\n`);
    }
  }

  /** Ends the redrawn line so later output starts on a fresh one. */
  done(): void {
    if (this.stream.isTTY && this.lastLength) this.stream.write("\n");
    this.lastLength = 0;
  }
}
