"use client";

import { ChartContainer } from "@/components/charts/chart-container";
import { reuseAreaSeries } from "@/components/charts/reuse-series";
import { formatNumber } from "@/lib/format-number";
import type { ReuseIntervalsPayload } from "@/lib/api/turns";
import { intervalReuseRows } from "@/lib/metrics/turn-chart-rows";

/**
 * Achieved vs possible reuse over time: each server-metrics interval's prompt tokens stacked as
 * served from GPU cache, from a host/CPU/external tier, reusable but recomputed, and new, with the
 * possible reuse of the interval's requests drawn as the ceiling (docs/metrics.md §Reuse per interval).
 */
export function ChartAreaIntervalReuse({
  data,
  actions,
}: {
  data: ReuseIntervalsPayload;
  actions?: React.ReactNode;
}) {
  const rows = intervalReuseRows(data);
  const rate = (v: number) => `${formatNumber(v, 0)} tok/s`;
  const possible =
    data.possibleSource === "inputs"
      ? "estimated from inputs.json (text shares scaled by each request's ISL)"
      : "the previous turn's prompt + answer, from the records";
  return (
    <ChartContainer
      title="Achieved vs possible reuse over time"
      description="prompt tokens per second of each scrape interval, by where the engines got them; the line is what the conversations' history made reusable"
      definition={{
        window: "profiling phase, per server-metrics interval",
        requests:
          "prompt tokens the engines counted; the ceiling: successful profiling requests with a known possible reuse whose first token fell in the interval",
        method: `GPU: ${data.servedSource}; host/external: ${data.externalSource ?? "not counted by these engines"}; possible: ${possible}; recomputed = possible − served (never below 0); new = the rest`,
      }}
      exportName="reuse-over-time"
      missing="No interval has both the engines' prompt-token counters and requests with a known possible reuse."
      actions={actions}
      kind="area"
      data={rows}
      csv={{
        "t (s)": "t",
        "duration (s)": "durationS",
        requests: "requests",
        "prompt (tok)": "promptTokens",
        "gpu cache (tok)": "gpuTokens",
        "host/external (tok)": "externalTokens",
        "reusable, recomputed (tok)": "recomputedTokens",
        "new (tok)": "newTokens",
        "possible (tok)": "possibleTokens",
      }}
      series={reuseAreaSeries("gpu", Boolean(data.externalSource))}
      x={{ key: "t", title: "time since first scrape", unit: "s", numeric: true }}
      y={{ title: "prompt tokens", unit: "tok/s" }}
      tooltip={{ label: (t) => `${formatNumber(Number(t), 0)} s`, value: (v) => rate(v) }}
    />
  );
}
