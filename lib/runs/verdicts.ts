/**
 * Loads what a run's verdicts need (its series, baseline runs, per-request values, run-level
 * history) and judges every metric (docs/metrics.md §Regressions).
 */
import type { AcceptedDifferences } from "@/lib/api/comparability-schema";
import type { CompareStat } from "@/lib/api/compare-schemas";
import type { BaselineSpec, Judgement } from "@/lib/api/regression-schemas";
import type { RunSummary } from "@/lib/api/schemas";
import { collectorMismatches } from "@/lib/metrics/collectors-mismatch";
import { runMetrics } from "@/lib/metrics/compare";
import { defaultVerdictMetrics, type VerdictMetric } from "@/lib/metrics/regression/catalog";
import { judgeMetric, type JudgeOptions, type MetricInput } from "@/lib/metrics/regression/judge";
import { mergeSortedRuns } from "@/lib/metrics/regression/sorted-pool";
import { median } from "@/lib/metrics/regression/spread";
import { blockingText } from "@/lib/metrics/run-differences";
import type { Db } from "@/lib/store/db";
import { getFiles, type RunRow } from "@/lib/store/runs-repo";
import { requestValuesByRun, seriesRuns } from "@/lib/store/series-repo";
import { diagnosePair, tokenCountsCache } from "./comparability";
import { sortValuesInTurns } from "./in-turns";
import { composeRunSummary, readRunSummary } from "./read-run";

/** Earlier runs whose spread scales a run-level verdict when the baseline is one run. */
export const DEFAULT_WINDOW = 10;

export class NoBaselineError extends Error {}

type PairReport = NonNullable<Judgement["comparability"]>[number];

/**
 * The baseline is another experiment (docs/metrics.md §Comparable runs): the doctor found a
 * blocking difference the user did not accept. `reports` holds its report on every baseline run.
 */
export class NotComparableError extends NoBaselineError {
  constructor(
    message: string,
    readonly reports: PairReport[],
  ) {
    super(message);
  }
}

/** A run-level figure of a summary by its compare key (the statistic does not matter for them). */
export function runLevelValue(run: RunSummary, compareKey: string, stat: CompareStat = "p50"): number | null {
  return runMetrics(run, stat).find((m) => m.key === compareKey)?.value ?? null;
}

/** The runs of the run's series before it, oldest first. */
async function earlierRuns(db: Db, run: RunSummary): Promise<RunRow[]> {
  if (!run.series) return [];
  const all = await seriesRuns(db, run.series);
  const at = all.findIndex((r) => r.id === run.id);
  return at === -1 ? all.filter((r) => r.created_at <= Date.parse(run.createdAt)) : all.slice(0, at);
}

export async function summaries(db: Db, rows: RunRow[]): Promise<RunSummary[]> {
  return Promise.all(rows.map(async (r) => composeRunSummary(r, await getFiles(db, r.id))));
}

interface Resolved {
  label: string;
  baselineRuns: RunSummary[];
  history: RunSummary[];
  pooled: boolean;
}

async function resolveBaseline(db: Db, run: RunSummary, spec: BaselineSpec): Promise<Resolved> {
  const earlier = await earlierRuns(db, run);
  if (spec.kind === "run") {
    if (spec.id === run.id) throw new NoBaselineError("the baseline is the run itself");
    const base = await readRunSummary(db, spec.id);
    if (!base || base.status !== "ready")
      throw new NoBaselineError(`no ready run ${spec.id} to compare with`);
    const history = await summaries(db, earlier.slice(-DEFAULT_WINDOW));
    return { label: `run ${base.name}`, baselineRuns: [base], history, pooled: false };
  }
  if (!run.series) throw new NoBaselineError("the run belongs to no series, so it has no last run");
  if (earlier.length === 0) throw new NoBaselineError(`series ${run.series} has no run before this one`);
  const pooled = spec.n >= 3;
  const baselineRows = earlier.slice(-spec.n);
  const history = pooled ? baselineRows : earlier.slice(-DEFAULT_WINDOW);
  const label =
    spec.n === 1
      ? `the last run of ${run.series}`
      : `the last ${baselineRows.length} runs of ${run.series}${baselineRows.length < spec.n ? ` (of ${spec.n} asked)` : ""}`;
  return {
    label,
    baselineRuns: await summaries(db, baselineRows),
    history: await summaries(db, history),
    pooled,
  };
}

