/**
 * Loads the runs of a comparison and computes everything the compare page shows that is not a
 * chart payload: deltas against the baseline, collector mismatches, hit rates side by side, and
 * each cell's noise-aware verdict.
 */
import type { CompareQuery, CompareResponse } from "@/lib/api/compare-schemas";
import type { RunSummary } from "@/lib/api/schemas";
import { collectorMismatches } from "@/lib/metrics/collectors-mismatch";
import { absentMetrics, compareRuns, type DeltaRow } from "@/lib/metrics/compare";
import { endpointHitRates, roleHitRates } from "@/lib/metrics/compare-endpoints";
import { metricForCompareRow, parseThresholds } from "@/lib/metrics/regression/catalog";
import type { Db } from "@/lib/store/db";
import { chartKeys } from "@/lib/store/runs-repo";
import { columnChartKeys } from "./column-charts";
import { readRunSummary } from "./read-run";
import { acceptedParam, type AcceptedDifferences } from "@/lib/api/comparability-schema";
import { diagnosePair, tokenCountsCache } from "./comparability";
import { judgeRun, NoBaselineError } from "./verdicts";

export async function loadComparison(db: Db, query: CompareQuery): Promise<CompareResponse> {
  const loaded = await Promise.all(query.runs.map((id) => readRunSummary(db, id)));
  const runs = loaded.filter((r): r is RunSummary => r !== null && r.status === "ready");
  const missing = query.runs.filter((id) => !runs.some((r) => r.id === id));
  const baseline = runs.find((r) => r.id === query.baseline)?.id ?? runs[0]?.id ?? "";
  const rows = compareRuns(runs, baseline, query.stat);
  const comparability = await compareComparability(db, runs, baseline, query.allowDifferent);
  // A run not comparable with the baseline gets numbers but no better/worse colour, unless accepted.
  for (const { runId, verdict } of comparability.runs)
    if (verdict === "not comparable")
      for (const row of rows)
        for (const cell of row.cells)
          if (cell.runId === runId && (cell.verdict === "better" || cell.verdict === "worse"))
            cell.verdict = "neutral";
  return {
    baseline,
    stat: query.stat,
    runs,
    missing,
    chartKeys: await runChartKeys(
      db,
      runs.map((r) => r.id),
    ),
    rows,
    absent: absentMetrics(runs, query.stat),
    collectorMismatches: collectorMismatches(runs),
    comparability,
    hitRates: { byEndpoint: endpointHitRates(runs), byRole: roleHitRates(runs) },
    noise: await addNoiseVerdicts(db, rows, runs, baseline, query),
  };
}

/** The doctor's report on every compared run against the baseline. */
async function compareComparability(
  db: Db,
  runs: RunSummary[],
  baselineId: string,
  accept: AcceptedDifferences,
): Promise<NonNullable<CompareResponse["comparability"]>> {
  const base = runs.find((r) => r.id === baselineId);
  const tokens = tokenCountsCache(db);
  const out: NonNullable<CompareResponse["comparability"]>["runs"] = [];
  if (base)
    for (const r of runs)
      if (r.id !== baselineId) out.push({ runId: r.id, ...(await diagnosePair(tokens, base, r, accept)) });
  return { accepted: acceptedParam(accept), runs: out };
}

/**
 * Puts a verdict on every cell whose metric has one: each run against the baseline run, or with
 * `noise=last:N` against the last N runs of its own series (the baseline run included).
 */
async function addNoiseVerdicts(
  db: Db,
  rows: DeltaRow[],
  runs: RunSummary[],
  baselineId: string,
  query: CompareQuery,
): Promise<CompareResponse["noise"]> {
  const n = query.noise ? Number(query.noise.slice(5)) : null;
  let thresholds = {};
  try {
    thresholds = query.thresholds ? parseThresholds(query.thresholds) : {};
  } catch {
    // A bad threshold in a shared link falls back to the defaults rather than blanking the page.
  }
  const metrics = rows.flatMap((r) => metricForCompareRow(r.key, query.stat) ?? []);
  const notes: Record<string, string> = {};
  for (const run of runs) {
    if (n === null && run.id === baselineId) continue;
    const spec = n === null ? { kind: "run" as const, id: baselineId } : { kind: "last" as const, n };
    try {
      const judged = await judgeRun(db, run.id, {
        baseline: spec,
        metrics,
        thresholds,
        allowDifferent: query.allowDifferent,
      });
      const byMetric = new Map(judged?.verdicts.map((v) => [v.metric, v]));
      for (const row of rows) {
        const verdict = byMetric.get(metricForCompareRow(row.key, query.stat)?.id ?? "");
        const cell = row.cells.find((c) => c.runId === run.id);
        if (verdict && cell) Object.assign(cell, { noise: verdict });
      }
    } catch (err) {
      if (!(err instanceof NoBaselineError)) throw err;
      notes[run.id] = err.message;
    }
  }
  return { baseline: n === null ? "the baseline run" : `the last ${n} runs of each run's series`, notes };
}

/**
 * The chart keys each run has, sorted: those stored, and the column charts its request file gives
 * on read (lib/runs/column-charts.ts) when they are not.
 */
async function runChartKeys(db: Db, runIds: string[]): Promise<Record<string, string[]>> {
  const stored = await chartKeys(db, runIds);
  const columns = await columnChartKeys(db, runIds);
  return Object.fromEntries(
    runIds.map((id) => {
      const missing = columns[id].filter((k) => !stored[id].includes(k));
      return [id, missing.length === 0 ? stored[id] : [...stored[id], ...missing].sort()];
    }),
  );
}
