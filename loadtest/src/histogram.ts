import * as hdr from "hdr-histogram-js";

/** Latency percentiles of one series, in milliseconds (two decimals). */
export interface LatencySummary {
  count: number;
  min: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

const EMPTY: LatencySummary = { count: 0, min: 0, mean: 0, p50: 0, p95: 0, p99: 0, max: 0 };

/** 3 significant digits: 0.1% value error, plenty for latency percentiles. */
const SIGNIFICANT_DIGITS = 3;

const round2 = (ms: number) => Math.round(ms * 100) / 100;

/**
 * A latency series on an HDR histogram. Values are recorded in microseconds (integers, the
 * histogram's unit) so sub-millisecond loopback latencies keep their resolution, and read
 * back in milliseconds. The histogram auto-resizes, so no upper bound has to be guessed.
 */
export class LatencyRecorder {
  private readonly histogram = hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 2 * 60_000_000,
    numberOfSignificantValueDigits: SIGNIFICANT_DIGITS,
    autoResize: true,
    useWebAssembly: false,
  });

  /** Records one latency in milliseconds (negative values are clamped to 0). */
  record(ms: number): void {
    const micros = Math.max(0, Math.round(ms * 1000));
    this.histogram.recordValue(micros);
  }

  get count(): number {
    return this.histogram.totalCount;
  }

  /** Adds another recorder's values into this one. */
  add(other: LatencyRecorder): void {
    this.histogram.add(other.histogram);
  }

  summary(): LatencySummary {
    return summarize(this.histogram);
  }
}

/** Percentiles of an HDR histogram recorded in microseconds, as milliseconds. */
export function summarize(histogram: hdr.Histogram): LatencySummary {
  if (histogram.totalCount === 0) return { ...EMPTY };
  const ms = (micros: number) => round2(micros / 1000);
  return {
    count: histogram.totalCount,
    min: ms(histogram.getValueAtPercentile(0)),
    mean: ms(histogram.mean),
    p50: ms(histogram.getValueAtPercentile(50)),
    p95: ms(histogram.getValueAtPercentile(95)),
    p99: ms(histogram.getValueAtPercentile(99)),
    max: ms(histogram.maxValue),
  };
}
