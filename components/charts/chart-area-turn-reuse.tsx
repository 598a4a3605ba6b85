"use client";

import { ChartContainer } from "@/components/charts/chart-container";
import { reuseAreaSeries } from "@/components/charts/reuse-series";
import { formatNumber } from "@/lib/format-number";
import { possibleReuseMethod, type TurnsPayload } from "@/lib/api/turns";
import { turnReuseRows } from "@/lib/metrics/turn-chart-rows";

/**
 * Achieved vs possible reuse per turn: each turn's mean prompt stacked as served from cache,
 * reusable but recomputed, and new to the conversation, with the possible-reuse ceiling drawn.
 */
export function ChartAreaTurnReuse({ data }: { data: TurnsPayload }) {
  const rows = turnReuseRows(data);
  const tok = (v: number) => `${formatNumber(v, 0)} tok`;
  return (
    <ChartContainer
      title="Achieved vs possible reuse by turn"
      description="mean prompt tokens per request of each turn, by where they came from; the line is the possible reuse"
      definition={{
        window: "profiling phase, by aiperf's turn_index",
        requests: "successful profiling requests with prompt, cached and reusable tokens known",
        method: `cached: the server's usage_prompt_cache_read_tokens (any tier; per-request usage does not say which); possible: ${possibleReuseMethod(data)}, capped at the prompt; recomputed = possible − cached; new = the rest`,
      }}
      exportName="turns-reuse"
      missing={
        data.cachedKnown
          ? "No turn has prompt, cached and reusable tokens all known."
          : "Served-from-cache tokens are not recorded: aiperf writes usage_prompt_cache_read_tokens when the server returns usage.prompt_tokens_details.cached_tokens (vLLM: --enable-prompt-tokens-details)."
      }
      kind="area"
      data={rows}
      csv={{
        turn: "label",
        requests: "requests",
        "cached (mean tok)": "cached",
        "recomputed reusable (mean tok)": "recomputed",
        "new (mean tok)": "fresh",
        "possible (mean tok)": "ceiling",
        "prompt (mean tok)": "prompt",
      }}
      series={reuseAreaSeries("cached", false)}
      x={{ key: "turn", title: "turn (0 = first)", numeric: true, integers: true }}
      y={{ title: "mean prompt", unit: "tokens" }}
      tooltip={{ label: (t) => `turn ${String(t)}`, value: (v) => tok(v) }}
    />
  );
}
