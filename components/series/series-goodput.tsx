"use client";

import { useQueries } from "@tanstack/react-query";
import { ChartLineSeriesTrend } from "@/components/charts/chart-line-series-trend";
import { GoodputSection } from "@/components/goodput/goodput-section";
import { runGoodputQueryOptions } from "@/lib/api/query-options";
import type { SeriesRun } from "@/lib/api/regression-schemas";
import { describeSlo, parseSlos } from "@/lib/api/slo";

/**
 * Goodput of every run of the series under the URL's SLOs (the sweep page's `slo` parameter and
 * form), from each run's goodput route: requests meeting every SLO, counted over all its requests.
 */
export function SeriesGoodput({
  runs,
  slo,
  onSlo,
}: {
  runs: SeriesRun[];
  slo: string;
  onSlo: (s: string) => void;
}) {
  const slos = parseSlos(slo);
  const active = slos !== null && slos.length > 0;
  const queries = useQueries({
    queries: runs.map((r) => ({ ...runGoodputQueryOptions(r.id, slo), enabled: active })),
  });
  const counted = queries.filter((q) => q.data).length;
  const failed = queries.flatMap((q, i) => (q.isError ? [`${runs[i].name}: ${q.error.message}`] : []));
  // The trend chart draws a run's `metrics`: goodput takes that place, without band or verdict.
  const rows: SeriesRun[] = runs.map((r, i) => ({
    ...r,
    metrics: { goodput: queries[i].data?.goodputReqPerS.value ?? null },
    bands: {},
    verdicts: [],
  }));
  return (
    <GoodputSection
      testId="series-goodput"
      slo={slo}
      slos={slos}
      onSlo={onSlo}
      unset="Set an SLO to see goodput: a TTFT, TPOT or E2E threshold, and each run's requests per second meeting it is drawn over the series."
    >
      {(set) =>
        counted < runs.length && failed.length === 0 ? (
          <p className="text-sm text-muted">
            Counting goodput from every request: {counted} of {runs.length} runs…
          </p>
        ) : (
          <>
            {failed.length > 0 ? (
              <p className="text-sm text-danger">Goodput could not be counted for {failed.join("; ")}</p>
            ) : null}
            <ChartLineSeriesTrend
              metric="goodput"
              title="Goodput"
              unit="req/s"
              runs={rows}
              judged={false}
              description={`Requests per second meeting ${set.map(describeSlo).join(", ")}, from every recorded request of each run, in series order`}
              missing="No run has per-request rows to count goodput from: upload aiperf's profile_export.jsonl (or TensorRT-LLM perf metrics) with each run."
            />
          </>
        )
      }
    </GoodputSection>
  );
}
