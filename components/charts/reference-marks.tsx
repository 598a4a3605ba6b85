"use client";

import { ReferenceLine } from "recharts";
import { formatMs } from "@/lib/format-number";
import { MARK_LABEL, markLabelRows, markLabelSide, markRowsHeight } from "@/lib/api/figure-mark-rows";
import { CHART_MARGIN, LABEL_HALO } from "./chart-theme";

type Box = { x?: number; y?: number; width?: number; height?: number };

const FONT = MARK_LABEL.fontPx;
/** Rows of stacked labels, a little taller than the text's box so two rows never touch. */
const ROW_H = MARK_LABEL.rowPx;

/**
 * A label placed by hand from the line's box: the library's positions put a level's label on its
 * own line (struck through) and a position's label past the plot's right edge.
 * - a level (y): above the line, at the plot's right end;
 * - a position (x): on row `row`, on the side of the line away from the nearer plot edge
 *   (`side`); inside the plot's top, or, `above`, in the label rows over the plot (row 0 just
 *   above it), where no bar or line can be under it (the chart's top margin holds the rows).
 */
function markLabel(text: string, color: string, row: number, side: "left" | "right", above: boolean) {
  function MarkLabel({ viewBox }: { viewBox?: Box }) {
    const { x = 0, y = 0, width = 0 } = viewBox ?? {};
    const level = width > 0;
    const offset = MARK_LABEL.offsetPx;
    return (
      <text
        x={level ? x + width - 2 : side === "right" ? x + offset : x - offset}
        y={level ? y - 4 : above ? y - offset - row * ROW_H : y + FONT + row * ROW_H}
        textAnchor={level || side === "left" ? "end" : "start"}
        fontSize={FONT}
        fill={color}
        className="chart-mark-label"
        {...LABEL_HALO}
      >
        {text}
      </text>
    );
  }
  return MarkLabel;
}

/** A dashed level or position with its name (a percentile, a capacity, a request-level figure). */
export function ReferenceMark({
  x,
  y,
  label,
  color = "var(--muted)",
  row = 0,
  side = "right",
  above = false,
  yAxisId,
}: {
  x?: number;
  y?: number;
  label: string;
  color?: string;
  /** Row of a position's label from the plot's top (several positions side by side). */
  row?: number;
  /** Side of its line a position's label is on. */
  side?: "left" | "right";
  /** A position's label in the rows above the plot rather than inside its top. */
  above?: boolean;
  yAxisId?: string;
}) {
  return (
    <ReferenceLine
      x={x}
      y={y}
      yAxisId={yAxisId ?? 0}
      stroke={color}
      strokeDasharray="4 2"
      label={markLabel(label, color, row, side, above)}
    />
  );
}

// Close percentiles (p90 ≈ p99 in a tight run) used to print over each other ("p99p90"), and a
// name inside the plot sat on the tallest bar: the names go in the rows above the plot, staggered
// where they would meet (lib/api/figure-mark-rows.ts).
const PERCENTILES = [
  { key: "p50", color: "var(--chart-5)" },
  { key: "p75", color: "var(--chart-6)" },
  { key: "p90", color: "var(--chart-3)" },
  { key: "p99", color: "var(--chart-7)" },
] as const;

/**
 * Named vertical marks (a distribution's p50 … p99) with their names in the label rows above the
 * plot, right of the line in the axis's left half and left of it in the right half so none leaves
 * the plot. The chart's top margin must hold `markRowsHeight` of their rows (`markRowsRoom`).
 */
export function XMarks({
  marks,
  domain,
}: {
  marks: ReadonlyArray<{ x: number; label: string; color: string }>;
  /** The value axis's range, to tell which half of the plot a mark is in. */
  domain: readonly [number, number];
}) {
  const rows = markLabelRows(marks, domain);
  return marks.map((m, i) => (
    <ReferenceMark
      key={`${i}-${m.x}`}
      x={m.x}
      label={m.label}
      color={m.color}
      row={rows[i]}
      side={labelSide(m.x, domain)}
      above
    />
  ));
}

/**
 * The room beyond the shared top margin (chart-theme.ts) the label rows of `marks` need: the
 * rows, the gap to the plot and the text's ascent.
 */
export function markRowsRoom(
  marks: ReadonlyArray<{ x: number; label: string }>,
  domain: readonly [number, number],
) {
  if (marks.length === 0) return 0;
  return Math.max(0, markRowsHeight(markLabelRows(marks, domain)) + MARK_LABEL.offsetPx - CHART_MARGIN.top);
}

/** The p50, p75, p90 and p99 of a distribution as vertical marks on its value axis (XMarks). */
export function PercentileMarks({
  at,
  domain,
}: {
  at: Record<(typeof PERCENTILES)[number]["key"], number>;
  domain: readonly [number, number];
}) {
  return (
    <XMarks
      marks={PERCENTILES.map((m) => ({ x: at[m.key], label: m.key, color: m.color }))}
      domain={domain}
    />
  );
}

/**
 * The side of a vertical mark its label goes on so it stays in the plot: right of the line in the
 * x axis's left half, left of it in the right half (a label right of a line near the right edge
 * ran into the right axis's ticks on a phone).
 */
export const labelSide = markLabelSide;

/** Tooltip title of a histogram bin: its range, read from the row under the cursor. */
export function binRange(lo: string, hi: string, format: (v: number) => string) {
  return (_label: unknown, items: ReadonlyArray<{ payload?: unknown }>) => {
    const row = items[0]?.payload as Record<string, number> | undefined;
    return row ? `${format(row[lo])} – ${format(row[hi])}` : "";
  };
}

/**
 * The x axis of a latency distribution, in ms: the span of its bins, whose edges are round, so
 * the first and last bars are whole and the ticks fall on bin edges.
 */
export function latencyAxis(
  dist: { min: number; max: number; bins?: ReadonlyArray<{ start: number; end: number }> },
  title: string,
  key: string,
) {
  const lo = Math.min(dist.min, dist.bins?.[0]?.start ?? dist.min);
  const hi = Math.max(dist.max, dist.bins?.[dist.bins.length - 1]?.end ?? dist.max);
  return {
    key,
    numeric: true,
    domain: [lo, hi] as [number, number],
    title,
    unit: "ms",
    format: formatMs,
  };
}
