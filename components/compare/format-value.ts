import {
  formatBytesPerSecond,
  formatCount,
  formatFigure,
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
      // A throughput at its figure's decimals everywhere (194.51 tok/s, 0.973 req/s).
      return `${formatFigure(v, unit)} ${unit}`;
  }
}

/** Units a value writes itself (a percent, a byte rate that picks its own prefix, a GPU count). */
const SELF_UNITS = new Set(["ratio", "pp", "B/s", "GPU"]);

/**
 * A compared value without its unit, for a table whose row names carry the unit once (the compare
 * deltas at many runs); `unitOfRow` gives that unit, or "" when the value writes its own.
 */
export function formatBare(v: number | null, unit: string): string {
  if (v === null) return "—";
  if (SELF_UNITS.has(unit)) return formatValue(v, unit);
  if (unit === "ms") return v.toLocaleString("en-US", { maximumFractionDigits: Math.abs(v) < 10 ? 3 : 1 });
  if (unit === "tokens") return formatCount(v);
  return formatFigure(v, unit);
}

export const unitOfRow = (unit: string): string => (SELF_UNITS.has(unit) ? "" : unit);

/** An absolute change: ratios change by percentage points, not percent. */
export function formatChange(v: number | null, unit: string): string {
  if (v === null) return "—";
  const sign = v > 0 ? "+" : v < 0 ? "−" : "±";
  if (unit === "ratio" || unit === "pp")
    return `${sign}${formatNumber(Math.abs(unit === "pp" ? v : v * 100), 1)} pp`;
  return `${sign}${formatValue(Math.abs(v), unit)}`;
}

/**
 * A relative change; `compact` drops the decimal from 10% up (a table cell of eight runs). Under
 * 0.1% one significant digit ("+0.04%", not "+0.0407%").
 */
export function formatPercent(p: number | null, compact = false): string {
  if (p === null) return "";
  const sign = p > 0 ? "+" : p < 0 ? "−" : "±";
  const pct = Math.abs(p) * 100;
  const text =
    pct !== 0 && pct < 0.1
      ? pct.toLocaleString("en-US", { maximumSignificantDigits: 1 })
      : formatNumber(pct, compact && pct >= 10 ? 0 : 1);
  return `${sign}${text}%`;
}
