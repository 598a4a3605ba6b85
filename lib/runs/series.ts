/**
 * A series page's data (docs/metrics.md §Regressions): every run of the series in order with its
 * headline metrics, the noise band of the runs before it, and its verdicts against them.
 * Headline figures, bands and run-level verdicts come from the runs' stored summaries; only the
 * latency verdicts read requests, and only when asked for (`judge=all`).
 */
import type { SeriesDetail, SeriesQuery, SeriesRun } from "@/lib/api/regression-schemas";
import type { RunSummary } from "@/lib/api/schemas";
import {
  ALL_VERDICT_METRICS,
  KV_USAGE_PEAK,
  parseThresholds,
  type VerdictMetric,
} from "@/lib/metrics/regression/catalog";
import { judgeMetric, type MetricVerdict } from "@/lib/metrics/regression/judge";
import { mergeSorted, slideSorted } from "@/lib/metrics/regression/sorted-pool";
import { median, MIN_HISTORY, noiseBand } from "@/lib/metrics/regression/spread";
import type { Db } from "@/lib/store/db";
import { listSeries, requestValuesByRun, seriesRuns } from "@/lib/store/series-repo";
import { diagnosePair, tokenCountsCache } from "./comparability";
import { sortValuesInTurns } from "./in-turns";
import { runLevelValue, summaries } from "./verdicts";

export async function seriesList(db: Db) {
  const rows = await listSeries(db);
  return {
    series: rows.map((r) => ({
      name: r.name,
      runCount: r.runCount,
      firstAt: new Date(r.firstAt).toISOString(),
      lastAt: new Date(r.lastAt).toISOString(),
    })),
  };
}

/** Indices of the runs run i is judged against: the `window` before it. */
const windowBefore = (i: number, window: number) => {
  const n = Math.min(i, window);
  return Array.from({ length: n }, (_, k) => i - n + k);
};

/**
 * One latency metric judged for every run against the pooled requests of the runs before it.
 * The window slides: each step adds one run's sorted values and drops the oldest run's, and only
 * the window's runs are held, so a 1M-request series holds window + 1 runs of one field at a time.
 */
async function judgeRequests(
  db: Db,
  runs: RunSummary[],
  metric: VerdictMetric,
  query: SeriesQuery,
  opts: { thresholds: Record<string, number>; seed?: number },
): Promise<(MetricVerdict | null)[]> {
  const held = new Map<number, Float64Array>();
  const load = async (i: number) => {
    if (!held.has(i))
      held.set(i, (await requestValuesByRun(db, [runs[i].id], metric.field!, sortValuesInTurns))[0]);
    return held.get(i)!;
  };
  const out: (MetricVerdict | null)[] = [];
  let pool: Float64Array = new Float64Array(0);
  for (let i = 0; i < runs.length; i++) {
    if (i > 0) {
      const leaving = i - 1 - query.window;
      if (leaving < 0) pool = mergeSorted(pool, await load(i - 1));
      else {
        pool = slideSorted(pool, await load(leaving), await load(i - 1));
        held.delete(leaving);
      }
    }
    // Two earlier runs are no history: a series' first runs are shown, not judged.
    if (i < MIN_HISTORY) {
      out.push(null);
      continue;
    }
    const run = await load(i);
    out.push(
      run.length === 0 && pool.length === 0
        ? null
        : judgeMetric(metric, { kind: "requests", run, baseline: pool }, opts),
    );
  }
  return out;
}

export async function seriesDetail(db: Db, name: string, query: SeriesQuery): Promise<SeriesDetail | null> {
  const rows = await seriesRuns(db, name);
  if (rows.length === 0) return null;
  const runs = await summaries(db, rows);
  const thresholds = query.thresholds ? parseThresholds(query.thresholds) : {};
  const metrics: VerdictMetric[] = ALL_VERDICT_METRICS.filter(
    (m) => m.kind === "run" || m.stat === query.stat,
  );
  const valueOf = (i: number, m: { compareKey: string }) => runLevelValue(runs[i], m.compareKey, query.stat);
  // The metrics some run of the series has; the others would be a column of dashes.
  const present = metrics.filter((m) => runs.some((_, i) => valueOf(i, m) !== null));
  const latency = new Map<string, (MetricVerdict | null)[]>();
  if (query.judge === "all")
    for (const m of present.filter((x) => x.kind === "requests"))
      latency.set(m.id, await judgeRequests(db, runs, m, query, { thresholds, seed: query.seed }));
  // The doctor on each run against the run before it: a run that is another experiment gets no
  // verdicts (docs/metrics.md §Comparable runs), unless the difference is accepted.
  const tokens = tokenCountsCache(db);
  const reports = await Promise.all(
    runs.map((r, i) => (i === 0 ? null : diagnosePair(tokens, runs[i - 1], r, query.allowDifferent))),
  );
  const out: SeriesRun[] = runs.map((r, i) => {
    const before = windowBefore(i, query.window);
    const values: SeriesRun["metrics"] = {};
    const bands: SeriesRun["bands"] = {};
    for (const m of [...present, KV_USAGE_PEAK]) {
      values[m.id] = valueOf(i, m);
      const band = noiseBand(before.map((j) => valueOf(j, m)).filter((v) => v !== null));
      bands[m.id] = band && { low: band.center - band.halfWidth, high: band.center + band.halfWidth };
    }
    const verdicts: MetricVerdict[] = [];
    const comparability = reports[i];
    if (before.length >= MIN_HISTORY && comparability?.verdict !== "not comparable")
      for (const m of present) {
        if (m.kind === "requests") {
          const v = latency.get(m.id)?.[i];
          if (v) verdicts.push(v);
          continue;
        }
        const history = before.map((j) => valueOf(j, m)).filter((v) => v !== null);
        const baseline = history.length ? median(history) : null;
        verdicts.push(
          judgeMetric(
            m,
            { kind: "run", value: values[m.id], baseline, history, pooled: true },
            { thresholds },
          ),
        );
      }
    return {
      id: r.id,
      name: r.name,
      createdAt: r.createdAt,
      commit: r.commit ?? null,
      branch: r.branch ?? null,
      order: r.order ?? null,
      facts: r.info,
      metrics: values,
      bands,
      verdicts,
      comparability,
    };
  });
  return { name, stat: query.stat, window: query.window, judged: query.judge, runs: out };
}
