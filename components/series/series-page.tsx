"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useQueryStates } from "nuqs";
import { useState } from "react";
import { BAND_DRAWN_FROM, ChartLineSeriesTrend } from "@/components/charts/chart-line-series-trend";
import { ChartSourceProvider } from "@/components/charts/export-context";
import type { ComparabilityReport } from "@/lib/api/comparability-schema";
import { COMPARE_STATS, type CompareStat } from "@/lib/api/compare-schemas";
import type { SeriesDetail } from "@/lib/api/regression-schemas";
import { seriesQueryOptions } from "@/lib/api/series-query-options";
import { formatDateTime, plural } from "@/lib/format-number";
import { seriesMetric } from "@/lib/metrics/regression/catalog";
import { seriesSearchParams } from "./search-params";
import { SeriesGoodput } from "./series-goodput";
import { VerdictText, verdictWords } from "./verdict-text";

/** The trends a series page draws, in order: latency at the chosen statistic, then run-level figures. */
function trends(stat: CompareStat) {
  const aiperf = "Upload aiperf profile_export.jsonl with each run for per-request latency.";
  const serverMetrics = "upload the server's metrics export with each run.";
  const lines: Array<[id: string, missing: string]> = [
    [`ttft.${stat}`, `No run has TTFT. ${aiperf}`],
    [`itl.${stat}`, `No run has ITL. ${aiperf}`],
    [`e2e.${stat}`, `No run has E2E latency. ${aiperf}`],
    [`server_ttft.${stat}`, "No run has TensorRT-LLM perf metrics (return_perf_metrics)."],
    ["throughput", "No run has an output token throughput (aiperf profile_export_aiperf.json)."],
    ["cache_hit_rate", `No run has a cache hit rate: ${serverMetrics}`],
    ["kv_usage_peak", `No run has a KV usage gauge: ${serverMetrics}`],
  ];
  // Titles and units are the metric catalog's (lib/api/metric-catalog.ts), as in compare and the gate.
  return lines.flatMap(([id, missing]) => {
    const m = seriesMetric(id);
    return m ? [{ metric: id, title: m.label, unit: m.unit, missing }] : [];
  });
}

export function SeriesPage({ name }: { name: string }) {
  const [{ stat, window, slo, thresholds }, setParams] = useQueryStates(seriesSearchParams);
  // Stored figures and run-level verdicts first (the server rendered them); the latency verdicts,
  // a bootstrap over every run's requests, replace them when they arrive.
  const quick = useQuery(seriesQueryOptions(name, stat, window, "run", thresholds));
  const full = useQuery(seriesQueryOptions(name, stat, window, "all", thresholds));
  const fresh = full.data && !full.isPlaceholderData ? full.data : undefined;
  const query = fresh ? full : quick.data ? quick : full;
  const data = fresh ?? quick.data ?? full.data;
  const judging = !fresh && full.isFetching;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center gap-3">
        <h1 className="mr-auto text-xl font-semibold">
          Series <span className="font-mono">{name}</span>
        </h1>
        <label className="flex items-center gap-2 text-sm">
          Statistic
          <select
            className="input py-1"
            aria-label="Statistic"
            value={stat}
            onChange={(e) => void setParams({ stat: e.target.value as CompareStat })}
          >
            {COMPARE_STATS.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label className="flex items-center gap-2 text-sm">
          Judged against the last
          <select
            className="input py-1"
            aria-label="Window"
            value={window}
            onChange={(e) => void setParams({ window: Number(e.target.value) })}
          >
            {[3, 5, 10, 20].map((n) => (
              <option key={n} value={n}>
                {n} runs
              </option>
            ))}
          </select>
        </label>
        <ThresholdsField
          key={thresholds}
          value={thresholds}
          onApply={(v) => void setParams({ thresholds: v })}
        />
      </div>
      {thresholds ? (
        <p className="text-sm text-muted" data-testid="series-thresholds">
          Smallest changes that count, from this page&apos;s link: {thresholds.split(",").join(", ")}; every
          other metric at its default (5% for latency, 3% for throughput).
        </p>
      ) : null}
      {query.isError ? (
        <p className="text-sm text-danger">Could not load the series: {query.error.message}</p>
      ) : null}
      {!data ? (
        query.isLoading ? (
          <p className="text-sm text-muted">Loading…</p>
        ) : null
      ) : (
        <SeriesBody
          data={data}
          judging={judging}
          judgeError={full.isError ? full.error.message : null}
          slo={slo}
          onSlo={(v) => void setParams({ slo: v })}
        />
      )}
    </div>
  );
}

/** How the runs are ordered, in words: by the uploader's order key, or by upload time. */
function ordering(data: SeriesDetail): string {
  const keyed = data.runs.filter((r) => r.order !== null);
  if (keyed.length === 0)
    return `in upload order, ${formatDateTime(data.runs[0].createdAt)} to ${formatDateTime(data.runs.at(-1)!.createdAt)}`;
  const rest = data.runs.length - keyed.length;
  return `ordered by their order key, ${keyed[0].order} to ${keyed.at(-1)!.order}${rest > 0 ? ` (${rest} without one by upload time)` : ""}`;
}