export interface JudgeRequest extends JudgeOptions {
  baseline: BaselineSpec;
  metrics?: VerdictMetric[];
  /** Differences the user accepts by name, or all: judge a baseline that differs in them */
  allowDifferent?: AcceptedDifferences;
}

/** The run's verdicts; throws NoBaselineError when there is nothing to judge it against. */
export async function judgeRun(db: Db, runId: string, req: JudgeRequest): Promise<Judgement | null> {
  const summary = await readRunSummary(db, runId);
  if (!summary) return null;
  if (summary.status !== "ready") throw new NoBaselineError(`the run is ${summary.status}, not ready`);
  const run = summary;
  const resolved = await resolveBaseline(db, run, req.baseline);
  const tokens = tokenCountsCache(db);
  const comparability: PairReport[] = [];
  for (const base of resolved.baselineRuns)
    comparability.push({
      baselineRunId: base.id,
      ...(await diagnosePair(tokens, base, run, req.allowDifferent ?? new Set())),
    });
  const refused = comparability.filter((c) => c.verdict === "not comparable");
  if (refused.length > 0)
    throw new NotComparableError(
      refused
        .map((c) => {
          const name = resolved.baselineRuns.find((r) => r.id === c.baselineRunId)!.name;
          return `not comparable with ${name}: ${blockingText(c.reasons)}`;
        })
        .join("; "),
      comparability,
    );
  const metrics = req.metrics ?? defaultVerdictMetrics();
  const values = new Map<string, Promise<Float64Array>>();
  const load = (ids: string[], field: NonNullable<VerdictMetric["field"]>) => {
    const key = `${ids.join(",")}|${field}`;
    if (!values.has(key))
      values.set(key, requestValuesByRun(db, ids, field, sortValuesInTurns).then(mergeSortedRuns));
    return values.get(key)!;
  };
  const verdicts = [];
  for (const metric of metrics) {
    let input: MetricInput;
    if (metric.kind === "requests") {
      const ids = resolved.baselineRuns.map((r) => r.id);
      input = {
        kind: "requests",
        run: await load([run.id], metric.field!),
        baseline: await load(ids, metric.field!),
      };
    } else {
      const history = resolved.history
        .map((r) => runLevelValue(r, metric.compareKey))
        .filter((v) => v !== null);
      const bases = resolved.baselineRuns
        .map((r) => runLevelValue(r, metric.compareKey))
        .filter((v) => v !== null);
      input = {
        kind: "run",
        value: runLevelValue(run, metric.compareKey),
        baseline: bases.length === 0 ? null : resolved.pooled ? median(bases) : bases[0],
        history,
        pooled: resolved.pooled,
      };
    }
    const verdict = judgeMetric(metric, input, req);
    // A metric neither side measured is not news; one side without it is.
    if (
      verdict.verdict === "not measured" &&
      verdict.samples.run === 0 &&
      verdict.samples.baseline === 0 &&
      metric.kind === "requests"
    )
      continue;
    if (metric.kind === "run" && input.kind === "run" && input.value === null && input.baseline === null)
      continue;
    verdicts.push(verdict);
  }
  return {
    runId: run.id,
    runName: run.name,
    series: run.series ?? null,
    baseline: { label: resolved.label, runIds: resolved.baselineRuns.map((r) => r.id) },
    verdicts,
    collectorMismatches: collectorMismatches([run, ...resolved.baselineRuns]),
    comparability,
  };
}
