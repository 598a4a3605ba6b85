"use client";

import type { ReactNode } from "react";
import type { TimeRow } from "@/lib/metrics/server-metrics/chart-rows";
import { ChartContainer, type SeriesConfig } from "./chart-container";
import { ReferenceMark } from "./reference-marks";
import type { FigureDefinition } from "./definitions";

export interface TimeLinesProps {
  title: string;
  description: ReactNode;
  exportName: string;
  /** What is missing and how to get it, said when no interval has a value. */
  missing: ReactNode;
  rows: TimeRow[];
  series: SeriesConfig;
  /** Title of the value axis. */
  yTitle: string;
  unit?: string;
  /** Stacked areas instead of lines (parts of a whole, e.g. prompt tokens by source). */
  stacked?: boolean;
  reference?: { y: number; label: string };
  yMax?: number;
  /** Which window, requests and method (definitions.ts) */
  definition?: FigureDefinition;
}

/** Lines (or stacked areas) over seconds from the first interval; gaps stay gaps. */
export function TimeLines({
  rows,
  series,
  yTitle,
  unit,
  stacked,
  reference,
  yMax,
  ...frame
}: TimeLinesProps) {
  const withUnit = unit === "%" ? "%" : unit ? ` ${unit}` : undefined;
  // Ticks carry short units only; a long one ("tokens") is in the axis title, not on every tick.
  const tick = unit === "%" || unit === "GB/s" ? withUnit : undefined;
  const drawn = withinData(rows, Object.keys(series));
  const stackedSeries = stacked
    ? Object.fromEntries(Object.entries(series).map(([k, s]) => [k, { ...s, stack: "1" }]))
    : series;
  return (
    <ChartContainer
      {...frame}
      csvRows={() => rows}
      kind={stacked ? "area" : "line"}
      data={drawn}
      series={Object.fromEntries(
        Object.entries(stackedSeries).map(([k, s]) => [k, { unit: withUnit, ...s }]),
      )}
      x={{
        key: "t",
        numeric: true,
        title: "time from the first interval",
        unit: "s",
        tickUnit: " s",
        // Ticks at the data's edges are raw interval times: round them for people (never "41.032521216 s").
        format: secondsTick,
      }}
      y={{ title: yTitle, unit, tickUnit: tick, domain: [0, yMax ?? "auto"] }}
      legend
    >
      {reference ? <ReferenceMark y={reference.y} label={reference.label} /> : null}
    </ChartContainer>
  );
}

/**
 * The rows from the first to the last with a value of a drawn series: intervals where none has
 * one (a gauge exported for half the run) stretched the time axis past the data.
 */
function withinData(rows: TimeRow[], keys: readonly string[]): TimeRow[] {
  const has = (r: TimeRow) => keys.some((k) => typeof r[k] === "number");
  const first = rows.findIndex(has);
  if (first < 0) return rows;
  let last = rows.length - 1;
  while (!has(rows[last])) last--;
  return rows.slice(first, last + 1);
}

/** A time tick in seconds to one decimal at most. */
function secondsTick(v: number): string {
  return String(Math.round(v * 10) / 10);
}
