"use client";

import { ChartContainer } from "@/components/charts/chart-container";
import { stackEnd } from "@/components/charts/plot-parts";
import { useNarrow } from "@/components/charts/use-narrow";
import { formatCount } from "@/lib/format-number";
import type { TurnsPayload } from "@/lib/api/turns";
import { labelledBandPx, labelLinePx, labelRoomPx, labelsFitAbove, PLOT_PX } from "@/lib/metrics/bar-labels";
import { turnCountRows } from "@/lib/metrics/turn-chart-rows";

/** Requests of each turn index, stacked by outcome: successful, failed, cancelled; each turn's count written past its bar. */
export function ChartBarTurnRequests({ data }: { data: TurnsPayload }) {
  const narrow = useNarrow();
  const rows = turnCountRows(data).map((r) => ({ ...r, requests: r.ok + r.errors + r.cancelled }));
  const anyFailed = rows.some((r) => r.errors > 0 || r.cancelled > 0);
  const texts = rows.map((r) => formatCount(r.requests));
  // Each turn's count above its column when every count fits its column's width; else (many
  // turns, a phone) the turns run down the side, one row each, the count to the right.
  const sideways = !labelsFitAbove(narrow ? PLOT_PX.narrow : PLOT_PX.wide, rows.length, 1, texts);
  const requestsAxis = { title: "requests", integers: true };
  const turnAxis = { key: "label", title: "turn (0 = first)" };
  const band = (s: string) => ({ stack: "n", minLength: true, format: formatCount, label: s });
  return (
    <ChartContainer
      title="Requests by turn"
      description={
        anyFailed
          ? "profiling requests of each turn: successful, failed and cancelled (stacked), the turn's count at the bar's end"
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
      horizontal={sideways}
      data={rows}
      csv={{ turn: "label", successful: "ok", errors: "errors", cancelled: "cancelled" }}
      series={{
        ok: { ...band("successful"), color: "var(--chart-1)" },
        ...(anyFailed
          ? {
              errors: { ...band("errors"), color: "var(--chart-7)" },
              cancelled: { ...band("cancelled"), color: "var(--chart-3)" },
            }
          : {}),
        end: stackEnd("n", "requests", formatCount),
      }}
      {...(sideways
        ? {
            // A row per turn, each named (a tick's line and gap) and its count a line of its own.
            height: Math.max(200, Math.max(22, labelledBandPx(1)) * rows.length + 70),
            marginRight: labelRoomPx(texts),
            x: requestsAxis,
            y: { ...turnAxis, width: 72, everyTick: true },
          }
        : { marginTop: labelLinePx(), x: turnAxis, y: requestsAxis })}
      tooltip={{ label: (t) => `turn ${String(t)}`, value: (v) => formatCount(v) }}
    />
  );
}
