// aiperf metric values in canonical units (docs/formats.md §aiperf records). Plain JavaScript
// so that the aiperf parse thread (lib/ingest/aiperf-parse-worker.mjs), which runs without a
// TypeScript loader, reads values exactly as every other reader; re-exported with types by
// aiperf-units.ts.

/** Factors to milliseconds by unit name */
export const TO_MS = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  sec: 1000,
  seconds: 1000,
};

/** Converts a duration to milliseconds; a missing unit is taken as already-ms (aiperf's display unit). */
export function toMs(value, unit) {
  if (unit === undefined) return value;
  const factor = TO_MS[unit.trim()];
  return factor === undefined ? value : value * factor;
}

/**
 * A scalar metric in canonical units (time → ms); null when absent or not a number. What
 * `readMetric` would read, without its intermediate object: this runs several times per record.
 */
export function metricNumber(raw) {
  if (typeof raw === "number") return Number.isFinite(raw) ? raw : null;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return null;
  const v = typeof raw.value === "string" && raw.value.trim() !== "" ? Number(raw.value) : raw.value;
  if (typeof v !== "number" || !Number.isFinite(v)) return null;
  return toMs(v, typeof raw.unit === "string" ? raw.unit : undefined);
}
