"use client";

import { useQueries } from "@tanstack/react-query";
import { ChartContainer } from "@/components/charts/chart-container";
import { DataTable } from "@/components/charts/data-table";
import { REUSE_PARTS } from "@/components/charts/reuse-series";
import type { CompareResponse } from "@/lib/api/compare-schemas";
import { runChartQueryOptions } from "@/lib/api/query-options";

import { formatCount, formatNumber } from "@/lib/format-number";
import { compareReuseDeltas, compareReuseRow, type CompareReuseRow } from "@/lib/metrics/turn-chart-rows";
import { distinctLabels } from "@/lib/metrics/short-labels";
import { AIPERF_CHARTS, REUSE_INTERVALS_CHART } from "@/lib/api/chart-catalog";

const pct = (v: number | null) => (v === null ? "not counted" : `${formatNumber(v, 1)}%`);
const pt = (d: number | null) => (d === null ? "" : `${d >= 0 ? "+" : ""}${formatNumber(d, 1)} pt`);
/** More served (any tier) is better, more recomputed is worse. */
const tone = (d: number | null, higherIsBetter: boolean) =>
  d === null || Math.abs(d) < 0.05 ? "text-muted" : d > 0 === higherIsBetter ? "text-ok" : "text-danger";

/**
 * Each compared multi-turn run's prompt tokens as one stacked bar (GPU cache, host/external
 * tier, reusable but recomputed, new) with its possible-reuse share beside it, and the change of
 * each part against the baseline (docs/metrics.md §Reuse per interval). A run with the engines'
 * counters is stacked from them; one with only the responses' usage from its turns.
 */
export function CompareReuse({ data }: { data: CompareResponse }) {
  const candidates = data.runs.filter((r) => data.chartKeys[r.id]?.includes(AIPERF_CHARTS.turns.key));
  const intervals = useQueries({
    queries: candidates.map((r) => ({
      ...runChartQueryOptions(r.id, REUSE_INTERVALS_CHART),
      enabled: data.chartKeys[r.id]?.includes(REUSE_INTERVALS_CHART.key) ?? false,
    })),
  });
  const turns = useQueries({
    queries: candidates.map((r) => runChartQueryOptions(r.id, AIPERF_CHARTS.turns)),
  });
  if (candidates.length === 0) return null;
  const rows: Array<CompareReuseRow & { name: string }> = candidates.flatMap((r, i) => {
    const row = compareReuseRow(r.id, intervals[i]?.data ?? null, turns[i]?.data ?? null);
    return row ? [{ ...row, name: r.name }] : [];
  });
  const baseline = rows.some((r) => r.runId === data.baseline) ? data.baseline : (rows[0]?.runId ?? "");
  const deltas = compareReuseDeltas(rows, baseline);
  const short = distinctLabels(
    rows.map((r) => r.name),
    20,
    26,
  );
  const bars = rows.map((r, i) => ({
    ...r,
    axis: short[i],
    external: r.externalPct ?? 0,
  }));
  const full = new Map(bars.map((r) => [r.axis, r.name]));
  const anyExternal = rows.some((r) => r.externalPct !== null);
  return (
    <section className="space-y-2" data-testid="compare-reuse">
      <ChartContainer
        title="Achieved vs possible reuse"
        description="each run's prompt tokens by where they came from, in % of its prompt tokens; the bar under it is the possible reuse"
        definition={{
          window: "each run's profiling phase",
          requests:
            "per-interval counters where the run has them, else successful requests with cached and possible tokens",
          method:
            "GPU and host/external: the engines' counters (or the responses' cached tokens, any tier); recomputed = possible − served; new = the rest",
        }}
        exportName="compare-reuse"
        missing="No compared run has both cached and possible-reuse tokens: upload aiperf's server metrics export, or records with usage_prompt_cache_read_tokens."
        height={Math.max(176, 76 + bars.length * 48)}
        kind="bar"
        horizontal
        data={bars}
        csv={{
          run: "name",
          source: "source",
          "prompt (tok)": "promptTokens",
          "gpu %": "gpuPct",
          "host/external %": "externalPct",
          "recomputed reusable %": "recomputedPct",
          "new %": "newPct",
          "possible %": "possiblePct",
          "possible served %": "achievedPct",
        }}
        series={{
          gpuPct: { ...REUSE_PARTS.gpu, stack: "s" },
          ...(anyExternal ? { external: { ...REUSE_PARTS.external, stack: "s" } } : {}),
          recomputedPct: { ...REUSE_PARTS.recomputed, stack: "s" },
          newPct: { ...REUSE_PARTS.fresh, stack: "s" },
          // Its own bar under the stack: the ceiling the served parts reach toward.
          possiblePct: { label: "possible reuse (ceiling)", color: "var(--chart-1)", stack: "c" },
        }}
        x={{ title: "share of prompt tokens", unit: "%", domain: [0, 100] }}
        y={{ key: "axis", width: 140, fullName: (l) => full.get(l) ?? l }}
        tooltip={{ label: (l) => full.get(String(l)) ?? String(l), value: (v) => pct(v) }}
        legend
      />
      {rows.length > 1 ? (
        <div className="rounded-lg border border-border bg-card">
          <DataTable
            testId="compare-reuse-deltas"
            caption={`reuse of each run against ${rows.find((r) => r.runId === baseline)?.name ?? ""}`}
            rows={rows}
            rowKey={(r) => r.runId}
            columns={[
              { header: "run", cell: (r) => (r.runId === baseline ? `${r.name} (baseline)` : r.name) },
              {
                header: "from",
                cell: (r) =>
                  r.source === "intervals" ? "engines' counters" : "responses' usage (tiers not told apart)",
              },
              { header: "prompt tokens", num: true, cell: (r) => formatCount(r.promptTokens) },
              ...(
                [
                  ["GPU cache", "gpuPct"],
                  ["host / external", "externalPct"],
                  ["reusable, recomputed", "recomputedPct"],
                  ["possible served", "achievedPct"],
                ] as const
              ).map(([header, k]) => ({
                header,
                num: true,
                cell: (r: CompareReuseRow) => (
                  <>
                    {pct(r[k])}{" "}
                    <span className={`text-xs ${tone(deltas[r.runId]?.[k] ?? null, k !== "recomputedPct")}`}>
                      {pt(deltas[r.runId]?.[k] ?? null)}
                    </span>
                  </>
                ),
              })),
            ]}
          />
        </div>
      ) : null}
    </section>
  );
}
