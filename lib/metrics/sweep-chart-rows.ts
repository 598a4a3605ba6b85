/**
 * The sweep page's charts as data (docs/metrics.md §Sweeps): which point metric is on which axis,
 * which way each is better, and each sweep's points and Pareto frontier on them. Pure; the
 * components draw what this returns.
 */
import type { Sweep, SweepPoint, SweepStat } from "@/lib/api/sweeps";
import { compareFrontiersAt, paretoFrontier, type Reading, type Sense } from "./pareto";

type PointKey = Exclude<keyof SweepPoint, "missing">;

export interface SweepAxis {
  key: PointKey;
  title: string;
  unit: string;
  sense: Sense;
  /** The statistic changes this axis (a latency or interactivity, not a throughput) */
  perStat: boolean;
}

const AXES = {
  tokPerSPerUser: {
    key: "tokPerSPerUser",
    title: "Interactivity",
    unit: "tok/s/user",
    sense: "max",
    perStat: true,
  },
  outputTokPerSPerGpu: {
    key: "outputTokPerSPerGpu",
    title: "Output throughput per GPU",
    unit: "tok/s/GPU",
    sense: "max",
    perStat: false,
  },
  totalTokPerSPerGpu: {
    key: "totalTokPerSPerGpu",
    title: "Total throughput per GPU",
    unit: "tok/s/GPU",
    sense: "max",
    perStat: false,
  },
  e2eMs: { key: "e2eMs", title: "End-to-end latency", unit: "ms", sense: "min", perStat: true },
  ttftMs: { key: "ttftMs", title: "TTFT", unit: "ms", sense: "min", perStat: true },
  requestsPerS: {
    key: "requestsPerS",
    title: "Request throughput",
    unit: "req/s",
    sense: "max",
    perStat: false,
  },
} satisfies Record<string, SweepAxis>;

export const SWEEP_CHARTS = {
  interactivity: {
    title: "Throughput per GPU vs interactivity",
    x: AXES.tokPerSPerUser,
    y: AXES.outputTokPerSPerGpu,
  },
  latency: { title: "Throughput per GPU vs end-to-end latency", x: AXES.e2eMs, y: AXES.outputTokPerSPerGpu },
  ttft: { title: "TTFT vs request throughput", x: AXES.requestsPerS, y: AXES.ttftMs },
} as const;
export type SweepChartId = keyof typeof SWEEP_CHARTS;

/** The per-GPU throughput a chart's y reads: output tokens, or input + output. */
export type ThroughputBasis = "output" | "total";

export function chartAxes(chart: SweepChartId, basis: ThroughputBasis): { x: SweepAxis; y: SweepAxis } {
  const c = SWEEP_CHARTS[chart];
  const y = c.y.key === "outputTokPerSPerGpu" && basis === "total" ? AXES.totalTokPerSPerGpu : c.y;
  return { x: c.x, y };
}

export interface PlotPoint {
  x: number;
  y: number;
  /** "c4", "r2.5 req/s" or the run's name */
  label: string;
  runId: string;
  runName: string;
}

export interface SweepSeries {
  points: PlotPoint[];
  frontier: PlotPoint[];
  /** Runs with no point on this chart, and why */
  unplotted: Array<{ runName: string; reason: string }>;
}

export function loadLabel(run: {
  concurrency: number | null;
  requestRate: number | null;
  name: string;
}): string {
  if (run.concurrency !== null) return `c${run.concurrency.toLocaleString("en-US")}`;
  if (run.requestRate !== null) return `${run.requestRate.toLocaleString("en-US")} req/s`;
  return run.name;
}

export function sweepSeries(
  sweep: Pick<Sweep, "runs">,
  stat: SweepStat,
  x: SweepAxis,
  y: SweepAxis,
): SweepSeries {
  const points: PlotPoint[] = [];
  const unplotted: SweepSeries["unplotted"] = [];
  for (const run of sweep.runs) {
    const p = run.points[stat];
    const xv = p[x.key];
    const yv = p[y.key];
    if (xv === null || yv === null) {
      unplotted.push({ runName: run.name, reason: p.missing[xv === null ? x.key : y.key] ?? "not measured" });
      continue;
    }
    points.push({ x: xv, y: yv, label: loadLabel(run), runId: run.id, runName: run.name });
  }
  const frontier = paretoFrontier(
    points.map((p) => ({ x: p.x, y: p.y, item: p })),
    { x: x.sense, y: y.sense },
  ).map((f) => f.item);
  return { points, frontier, unplotted };
}

/** Every sweep's frontier read at the same x, against the first sweep. */
export function readSweepsAt(
  series: SweepSeries[],
  at: number,
): { readings: Reading[]; deltas: Array<number | null> } {
  return compareFrontiersAt(
    series.map((s) => s.frontier),
    at,
  );
}

/**
 * The unit an axis is written in: a millisecond axis whose ticks reach 10,000 ms is written in
 * seconds (docs/metrics.md §Readable numbers, one unit per axis); `divisor` turns a stored value
 * into that unit. Points stay in their stored unit, so the frontier and the CSV do not change.
 */
export function axisUnit(
  axis: Pick<SweepAxis, "unit">,
  ticks: readonly number[],
): { unit: string; divisor: number } {
  if (axis.unit === "ms" && ticks.some((t) => Math.abs(t) >= 10_000)) return { unit: "s", divisor: 1000 };
  return { unit: axis.unit, divisor: 1 };
}
