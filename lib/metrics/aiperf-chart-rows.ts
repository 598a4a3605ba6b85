/** Pure mappings from aiperf chart payloads to the rows Recharts draws (and CSV exports). */
import type { Distribution, GpuPayload } from "@/lib/api/aiperf-charts";

export interface HistogramRow {
  /** Bin centre, the x position */
  mid: number;
  start: number;
  end: number;
  count: number;
}

export function histogramRows(d: Distribution): HistogramRow[] {
  return d.bins.map((b) => ({ mid: (b.start + b.end) / 2, start: b.start, end: b.end, count: b.count }));
}

export interface CdfRow {
  value: number;
  /** Percent of requests at or below `value` */
  percent: number;
}

export function cdfRows(d: Distribution): CdfRow[] {
  return d.cdf.map((p) => ({ value: p.value, percent: p.fraction * 100 }));
}

export type GpuMetric = "powerW" | "utilizationPct" | "memoryUsedGb";

/**
 * One row per distinct time with a column per GPU (`gpu0`, `gpu1`, …): Recharts draws one line
 * per column. GPUs are sampled at slightly different instants, so most cells are empty and the
 * lines use `connectNulls`.
 */
export function gpuRows(p: GpuPayload, metric: GpuMetric): Array<Record<string, number | null>> {
  const byT = new Map<number, Record<string, number | null>>();
  p.gpus.forEach((g, i) => {
    for (const pt of g.points) {
      const t = Math.round(pt.tS * 1000) / 1000;
      const row = byT.get(t) ?? { tS: t };
      row[`gpu${i}`] = pt[metric];
      byT.set(t, row);
    }
  });
  return [...byT.values()].sort((a, b) => (a.tS as number) - (b.tS as number));
}
