"use client";

import { ChartContainer } from "@/components/charts/chart-container";
import { formatCount } from "@/lib/format-number";
import type { TurnsPayload } from "@/lib/api/turns";
import { turnCountRows } from "@/lib/metrics/turn-chart-rows";

/** Requests of each turn index, stacked by outcome: successful, failed, cancelled. */
export function ChartBarTurnRequests({ data }: { data: TurnsPayload }) {
  const rows = turnCountRows(data);
  const anyFailed = rows.some((r) => r.errors > 0 || r.cancelled > 0);
  return (
    <ChartContainer
      title="Requests by turn"
      description={
        anyFailed
          ? "profiling requests of each turn: successful, failed and cancelled (stacked)"
          : "profiling requests of each turn; none failed or was cancelled"
      }
      definition={{
        window: "profiling phase, by aiperf's turn_index",
        requests: "every profiling request of the turn (warm-up excluded)",
        method: "counts of aiperf's records; an error is a record with an error that was not cancelled",
      }}
      exportName="turns-requests"
      missing="No profiling request carries a turn index."
      kind="bar"
      data={rows}
      csv={{ turn: "label", successful: "ok", errors: "errors", cancelled: "cancelled" }}
      series={{
        ok: { label: "successful", color: "var(--chart-1)", stack: "n" },
        ...(anyFailed
          ? {
              errors: { label: "errors", color: "var(--chart-7)", stack: "n" },
              cancelled: { label: "cancelled", color: "var(--chart-3)", stack: "n" },
            }
          : {}),
      }}
      x={{ key: "label", title: "turn index" }}
      y={{ title: "requests", integers: true }}
      tooltip={{ label: (t) => `turn ${String(t)}`, value: (v) => formatCount(v) }}
    />
  );
}
