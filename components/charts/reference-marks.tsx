"use client";

import { ReferenceLine } from "recharts";
import { formatMs } from "@/lib/format-number";

type LabelPosition = "top" | "insideTopLeft" | "insideTopRight" | "insideTop" | "right";

/** A dashed level or position with its name (a percentile, a capacity, a request-level figure). */
export function ReferenceMark({
  x,
  y,
  label,
  color = "var(--muted)",
  position,
  yAxisId,
}: {
  x?: number;
  y?: number;
  label: string;
  color?: string;
  position?: LabelPosition;
  yAxisId?: string;
}) {
  return (
    <ReferenceLine
      x={x}
      y={y}
      yAxisId={yAxisId ?? 0}
      stroke={color}
      strokeDasharray="4 2"
      label={{
        value: label,
        position: position ?? (x !== undefined ? "top" : "insideTopRight"),
        fill: color,
        fontSize: 11,
      }}
    />
  );
}

// Labels on alternating sides so close percentiles (p90 ≈ p99 in a tight run) stay readable:
// p50 and p75 above the plot, p90 and p99 inside its top edge, left and right of their lines.
const PERCENTILES = [
  { key: "p50", color: "var(--chart-5)", position: "top" },
  { key: "p75", color: "var(--chart-6)", position: "top" },
  { key: "p90", color: "var(--chart-3)", position: "insideTopLeft" },
  { key: "p99", color: "var(--chart-7)", position: "insideTopRight" },
] as const;

/**
 * The p50, p75, p90 and p99 of a distribution as vertical marks on its value axis. A payload
 * stored before p75 was kept has none, and draws no p75 mark rather than one at 0.
 */
export function PercentileMarks({
  at,
}: {
  at: Partial<Record<(typeof PERCENTILES)[number]["key"], number>>;
}) {
  return PERCENTILES.filter((m) => at[m.key] !== undefined).map((m) => (
    <ReferenceMark key={m.key} x={at[m.key]} label={m.key} color={m.color} position={m.position} />
  ));
}

/** Tooltip title of a histogram bin: its range, read from the row under the cursor. */
export function binRange(lo: string, hi: string, format: (v: number) => string) {
  return (_label: unknown, items: ReadonlyArray<{ payload?: unknown }>) => {
    const row = items[0]?.payload as Record<string, number> | undefined;
    return row ? `${format(row[lo])} – ${format(row[hi])}` : "";
  };
}

/** The x axis of a latency distribution: the value range, in ms. */
export function latencyAxis(dist: { min: number; max: number }, title: string, key: string) {
  return {
    key,
    numeric: true,
    domain: [dist.min, dist.max] as [number, number],
    title,
    unit: "ms",
    format: formatMs,
  };
}
