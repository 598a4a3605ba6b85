/**
 * Values no server can report (docs/metrics.md §Window statistics, §KV usage): a counter below 0,
 * and a KV usage gauge outside its range. They are left out, with a warning counted per family,
 * instead of feeding a rate (an all-negative hits counter made a 50 % hit rate). A counter that
 * goes down is not one of them: that is a restart, and its step counts 0 (scrape-window.ts).
 */
import { CPU_USAGE_GAUGES, DYNAMO_USAGE_GAUGES, USAGE_GAUGES } from "./catalog";
import type { MetricSeries, MetricType } from "./types";

/** A fraction up to 1.5 is an overshoot, clamped to 1 later (trap T11); no fraction gauge goes past it. */
const FRACTION_MAX = 1.5;
/** Engine usage gauges are fractions (vLLM's `_perc` too); Dynamo's are percent. */
const FRACTIONS = new Set([...USAGE_GAUGES, ...CPU_USAGE_GAUGES]);
const PERCENTS = new Set(DYNAMO_USAGE_GAUGES);

/** Why one sample of the family (canonical name) cannot be right, or null when it can. */
export function badSample(name: string, type: MetricType, v: number): string | null {
  if (type === "counter" && v < 0) return "negative counter value";
  if (FRACTIONS.has(name) && (v < 0 || v > FRACTION_MAX)) return "usage fraction outside 0..1";
  if (PERCENTS.has(name) && (v < 0 || v > 100 * FRACTION_MAX)) return "usage percent outside 0..100";
  return null;
}

/** The warning a bad value of `family` adds to its file (counted: WarningLog.count). */
export const badValueWarning = (family: string, reason: string) => `${family}: ${reason} ignored`;

/**
 * Why a series read with its statistics already made (aiperf JSON and CSV exports, one
 * Prometheus scrape) cannot be right, or null: a counter total or rate below 0, a usage gauge
 * whose smallest or largest value is out of range (its mean would carry the bad samples).
 */
export function badSeries(s: MetricSeries): string | null {
  const st = s.stats;
  if (s.type === "counter") {
    const low = Math.min(st.total ?? 0, st.rate ?? 0);
    return low < 0 ? badSample(s.name, "counter", low) : null;
  }
  if (s.type !== "gauge") return null;
  for (const v of [st.min, st.max, st.avg]) {
    const why = v === undefined ? null : badSample(s.name, "gauge", v);
    if (why) return why;
  }
  return null;
}

/**
 * Leaves out the series `badSeries` refuses, each counted as a warning of its family; and clamps
 * a counter interval that went down to 0, as a restart (a window delta is never negative).
 */
export function dropBadSeries(series: MetricSeries[], count: (message: string) => void): MetricSeries[] {
  const kept: MetricSeries[] = [];
  for (const s of series) {
    const why = badSeries(s);
    if (why) {
      count(badValueWarning(s.name, why));
      continue;
    }
    if (s.type === "counter" && s.slices)
      for (let i = 0; i < s.slices.value.length; i++)
        if (s.slices.value[i] < 0) s.slices.value[i] = s.slices.max[i] = 0;
    kept.push(s);
  }
  return kept;
}
