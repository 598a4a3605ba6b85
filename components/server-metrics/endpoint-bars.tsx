"use client";

import { useState } from "react";
import { ToggleGroup } from "@/components/breakdown/breakdown-controls";
import { ChartContainer } from "@/components/charts/chart-container";
import { VALUE_SCALES, type ValueScale } from "@/lib/api/trtllm-charts";
import { decadesSpanned, labelRoomPx, logFloor, wantsLogOption } from "@/lib/metrics/bar-labels";
import type { EndpointBarRow } from "@/lib/metrics/server-metrics/chart-rows";
import { shortLabels } from "@/lib/metrics/short-labels";
import type { FigureDefinition } from "@/components/charts/definitions";

export interface EndpointBarsProps {
  title: string;
  description: string;
  rows: EndpointBarRow[];
  exportName: string;
  /** What is missing and how to get it, said when no endpoint has the metric. */
  missing: string;
  /** Axis and tooltip text of a value. */
  format: (v: number) => string;
  /** A bar's value in its label and tooltip, when it differs from the axis's ticks (its own unit). */
  valueFormat?: (v: number) => string;
  /** Title of the value axis, with its unit. */
  valueTitle: string;
  domainMax?: number;
  /** A note after an endpoint's name (why a decode endpoint has no hit rate). */
  note?: (row: EndpointBarRow) => string | undefined;
  /** Which window, requests and method (definitions.ts) */
  definition?: FigureDefinition;
}

/** One bar per endpoint, coloured by its role (--role-* variables). */
export function EndpointBars({
  rows: byEndpoint,
  format,
  valueFormat = format,
  valueTitle,
  domainMax,
  note,
  description,
  ...frame
}: EndpointBarsProps) {
  const [scale, setScale] = useState<ValueScale>("linear");
  // Endpoint names on one line each, cut to fit; the full name is the tick's hover title.
  const short = shortLabels(
    byEndpoint.map((r) => r.endpoint),
    20,
  );
  // A note goes in the endpoint's label: a bar of no length draws no text beside it.
  const rows = byEndpoint.map((r, i) => {
    const n = note?.(r);
    return { ...r, axis: n ? `${short[i]} · ${n}` : short[i] };
  });
  const full = new Map(rows.map((r) => [r.axis, r.endpoint]));
  // Each bar's value is written to its right (lib/metrics/bar-labels.ts); values spanning decades
  // get a log axis on request, which starts below the smallest.
  const values = rows.map((r) => r.value);
  const offerLog = wantsLogOption(values);
  const log = offerLog && scale === "log";
  return (
    <ChartContainer<(typeof rows)[number]>
      {...frame}
      description={`${description}${
        offerLog && !log
          ? ` · values span ${Math.floor(decadesSpanned(values))} decades: try the log axis`
          : ""
      }`}
      actions={
        offerLog ? (
          <ToggleGroup
            label="value axis"
            options={VALUE_SCALES.map((s) => ({ id: s, text: s }))}
            value={scale}
            onChange={setScale}
          />
        ) : undefined
      }
      marginRight={labelRoomPx(values.map(valueFormat))}
      csvRows={() => rows.map((r) => ({ endpoint: r.endpoint, role: r.role, value: r.value }))}
      height={Math.max(236, 76 + rows.length * 28)}
      kind="bar"
      horizontal
      data={rows}
      series={{
        value: {
          label: valueTitle,
          color: "var(--muted)",
          cell: (r) => ({ fill: `var(--role-${r.role})`, "data-role": r.role }),
          format: valueFormat,
          valueLabels: true,
        },
      }}
      x={
        log
          ? { title: valueTitle, format, log: true, domain: [logFloor(values), domainMax ?? "auto"] }
          : { title: valueTitle, format, domain: [0, domainMax ?? "auto"] }
      }
      y={{ key: "axis", width: note ? 230 : 150, fullName: (l) => full.get(l) ?? l }}
      tooltip={{
        label: (l) => full.get(String(l)) ?? String(l),
        value: (v, _k, r) => [valueFormat(v), r.role],
      }}
    />
  );
}
