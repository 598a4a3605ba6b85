/**
 * aiperf writes metric values as `{value, unit}` (records, in display units) or, in hand-made and
 * older files, as bare numbers. Everything Runlens keeps is in one canonical unit per dimension:
 * durations in milliseconds, counts as they are. Unknown units pass through unchanged.
 */
const TO_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  sec: 1000,
  seconds: 1000,
};

/** Converts a duration to milliseconds; a missing unit is taken as already-ms (aiperf's display unit). */
export function toMs(value: number, unit: string | undefined): number {
  if (unit === undefined) return value;
  const factor = TO_MS[unit.trim()];
  return factor === undefined ? value : value * factor;
}

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

/**
 * A scalar metric in canonical units (time → ms); null when absent or not a number. What
 * `readMetric` would read, without its intermediate object: this runs several times per record.
 */
export function metricNumber(raw: unknown): number | null {
  if (typeof raw === "number") return Number.isFinite(raw) ? raw : null;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return null;
  const o = raw as { value?: unknown; unit?: unknown };
  const v = typeof o.value === "string" && o.value.trim() !== "" ? Number(o.value) : o.value;
  if (typeof v !== "number" || !Number.isFinite(v)) return null;
  return toMs(v, typeof o.unit === "string" ? o.unit : undefined);
}
