"use client";

import { useQueries } from "@tanstack/react-query";
import { useQueryState } from "nuqs";
import { ChartLineCompareRouterLog } from "@/components/charts/chart-line-compare-router-log";
import { DataTable } from "@/components/charts/data-table";
import type { CompareResponse } from "@/lib/api/compare-schemas";
import { runChartQueryOptions } from "@/lib/api/query-options";
import { ROUTER_LOG_HOW } from "@/lib/api/router-log";
import { formatCount, formatNumber, formatPoints } from "@/lib/format-number";
import {
  compareRouterLogDeltas,
  compareRouterLogRow,
  routerLogLinePoints,
  type CompareRouterLogKey,
  type CompareRouterLogRow,
  type RouterLogOverlay,
} from "@/lib/metrics/compare-router-log";
import { runColor } from "./run-colors";
import { ChartPicker } from "./chart-picker";
import { compareSearchParams } from "./search-params";
import { ROUTER_LOG_CHART } from "@/lib/api/chart-catalog";

const pct = (v: number | null) => (v === null ? "—" : `${formatNumber(v, 1)}%`);
const delta = (d: number | null) => (d === null ? "" : formatPoints(d));
/** Only delivered has a better direction: a higher prediction is not itself a gain, nor is a gap's sign. */
const tone = (d: number | null, k: CompareRouterLogKey) =>
  d === null || k !== "deliveredPct" || Math.abs(d) < 0.05 ? "text-muted" : d > 0 ? "text-ok" : "text-danger";

const COLUMNS: ReadonlyArray<[string, CompareRouterLogKey, (v: number | null) => string]> = [
  ["predicted (router log)", "predictedPct", pct],
  ["delivered (engines)", "deliveredPct", pct],
  ["gap", "gapPoints", formatPoints],
];

/**
 * The KV router's predicted hit rate beside the engines' delivered one, run by run
 * (docs/metrics.md §Predicted vs delivered across runs): an overlay over each run's time and the
 * run-level figures with their change against the baseline. A run without a router log is named
 * with how to get one, never drawn as 0.
 */
export function CompareRouterLog({ data }: { data: CompareResponse }) {
  const [overlay, setOverlay] = useQueryState("routerOverlay", compareSearchParams.routerOverlay);
  const colored = data.runs.map((run, i) => ({ run, color: runColor(i) }));
  const withLog = colored.filter(({ run }) => data.chartKeys[run.id]?.includes(ROUTER_LOG_CHART.key));
  const results = useQueries({
    queries: withLog.map(({ run }) => runChartQueryOptions(run.id, ROUTER_LOG_CHART)),
  });
  if (withLog.length === 0) return null;
  const without = colored.filter(({ run }) => !data.chartKeys[run.id]?.includes(ROUTER_LOG_CHART.key));
  const loaded = withLog.flatMap(({ run, color }, i) => {
    const payload = results[i]?.data;
    return payload ? [{ run, color, payload }] : [];
  });
  const rows: Array<CompareRouterLogRow & { name: string }> = loaded.map(({ run, payload }) => ({
    ...compareRouterLogRow(run.id, payload),
    name: run.name,
  }));
  const baseline = rows.some((r) => r.runId === data.baseline) ? data.baseline : (rows[0]?.runId ?? "");
  const deltas = compareRouterLogDeltas(rows, baseline);
  const picker = (
    <ChartPicker<RouterLogOverlay>
      label="Router log overlay"
      value={overlay}
      defaultValue="rates"
      options={[
        ["rates", "predicted and delivered"],
        ["gap", "gap (delivered − predicted)"],
      ]}
      onPick={(v) => void setOverlay(v)}
    />
  );
  const notes = loaded.filter(({ payload }) => payload.missing !== null);
  return (
    <section className="space-y-2" data-testid="compare-router-log">
      <ChartLineCompareRouterLog
        overlay={overlay}
        actions={picker}
        runs={loaded.map(({ run, color, payload }) => ({
          runId: run.id,
          run: run.name,
          color,
          points: routerLogLinePoints(payload),
        }))}
      />
      {rows.length > 0 ? (
        <div className="rounded-lg border border-border bg-card">
          <DataTable
            testId="compare-router-log-table"
            caption={`predicted and delivered hit rate of each run against ${rows.find((r) => r.runId === baseline)?.name ?? ""}`}
            rows={rows}
            rowKey={(r) => r.runId}
            rowAttrs={(r) => ({ "data-run": r.runId })}
            columns={[
              { header: "run", cell: (r) => (r.runId === baseline ? `${r.name} (baseline)` : r.name) },
              { header: "routing decisions", num: true, cell: (r) => formatCount(r.decisions) },
              ...COLUMNS.map(([header, k, format]) => ({
                header,
                num: true,
                attrs: () => ({ "data-stat": k }),
                cell: (r: CompareRouterLogRow) => (
                  <>
                    <span data-value="">{format(r[k])}</span>{" "}
                    <span className={`text-xs ${tone(deltas[r.runId]?.[k] ?? null, k)}`} data-delta="">
                      {delta(deltas[r.runId]?.[k] ?? null)}
                    </span>
                  </>
                ),
              })),
            ]}
          />
        </div>
      ) : null}
      {notes.map(({ run, payload }) => (
        <p key={run.id} className="text-xs text-muted">
          {run.name}: {payload.missing}
        </p>
      ))}
      {without.length > 0 ? (
        <p className="text-sm text-muted" data-testid="compare-router-log-absent">
          No router log in {without.map(({ run }) => `“${run.name}”`).join(", ")}: {ROUTER_LOG_HOW}, and
          upload the frontend&apos;s log with the run.
        </p>
      ) : null}
    </section>
  );
}
