import {
  formatBytesPerSecond,
  formatCount,
  formatMs,
  formatNumber,
  formatPoints,
  formatRate,
  plural,
} from "@/lib/format-number";

/** A compared value in its metric's unit. */
export function formatValue(v: number | null, unit: string): string {
  if (v === null) return "—";
  switch (unit) {
    case "ms":
      return formatMs(v);
    case "ratio":
      return formatRate(v);
    case "B/s":
      return formatBytesPerSecond(v);
    case "tokens":
      return formatCount(v);
    case "GPU":
      return plural(v, "GPU");
    case "pp":
      return formatPoints(v);
    default:
      return `${formatNumber(v)} ${unit}`;
  }
}

/** An absolute change: ratios change by percentage points, not percent. */
export function formatChange(v: number | null, unit: string): string {
  if (v === null) return "—";
  const sign = v > 0 ? "+" : v < 0 ? "−" : "±";
  if (unit === "ratio" || unit === "pp")
    return `${sign}${formatNumber(Math.abs(unit === "pp" ? v : v * 100), 1)} pp`;
  return `${sign}${formatValue(Math.abs(v), unit)}`;
}

/** A relative change; `compact` drops the decimal from 10% up (a table cell of eight runs). */
export function formatPercent(p: number | null, compact = false): string {
  if (p === null) return "";
  const sign = p > 0 ? "+" : p < 0 ? "−" : "±";
  return `${sign}${formatNumber(Math.abs(p) * 100, compact && Math.abs(p) >= 0.1 ? 0 : 1)}%`;
}