function SeriesBody({
  data,
  judging,
  judgeError,
  slo,
  onSlo,
}: {
  data: SeriesDetail;
  judging: boolean;
  judgeError: string | null;
  slo: string;
  onSlo: (slo: string) => void;
}) {
  const last = data.runs.at(-1)!;
  const marked = data.runs.flatMap((r, i) =>
    r.verdicts
      .filter((v) => (v.verdict === "regressed" || v.verdict === "improved") && verdictWords(v) === v.verdict)
      .map((v) => ({ r, i, v })),
  );
  const present = trends(data.stat).filter((t) => data.runs.some((r) => r.metrics[t.metric] != null));
  return (
    <>
      <p className="text-sm text-muted">
        {data.runs.length} runs, {ordering(data)}. Each run is judged against the {data.window} runs before
        it: latency by a seeded bootstrap over their requests, run-level figures by the median absolute
        deviation of their values.
      </p>
      {data.judged === "run" ? (
        <p className="text-sm text-muted" role="status" data-testid="series-judging">
          {judgeError
            ? `Latency verdicts could not be reached: ${judgeError}`
            : judging
              ? "Judging latency against each run's requests (a bootstrap of every run): its marks appear when done."
              : "Latency is not judged yet."}
        </p>
      ) : null}
      <ChartSourceProvider source={{ name: data.name }}>
        <div className="grid gap-4 lg:grid-cols-2">
          {present.map((t) => (
            <ChartLineSeriesTrend key={t.metric} {...t} runs={data.runs} />
          ))}
        </div>
        <SeriesGoodput runs={data.runs} slo={slo} onSlo={onSlo} />
      </ChartSourceProvider>
      <section className="space-y-2" data-testid="series-marked">
        <h2 className="text-sm font-semibold">Regressions and improvements</h2>
        {marked.length === 0 ? (
          <p className="text-sm text-muted">No run of this series left its noise band.</p>
        ) : (
          <ul className="space-y-2 text-sm">
            {marked.map(({ r, i, v }) => (
              <li key={`${r.id}-${v.metric}`} className="rounded-lg border border-border bg-card p-2">
                <span className="mr-2">run {i + 1}:</span>
                <Link href={`/runs/${r.id}`} className="font-medium text-accent hover:underline">
                  {r.name}
                </Link>
                {r.commit ? <span className="ml-2 font-mono text-xs">{r.commit}</span> : null}
                <span className="ml-2">{v.label}:</span> <VerdictText v={v} />
                {i < BAND_DRAWN_FROM ? (
                  <span className="block text-xs text-muted" data-testid="series-unbanded">
                    Judged on the {plural(Math.min(i, data.window), "run")} before it, before the charts draw
                    a band (from run {BAND_DRAWN_FROM + 1}): not marked on them; its 95% interval is beside
                    the verdict.
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="space-y-2">
        <h2 className="text-sm font-semibold">
          Latest run:{" "}
          <Link href={`/runs/${last.id}`} className="text-accent hover:underline">
            {last.name}
          </Link>
        </h2>
        <SeriesComparability report={last.comparability ?? null} />
        {last.verdicts.length === 0 ? (
          last.comparability?.verdict === "not comparable" ? null : (
            <p className="text-sm text-muted">The first run of a series has nothing to be judged against.</p>
          )
        ) : (
          <table className="w-full text-sm" data-testid="series-latest">
            <tbody>
              {last.verdicts.map((v) => (
                <tr key={v.metric} className="border-t border-border align-top">
                  <td className="py-1 pr-3 font-medium">{v.label}</td>
                  <td className="py-1">
                    <VerdictText v={v} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}

/**
 * The verdicts' thresholds (`ttft.p99:5%,throughput:3%`), applied on Enter or when the field is
 * left; the server says what is wrong with a bad one.
 */
function ThresholdsField({ value, onApply }: { value: string; onApply: (v: string) => void }) {
  const [text, setText] = useState(value);
  const apply = () => {
    const v = text.replace(/\s+/g, "");
    if (v !== value) onApply(v);
  };
  return (
    <form
      className="flex items-center gap-2 text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        apply();
      }}
    >
      <label className="flex items-center gap-2">
        Thresholds
        <input
          className="input w-56 py-1 font-mono text-xs"
          aria-label="Thresholds"
          placeholder="ttft.p99:5%,throughput:3%"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onBlur={apply}
        />
      </label>
    </form>
  );
}

/**
 * The comparability doctor on the latest run against the run before it (docs/metrics.md
 * §Comparable runs): not comparable withholds its verdicts; caveats are listed above them.
 */
function SeriesComparability({ report }: { report: ComparabilityReport | null }) {
  if (!report || report.reasons.length === 0) return null;
  const refused = report.verdict === "not comparable";
  return (
    <div data-testid="series-comparability" data-verdict={report.verdict} className="text-sm">
      <p className={refused ? "text-danger" : "text-warn"}>
        {refused
          ? "Not comparable with the run before it: no verdicts."
          : "Comparable with the run before it, with caveats."}
      </p>
      <ul className="mt-1 list-disc pl-5">
        {report.reasons.map((r) => (
          <li key={r.name} className="break-words">
            {r.accepted ? "accepted: " : r.severity === "blocking" ? "" : "caveat: "}
            {r.label} {r.a} → <strong>{r.b}</strong>
            <span className="block text-xs text-muted">{r.evidence}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
