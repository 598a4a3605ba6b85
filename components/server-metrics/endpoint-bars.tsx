"use client";

import { ChartContainer } from "@/components/charts/chart-container";
import type { EndpointBarRow } from "@/lib/metrics/server-metrics/chart-rows";

export interface EndpointBarsProps {
  title: string;
  description: string;
  rows: EndpointBarRow[];
  exportName: string;
  /** What is missing and how to get it, said when no endpoint has the metric. */
  missing: string;
  /** Axis and tooltip text of a value. */
  format: (v: number) => string;
  /** Title of the value axis, with its unit. */
  valueTitle: string;
  domainMax?: number;
}

/** One bar per endpoint, coloured by its role (--role-* variables). */
export function EndpointBars({ rows, format, valueTitle, domainMax, ...frame }: EndpointBarsProps) {
  return (
    <ChartContainer<EndpointBarRow>
      {...frame}
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
        },
      }}
      x={{ title: valueTitle, format, domain: [0, domainMax ?? "auto"] }}
      y={{ key: "endpoint", width: 150 }}
      tooltip={{ value: (v, _k, r) => [format(v), r.role] }}
    />
  );
}
