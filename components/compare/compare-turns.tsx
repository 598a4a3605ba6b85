"use client";

import { useQueries } from "@tanstack/react-query";
import { useQueryState } from "nuqs";
import { ChartContainer } from "@/components/charts/chart-container";
import { DataTable } from "@/components/charts/data-table";
import type { CompareResponse } from "@/lib/api/compare-schemas";
import { runChartQueryOptions } from "@/lib/api/query-options";
import { type TurnsPayload } from "@/lib/api/turns";
import { formatMs, formatNumber } from "@/lib/format-number";
import {
  compareTurnRows,
  TURN_COMPARE_METRIC_IDS,
  TURN_COMPARE_METRICS,
  type TurnCompareMetric,
} from "@/lib/metrics/turn-chart-rows";
import { runColor } from "./run-colors";
import { ChartPicker } from "./chart-picker";
import { compareSearchParams } from "./search-params";
import { AIPERF_CHARTS } from "@/lib/api/chart-catalog";

/**
 * Turn curves of the compared multi-turn runs on one axis (docs/metrics.md §Turns), and each
 * run's change against the baseline at every turn. Runs without a Turns payload are left out.
 */
export function CompareTurns({ data }: { data: CompareResponse }) {
  const [metric, setMetric] = useQueryState("turnMetric", compareSearchParams.turnMetric);
  const withTurns = data.runs
    .map((r, i) => ({ run: r, color: runColor(i) }))
    .filter(({ run }) => data.chartKeys[run.id]?.includes(AIPERF_CHARTS.turns.key));
  const results = useQueries({
    queries: withTurns.map(({ run }) => runChartQueryOptions(run.id, AIPERF_CHARTS.turns)),
  });
  if (withTurns.length === 0) return null;
  const loaded = withTurns.flatMap(({ run, color }, i) => {
    const payload: TurnsPayload | undefined = results[i]?.data;
    return payload ? [{ id: run.id, name: run.name, color, payload }] : [];
  });
  const m = TURN_COMPARE_METRICS[metric];
  const baseline = loaded.some((r) => r.id === data.baseline) ? data.baseline : (loaded[0]?.id ?? "");
  const rows = compareTurnRows(loaded, metric, baseline);
  const flat = rows.map((r) => ({ turn: r.turn, ...r.values }));
  const value = (v: number | null) =>
    v === null
      ? "—"
      : m.unit === "ms"
        ? formatMs(v)
        : m.unit === "%"
          ? `${formatNumber(v, 1)}%`
          : // A mean prompt length, as the run's facts write ISL (one decimal, its unit named).
            `${formatNumber(v, 1)} ${m.unit}`;
  const delta = (d: number | null) =>
    d === null
      ? ""
      : m.unit === "%"
        ? `${d >= 0 ? "+" : ""}${formatNumber(d, 1)} pt`
        : `${d >= 0 ? "+" : ""}${formatNumber(d * 100, 1)}%`;
  const tone = (d: number | null) =>
    d === null || m.direction === "neutral" || Math.abs(d) < 1e-9
      ? "text-muted"
      : d > 0 === (m.direction === "higher")
        ? "text-ok"
        : "text-danger";
  const picker = (
    <ChartPicker<TurnCompareMetric>
      label="Turn metric"
      value={metric}
      defaultValue="ttftP50"
      options={TURN_COMPARE_METRIC_IDS.map((id) => [id, TURN_COMPARE_METRICS[id].label] as const)}
      onPick={(v) => void setMetric(v)}
    />
  );
  const baseName = loaded.find((r) => r.id === baseline)?.name ?? "";
  return (
    <section className="space-y-2" data-testid="compare-turns">
      <ChartContainer
        title={`${m.label.charAt(0).toUpperCase()}${m.label.slice(1)} by turn`}
        description={`each multi-turn run's ${m.label} at every turn index`}
        definition={{
          window: "each run's profiling phase, by aiperf's turn_index",
          requests: "successful profiling requests of each turn",
          method:
            metric === "hitPct"
              ? "Σ cached / Σ prompt tokens of the turn (usage_prompt_cache_read_tokens)"
              : metric === "possiblePct"
                ? "Σ min(prompt, possible reuse) / Σ prompt tokens of the turn; possible: the previous turn's prompt + answer, or inputs.json's estimate on a run uploaded with it"
                : metric === "achievedPct"
                  ? "(Σ possible − Σ reusable but recomputed) / Σ possible tokens of the turn"
                  : "linear-interpolated percentiles and means of the turn's requests",
        }}
        exportName={`compare-turns-${metric}`}
        missing={`No compared run has ${m.label} by turn${metric === "hitPct" ? ": its records carry no usage_prompt_cache_read_tokens" : ""}.`}
        actions={picker}
        kind="line"
        data={flat}
        series={Object.fromEntries(loaded.map((r) => [r.id, { label: r.name, color: r.color, dots: true }]))}
        x={{ key: "turn", title: "turn (0 = first)", numeric: true, integers: true }}
        y={{ title: m.label, unit: m.unit, format: m.unit === "ms" ? formatMs : undefined }}
        tooltip={{ label: (t) => `turn ${String(t)}`, value: (v) => value(v) }}
        legend
      />
      {loaded.length > 1 ? (
        <div className="max-h-80 overflow-y-auto rounded-lg border border-border bg-card">
          <DataTable
            testId="compare-turns-deltas"
            caption={`${m.label} by turn, each run against ${baseName}`}
            rows={rows}
            rowKey={(r) => String(r.turn)}
            columns={[
              { header: "turn", num: true, cell: (r) => r.label },
              ...loaded.map((run) => ({
                header: run.id === baseline ? `${run.name} (baseline)` : run.name,
                num: true,
                cell: (r: (typeof rows)[number]) => (
                  <>
                    {value(r.values[run.id])}{" "}
                    <span className={`text-xs ${tone(r.deltas[run.id])}`}>{delta(r.deltas[run.id])}</span>
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
