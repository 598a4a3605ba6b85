/**
 * aiperf writes metric values as `{value, unit}` (records, in display units) or, in hand-made and
 * older files, as bare numbers. Everything Runlens keeps is in one canonical unit per dimension:
 * durations in milliseconds, counts as they are. Unknown units pass through unchanged.
 */
// Shared with the aiperf parse thread, which loads plain JavaScript only.
import { metricNumber, TO_MS, toMs } from "./aiperf-values.mjs";

export { metricNumber, toMs };

export function isTimeUnit(unit: string | undefined): boolean {
  return unit !== undefined && TO_MS[unit.trim()] !== undefined;
}

export interface MetricReading {
  value: number | number[];
  unit: string | undefined;
}

/** Reads `{value, unit}` or a bare number / number array; null for anything else (null, strings, objects). */
export function readMetric(raw: unknown): MetricReading | null {
  if (typeof raw === "number") return Number.isFinite(raw) ? { value: raw, unit: undefined } : null;
  if (Array.isArray(raw))
    return { value: raw.filter((v): v is number => typeof v === "number"), unit: undefined };
  if (typeof raw !== "object" || raw === null) return null;
  const o = raw as { value?: unknown; unit?: unknown };
  const unit = typeof o.unit === "string" ? o.unit : undefined;
  const v = typeof o.value === "string" && o.value.trim() !== "" ? Number(o.value) : o.value;
  if (typeof v === "number") return Number.isFinite(v) ? { value: v, unit } : null;
  if (Array.isArray(v)) return { value: v.filter((x): x is number => typeof x === "number"), unit };
  return null;
}
