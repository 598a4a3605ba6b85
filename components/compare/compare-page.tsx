"use client";

import { useQuery } from "@tanstack/react-query";
import { useOptimistic } from "react";
import { useQueryStates } from "nuqs";
import { ChartBarCompareSegments } from "@/components/charts/chart-bar-compare-segments";
import { ChartTransitionScope, useChartTransition } from "@/components/charts/chart-pending";
import { ChartSourceProvider } from "@/components/charts/export-context";
import { CopyLinkButton } from "@/components/run/copy-link-button";
import { compareQueryOptions } from "@/lib/api/compare-query-options";
import { COMPARE_STATS, type CompareStat } from "@/lib/api/compare-schemas";
import { ComparabilityPanel } from "./comparability-panel";
import { CollectorWarning } from "./collector-warning";
import { CollectorsTable } from "./collectors-table";
import { useCompareBasket } from "./compare-basket";
import { CompareCdf } from "./compare-cdf";
import { CompareReuse } from "./compare-reuse";
import { CompareReuseLedger } from "./compare-reuse-ledger";
import { CompareRouterLog } from "./compare-router-log";
import { CompareTurns } from "./compare-turns";
import { CompareMetricCharts } from "./compare-metric-charts";
import { CompareRunList } from "./compare-run-list";
import { DeltaTable } from "./delta-table";
import { LeftOutLine } from "./left-out-line";
import { RunPicker } from "./run-picker";
import { runColor } from "./run-colors";
import { CompareReportLink } from "./compare-report-link";
import { NoiseBaselinePicker } from "./noise-baseline-picker";
import { compareSearchParams } from "./search-params";

/** Runs against a baseline: every choice (runs, baseline, statistic, metric) is URL state. */
export function ComparePage() {
  const [{ runs, baseline, stat, noise, allowDifferent }] = useQueryStates(compareSearchParams);
  const query = useQuery(compareQueryOptions({ runs, baseline, stat, noise, allowDifferent }));
  // While the next comparison loads, the previous one stays up: every chart and the table say so.
  return (
    <ChartTransitionScope busy={query.isPlaceholderData}>
      <CompareBody />
    </ChartTransitionScope>
  );
}

function CompareBody() {
  const [{ runs, baseline, stat, noise, allowDifferent, judge }, setState] =
    useQueryStates(compareSearchParams);
  const [, startTransition] = useChartTransition();
  const setParams = (p: Parameters<typeof setState>[0]) => startTransition(() => void setState(p));
  // The baseline radio is controlled: it shows the choice at once while the URL and the deltas follow.
  const [shownBaseline, showBaseline] = useOptimistic(baseline);
  const query = useQuery(compareQueryOptions({ runs, baseline, stat, noise, allowDifferent }));
  const pending = query.isPlaceholderData;
  const data = query.data;
  const basket = useCompareBasket();
  // Choosing runs, in the picker or by removing one, is a step Back undoes (search-params.ts).
  const choose = (ids: string[]) =>
    void setParams({
      runs: ids.length ? ids : null,
      baseline: baseline && !ids.includes(baseline) ? null : baseline || null,
    });

  if (runs.length === 0)
    return (
      <div className="space-y-3">
        <h1 className="text-xl font-semibold">Compare runs</h1>
        <p className="text-sm text-muted">
          No runs chosen yet: tick two or more below, or use “Compare selected” in the runs table or a
          run&apos;s “Add to compare”.
        </p>
        {basket.ids.length > 0 ? (
          <button type="button" className="btn" onClick={() => choose(basket.ids)}>
            Compare the {basket.ids.length} run{basket.ids.length === 1 ? "" : "s"} added from run pages
          </button>
        ) : null}
        <RunPicker chosen={runs} onChange={choose} />
      </div>
    );

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="mr-auto text-xl font-semibold">Compare runs</h1>
        <label className="flex items-center gap-2 text-sm">
          Statistic
          <select
            className="input py-1"
            aria-label="Statistic"
            data-testid="stat-picker"
            value={stat}
            onChange={(e) =>
              void setParams({ stat: e.target.value === "p50" ? null : (e.target.value as CompareStat) })
            }
          >
            {COMPARE_STATS.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <NoiseBaselinePicker noise={noise} onChange={(n) => void setParams({ noise: n || null })} />
        <CompareReportLink params={{ runs, baseline, stat, noise, allowDifferent }} />
        <CopyLinkButton />
      </div>
      {query.isError ? (
        <p className="text-sm text-danger">Could not load the comparison: {query.error.message}</p>
      ) : null}
      {!data ? (
        query.isLoading ? (
          <p className="text-sm text-muted">Loading…</p>
        ) : null
      ) : (
        <>
          <CompareRunList
            data={data}
            baseline={shownBaseline}
            onBaseline={(id) =>
              startTransition(() => {
                showBaseline(id);
                void setState({ baseline: id });
              })
            }
            onRemove={(id) => choose(runs.filter((r) => r !== id))}
          />
          <RunPicker chosen={runs} onChange={choose} />
          <ComparabilityPanel data={data} onAccept={(a) => void setParams({ allowDifferent: a || null })} />
          <CollectorWarning data={data} />
          <CollectorsTable runs={data.runs} />
          {data.runs.length < 2 ? (
            <p className="text-sm text-muted">Add another run to compare against (“Add or remove runs”).</p>
          ) : null}
          <DeltaTable
            data={data}
            judge={judge}
            onJudge={(id) => void setParams({ judge: id })}
            pending={pending}
          />
          <LeftOutLine absent={data.absent} />
          {/* Compare charts name their files compare-…; the figure lists the runs. */}
          <ChartSourceProvider source={{ name: data.runs.map((r) => r.name).join(" · ") }}>
            <ChartBarCompareSegments runs={data.runs} stat={data.stat} />
            <CompareCdf data={data} />
            <CompareTurns data={data} />
            <CompareReuse data={data} />
            <CompareReuseLedger data={data} />
            <CompareRouterLog data={data} />
            <CompareMetricCharts
              data={data}
              runs={data.runs.map((r, i) => ({ id: r.id, name: r.name, color: runColor(i) }))}
            />
          </ChartSourceProvider>
        </>
      )}
    </div>
  );
}
