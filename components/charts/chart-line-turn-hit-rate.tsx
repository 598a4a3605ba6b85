"use client";

import { ChartContainer } from "@/components/charts/chart-container";
import { formatNumber } from "@/lib/format-number";
import { possibleReuseMethod, type TurnsPayload } from "@/lib/api/turns";
import { turnRateRows } from "@/lib/metrics/turn-chart-rows";
import { ReferenceMark } from "./reference-marks";

/**
 * Per turn, the share of prompt tokens served from cache (the server's usage) beside the share an
 * earlier turn of the same conversation made reusable (the ceiling).
 */
export function ChartLineTurnHitRate({ data }: { data: TurnsPayload }) {
  const rows = turnRateRows(data);
  const pct = (v: number) => `${formatNumber(v, 1)}%`;
  return (
    <ChartContainer
      // Without served-from-cache counts the chart plots only the ceiling: its title says so.
      title={data.cachedKnown ? "Cache hit rate by turn" : "Possible prefix reuse by turn"}
      description={
        data.cachedKnown
          ? "% of each turn's prompt tokens served from cache, beside the % an earlier turn made reusable"
          : "% of each turn's prompt tokens an earlier turn made reusable; served-from-cache not recorded"
      }
      definition={{
        window: "profiling phase, by aiperf's turn_index",
        requests: "successful profiling requests of the turn",
        method: `Σ cached / Σ prompt tokens (usage_prompt_cache_read_tokens); possible: Σ min(prompt, ${possibleReuseMethod(data)}) / Σ prompt`,
      }}
      exportName={data.cachedKnown ? "turns-hit-rate" : "turns-possible-reuse"}
      missing="No turn has prompt tokens with cached or reusable counts."
      kind="line"
      data={rows}
      csv={{ turn: "label", "hit rate %": "hitPct", "possible %": "possiblePct" }}
      series={{
        ...(data.cachedKnown
          ? { hitPct: { label: "served from cache", color: "var(--chart-5)", dots: true } }
          : {}),
        possiblePct: { label: "possible (ceiling)", color: "var(--chart-8)", dots: true },
      }}
      x={{ key: "turn", title: "turn (0 = first)", numeric: true, integers: true }}
      y={{ title: "prompt tokens", unit: "%", domain: [0, 100], ticks: [0, 25, 50, 75, 100] }}
      tooltip={{ label: (t) => `turn ${String(t)}`, value: (v) => pct(v) }}
    >
      {data.theoreticalHitRate !== null ? (
        <ReferenceMark y={data.theoreticalHitRate * 100} label="aiperf theoretical (run)" />
      ) : null}
    </ChartContainer>
  );
}
