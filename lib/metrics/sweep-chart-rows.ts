/**
 * The sweep page's charts as data (docs/metrics.md §Sweeps): which point metric is on which axis,
 * which way each is better, and each sweep's points (repeated runs of one point as its median with
 * their min–max) and Pareto frontier on them. Pure; the
 * components draw what this returns.
 */
import type { Sweep, SweepPoint, SweepRun, SweepStat } from "@/lib/api/sweeps";
import { compareFrontiersAt, frontierSteps, paretoFrontier, type Reading, type Sense } from "./pareto";
import { compareSpreads, spreadOf, type Spread, type SpreadVerdict } from "./run-spread";

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
  /** The median of the point's runs on each axis (a single run's own value) */
  x: number;
  y: number;
  /** "c4", "r2.5 req/s" or the run's name; "c4 ×3" for three repeated runs */
  label: string;
  /** The first run's id and name (the point's, when it has one run) */
  runId: string;
  runName: string;
  /** Every run behind the point, in the sweep's order */
  runIds: string[];
  runNames: string[];
  /** The runs' median, min and max on each axis */
  xSpread: Spread;
  ySpread: Spread;
  /** The interval as offsets below and above the median, as a chart's error bars take it */
  xErr: [number, number];
  yErr: [number, number];
}

/** A point of one run: no spread known. */
export function singleRunPoint(
  x: number,
  y: number,
  label: string,
  runId: string,
  runName: string,
): PlotPoint {
  return {
    x,
    y,
    label,
    runId,
    runName,
    runIds: [runId],
    runNames: [runName],
    xSpread: { value: x, lo: x, hi: x, runs: 1 },
    ySpread: { value: y, lo: y, hi: y, runs: 1 },
    xErr: [0, 0],
    yErr: [0, 0],
  };
}

export interface SweepSeries {
  /** One point per sweep point: repeated runs of one load and setup are one point */
  points: PlotPoint[];
  frontier: PlotPoint[];
  /** The frontier's corners, drawn as a step (lib/metrics/pareto.ts frontierSteps) */
  steps: Array<{ x: number; y: number }>;
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

/**
 * Which runs of a sweep may repeat one point: the same load (concurrency, else request rate) and
 * the same setup (the run's stated model, backend and version, hardware, GPU count, roles). A run
 * that states no load is a point of its own. ISL and OSL are left out: where no configuration
 * states them they are the measured means, which differ from run to run (the upload warns when a
 * sweep's runs ran lengths over 10% apart).
 */
export function repeatKey(run: Pick<SweepRun, "id" | "concurrency" | "requestRate" | "setup">): string {
  const load =
    run.concurrency !== null
      ? `c${run.concurrency}`
      : run.requestRate !== null
        ? `r${run.requestRate}`
        : null;
  return load === null ? `run ${run.id}` : `${load} ${run.setup ?? ""}`;
}

export function sweepSeries(
  sweep: Pick<Sweep, "runs">,
  stat: SweepStat,
  x: SweepAxis,
  y: SweepAxis,
): SweepSeries {
  type Member = { run: SweepRun; x: number; y: number };
  const groups = new Map<string, Member[]>();
  const unplotted: SweepSeries["unplotted"] = [];
  for (const run of sweep.runs) {
    const p = run.points[stat];
    const xv = p[x.key];
    const yv = p[y.key];
    if (xv === null || yv === null) {
      unplotted.push({ runName: run.name, reason: p.missing[xv === null ? x.key : y.key] ?? "not measured" });
      continue;
    }
    const key = repeatKey(run);
    const g = groups.get(key) ?? [];
    g.push({ run, x: xv, y: yv });
    groups.set(key, g);
  }
  const points: PlotPoint[] = [];
  for (const g of groups.values()) {
    const xs = spreadOf(g.map((m) => m.x))!;
    const ys = spreadOf(g.map((m) => m.y))!;
    const first = g[0].run;
    points.push({
      x: xs.value,
      y: ys.value,
      label: g.length > 1 ? `${loadLabel(first)} ×${g.length}` : loadLabel(first),
      runId: first.id,
      runName: first.name,
      runIds: g.map((m) => m.run.id),
      runNames: g.map((m) => m.run.name),
      xSpread: xs,
      ySpread: ys,
      xErr: [xs.value - xs.lo, xs.hi - xs.value],
      yErr: [ys.value - ys.lo, ys.hi - ys.value],
    });
  }
  const axes = { x: x.sense, y: y.sense };
  const frontier = paretoFrontier(
    points.map((p) => ({ x: p.x, y: p.y, item: p })),
    axes,
  ).map((f) => f.item);
  return { points, frontier, steps: frontierSteps(frontier, axes), unplotted };
}

export interface SweepsReading {
  readings: Reading<PlotPoint>[];
  deltas: Array<number | null>;
  /** Each reading against the first sweep's: within each other's run-to-run spread or not (null for the first, or an unreadable one) */
  verdicts: Array<SpreadVerdict | null>;
}

/** Every sweep's frontier read at the same x, against the first sweep, with the spread verdict. */
export function readSweepsAt(series: SweepSeries[], at: number, x: SweepAxis, y: SweepAxis): SweepsReading {
  const { readings, deltas } = compareFrontiersAt(
    series.map((s) => s.frontier),
    at,
    { x: x.sense, y: y.sense },
  );
  const base = readings[0];
  const verdicts = readings.map((r, i) =>
    i === 0 || r.y === null || base?.y == null ? null : compareSpreads(base.point.ySpread, r.point.ySpread),
  );
  return { readings, deltas, verdicts };
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
