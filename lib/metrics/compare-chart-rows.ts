/**
 * Payload → chart rows for the compare page. Pure, so the charts stay thin and the mapping is
 * tested.
 */
import type { RunSummary } from "@/lib/api/schemas";
import type { CompareStat } from "@/lib/api/compare-schemas";

export interface SegmentBarRow {
  runId: string;
  run: string;
  /** segment name → ms at the statistic; absent when the run did not record the segment */
  [segment: string]: string | number;
}

/**
 * One bar per run, stacked by segment at the chosen statistic. Segments are the union over runs
 * in first-seen order, so an aggregated and a disaggregated run can stand side by side.
 * Stacked percentiles are not the percentile of the sum: the chart says so.
 */
export function segmentBarRows(
  runs: RunSummary[],
  stat: CompareStat,
): { segments: Array<{ name: string; label: string }>; rows: SegmentBarRow[] } {
  const segments: Array<{ name: string; label: string }> = [];
  const rows: SegmentBarRow[] = [];
  const field = (
    { mean: "meanMs", p50: "p50Ms", p75: "p75Ms", p90: "p90Ms", p95: "p95Ms", p99: "p99Ms" } as const
  )[stat];
  for (const r of runs) {
    if (!r.timeBreakdown) continue;
    const row: SegmentBarRow = { runId: r.id, run: r.name };
    for (const s of r.timeBreakdown.segments) {
      if (!segments.some((x) => x.name === s.name)) segments.push({ name: s.name, label: s.label });
      const v = s[field];
      if (v !== null && v !== undefined) row[s.name] = v;
    }
    rows.push(row);
  }
  // A segment no run recorded at the statistic (gen_queue beside the three transfer spans) would
  // be a legend entry with no bar.
  return { segments: segments.filter((s) => rows.some((r) => s.name in r)), rows };
}

export interface CdfPoint {
  valueMs: number;
  percent: number;
}

/** A CDF payload (fractions) as chart points in percent. */
export function cdfPoints(cdf: Array<{ value: number; fraction: number }>): CdfPoint[] {
  return cdf.map((p) => ({ valueMs: p.value, percent: p.fraction * 100 }));
}

/** Long form for the CSV export: one line per run and point. */
export function cdfCsvRows(
  series: Array<{ run: string; points: CdfPoint[] }>,
): Array<{ run: string; valueMs: number; percent: number }> {
  return series.flatMap((s) => s.points.map((p) => ({ run: s.run, valueMs: p.valueMs, percent: p.percent })));
}

/** Wide rows for a grouped bar chart: one row per category (endpoint, role), one column per run id. */
export function groupedRows(
  items: Array<{ key: string; values: Record<string, number | null> }>,
): Array<Record<string, string | number | null>> {
  return items.map((i) => ({ key: i.key, ...i.values }));
}
