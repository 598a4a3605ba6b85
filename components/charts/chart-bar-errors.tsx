"use client";

import type { z } from "zod";
import { ChartContainer } from "@/components/charts/chart-container";
import { plural } from "@/lib/format-number";
import type { errorsPayloadSchema } from "@/lib/api/aiperf-charts";

/** Failed profiling requests per error type. */
export function ChartBarErrors({ data }: { data: z.infer<typeof errorsPayloadSchema> }) {
  const rows = data.groups.map((g) => ({
    name: g.code !== null ? `${g.type} (${g.code})` : g.type,
    count: g.count,
  }));
  return (
    <ChartContainer
      title="Errors by type"
      description={`${plural(data.total, "failed profiling request")}, warm-up excluded`}
      definition={{
        window: "profiling phase",
        requests: "failed profiling requests, by error type and code",
      }}
      csvRows={() => rows}
      exportName="errors-by-type"
      height={Math.max(140, 40 * rows.length + 56)}
      kind="bar"
      horizontal
      data={rows}
      series={{ count: { label: "requests", color: "var(--chart-7)" } }}
      x={{ title: "failed requests", integers: true }}
      y={{ key: "name", width: 200 }}
    />
  );
}
