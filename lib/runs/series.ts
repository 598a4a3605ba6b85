/**
 * A series page's data (docs/metrics.md §Regressions): every run of the series in order with its
 * headline metrics, the noise band of the runs before it, and its verdicts against them.
 */
import type { SeriesDetail, SeriesQuery, SeriesRun } from "@/lib/api/regression-schemas";
import { ALL_VERDICT_METRICS, parseThresholds, type VerdictMetric } from "@/lib/metrics/regression/catalog";
import { judgeMetric } from "@/lib/metrics/regression/judge";
import { median, MIN_HISTORY, noiseBand } from "@/lib/metrics/regression/spread";
import type { Db } from "@/lib/store/db";
import { listSeries, requestValues, seriesRuns } from "@/lib/store/series-repo";
import { runLevelValue, summaries } from "./verdicts";

/** Shown beside the judged metrics: KV usage is context, high can mean busy or starved. */
const KV_USAGE_PEAK = { id: "kv_usage_peak", compareKey: "kvUsageMax" };

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

function mergeSorted(parts: Float64Array[]): Float64Array {
  const out = new Float64Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out.sort();
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
  const perRequest = new Map<string, Float64Array>();
  const valuesOf = async (i: number, field: NonNullable<VerdictMetric["field"]>) => {
    const key = `${i}|${field}`;
    if (!perRequest.has(key)) perRequest.set(key, await requestValues(db, [runs[i].id], field));
    return perRequest.get(key)!;
  };
  const out: SeriesRun[] = [];
  for (let i = 0; i < runs.length; i++) {
    const before = Array.from(
      { length: Math.min(i, query.window) },
      (_, k) => i - Math.min(i, query.window) + k,
    );
    const values: SeriesRun["metrics"] = {};
    const bands: SeriesRun["bands"] = {};
    for (const m of [...present, KV_USAGE_PEAK]) {
      values[m.id] = valueOf(i, m);
      const band = noiseBand(before.map((j) => valueOf(j, m)).filter((v) => v !== null));
      bands[m.id] = band && { low: band.center - band.halfWidth, high: band.center + band.halfWidth };
    }
    const verdicts = [];
    // Two earlier runs are no history: a series' first runs are shown, not judged.
    if (before.length >= MIN_HISTORY)
      for (const m of present) {
        if (m.kind === "requests") {
          const run = await valuesOf(i, m.field!);
          const baseline = mergeSorted(await Promise.all(before.map((j) => valuesOf(j, m.field!))));
          if (run.length === 0 && baseline.length === 0) continue;
          verdicts.push(
            judgeMetric(m, { kind: "requests", run, baseline }, { thresholds, seed: query.seed }),
          );
        } else {
          const history = before.map((j) => valueOf(j, m)).filter((v) => v !== null);
          const value = values[m.id];
          const baseline = history.length ? median(history) : null;
          verdicts.push(
            judgeMetric(m, { kind: "run", value, baseline, history, pooled: true }, { thresholds }),
          );
        }
      }
    const r = runs[i];
    out.push({
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
    });
  }
  return { name, stat: query.stat, window: query.window, runs: out };
}
