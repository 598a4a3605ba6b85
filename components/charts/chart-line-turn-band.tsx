"use client";

import { ChartContainer } from "@/components/charts/chart-container";
import { formatMs, formatNumber } from "@/lib/format-number";
import type { TurnsPayload } from "@/lib/api/turns";
import { turnBandRows, type TurnBandMetric } from "@/lib/metrics/turn-chart-rows";
import { TURNS_SUCCESSFUL } from "./definitions";

const METRICS: Record<TurnBandMetric, { title: string; what: string; unit: string; ms: boolean }> = {
  ttftMs: { title: "TTFT by turn", what: "time to first token", unit: "ms", ms: true },
  e2eMs: { title: "Latency by turn", what: "end-to-end request latency", unit: "ms", ms: true },
  inputTokens: { title: "Prompt length by turn", what: "input sequence length", unit: "tokens", ms: false },
  outputTokens: { title: "Output length by turn", what: "output sequence length", unit: "tokens", ms: false },
};

/** One metric of the successful requests of each turn index: p50, p90 and mean. */
export function ChartLineTurnBand({ data, metric }: { data: TurnsPayload; metric: TurnBandMetric }) {
  const m = METRICS[metric];
  const rows = turnBandRows(data, metric);
  const format = m.ms ? formatMs : (v: number) => `${formatNumber(v, 0)} tok`;
  const line = (label: string, color: string) => ({ label, color, dots: true, connectNulls: false });
  return (
    <ChartContainer
      title={m.title}
      description={`${m.what} of each turn's successful requests: p50, p90 and mean (dashed)`}
      definition={TURNS_SUCCESSFUL}
      exportName={`turns-${metric}`}
      missing={`No successful request of any turn recorded ${m.what}.`}
      kind="line"
      data={rows}
      csv={{ turn: "label", requests: "count", p50: "p50", p90: "p90", mean: "mean" }}
      series={{
        p50: line("p50", "var(--chart-1)"),
        p90: line("p90", "var(--chart-7)"),
        // Dashed and drawn last: where the mean sits on the p50 (a symmetric turn), the p50 shows
        // through the gaps instead of being hidden under it.
        mean: { ...line("mean", "var(--chart-5)"), dashed: true },
      }}
      x={{ key: "turn", title: "turn (0 = first)", numeric: true, integers: true }}
      y={{ title: m.ms ? "latency" : "length", unit: m.unit, format: m.ms ? formatMs : undefined }}
      tooltip={{ label: (t) => `turn ${String(t)}`, value: (v) => format(v) }}
    />
  );
}
