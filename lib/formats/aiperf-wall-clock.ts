/**
 * aiperf's `start_time` / `end_time` (summary and server-metrics export): written with
 * `datetime.fromtimestamp`, so local time of the aiperf host with no zone, to the microsecond.
 * Their difference is exact whatever the zone; placing them on the epoch clock is
 * lib/metrics/profiling-window.ts's job.
 */
const NS_PER_S = 1e9;

/**
 * `YYYY-MM-DDTHH:MM:SS[.ffffff][Z|±HH:MM]` → nanoseconds, read as UTC when the text names no
 * zone (`zoned: false`); null when it is not such a time. Parsed by hand: Date keeps only ms.
 */
export function wallClockNs(text: string): { ns: number; zoned: boolean } | null {
  const p = parts(text);
  return p && { ns: p.ms * 1e6 + p.subMsNs, zoned: p.zoned };
}

/** Whole UTC milliseconds and the nanoseconds below them, kept apart: a double holds 1.8e18 ns only to 256 ns. */
function parts(text: string): { ms: number; subMsNs: number; zoned: boolean } | null {
  const m = /^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:?\d\d)?$/.exec(
    text.trim(),
  );
  if (!m) return null;
  let ms = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
  if (!Number.isFinite(ms)) return null;
  const fraction = m[7] ? Number(m[7].padEnd(9, "0")) : 0;
  ms += Math.floor(fraction / 1e6);
  const zone = m[8];
  if (zone && zone !== "Z") {
    const sign = zone[0] === "-" ? -1 : 1;
    const digits = zone.slice(1).replace(":", "");
    ms -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  return { ms, subMsNs: fraction % 1e6, zoned: zone !== undefined };
}

/** Seconds from `start` to `end` of a summary, zone or not (both are on the same local clock). */
export function wallClockSpanS(start: unknown, end: unknown): number | null {
  if (typeof start !== "string" || typeof end !== "string") return null;
  const a = parts(start);
  const b = parts(end);
  if (!a || !b || a.zoned !== b.zoned) return null;
  const s = (b.ms - a.ms) / 1e3 + (b.subMsNs - a.subMsNs) / NS_PER_S;
  return s > 0 ? s : null;
}
