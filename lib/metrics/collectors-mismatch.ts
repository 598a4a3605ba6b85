/**
 * Collector mismatch between compared runs (docs/metrics.md §Collectors). `return_perf_metrics`,
 * `enable_iter_perf_stats` and `publish_kv_events` cost throughput (~2.5% measured), so an A/B
 * whose arms differ in them measures the collectors as much as the change under test.
 */
import type { Collectors, RunSummary } from "@/lib/api/schemas";

export const COLLECTOR_FLAGS: Record<keyof Collectors, string> = {
  returnPerfMetrics: "return_perf_metrics",
  enableIterPerfStats: "enable_iter_perf_stats",
  publishKvEvents: "publish_kv_events",
};

/**
 * recorded: a file sets it; inferred: the data proves it; implied: a config flag implies it
 * (Dynamo's older `--publish-events-and-metrics`), an inference that hangs on the Dynamo version.
 */
export type CollectorSource = "recorded" | "inferred" | "implied" | "unknown";

export interface EffectiveCollector {
  value: boolean | null;
  source: CollectorSource;
  /** How an inferred or implied value is known ("inferred from …"); null when recorded or unknown */
  evidence: string | null;
}

/**
 * What is known of a run's collectors: recorded values (engine config, aiperf input_config,
 * analyzers) first, or implied by a config flag (with its evidence); otherwise inferred from the
 * data — TRT-LLM per-request perf metrics exist only when `return_perf_metrics` was on, so a time
 * breakdown proves it.
 */
export function effectiveCollectors(
  run: Pick<RunSummary, "collectors" | "timeBreakdown"> & Partial<Pick<RunSummary, "collectorsInferredFrom">>,
): Record<keyof Collectors, EffectiveCollector> {
  const out = {} as Record<keyof Collectors, EffectiveCollector>;
  for (const k of Object.keys(COLLECTOR_FLAGS) as Array<keyof Collectors>) {
    const recorded = run.collectors[k];
    const implied = run.collectorsInferredFrom?.[k];
    out[k] =
      recorded === null
        ? { value: null, source: "unknown", evidence: null }
        : recorded && implied
          ? { value: true, source: "implied", evidence: implied }
          : { value: recorded, source: "recorded", evidence: null };
  }
  if (out.returnPerfMetrics.source !== "recorded" && run.timeBreakdown && run.timeBreakdown.requestCount > 0)
    out.returnPerfMetrics = {
      value: true,
      source: "inferred",
      evidence: `inferred from the TensorRT-LLM time breakdown of ${run.timeBreakdown.requestCount} requests: per-request perf metrics exist only with return_perf_metrics on`,
    };
  return out;
}

/** What a collector no file of a TensorRT-LLM run records is said as, wherever it is shown. */
export const COLLECTOR_NOT_IN_FILES = "not in these files";

/**
 * Whether a run's files could say its collectors: they are TensorRT-LLM settings, known only from
 * TensorRT-LLM's files (its perf metrics, a backend that names it, an engine config).
 */
export function isTrtllmRun(
  run: Pick<RunSummary, "timeBreakdown"> & Partial<Pick<RunSummary, "facts">>,
): boolean {
  return run.timeBreakdown != null || /trt|tensorrt/i.test(run.facts?.backend?.value ?? "");
}

/**
 * Each collector of a run in words, as the run header and the report show it: "on" / "off", with
 * how it is known when not recorded, or "not in these files" on a TensorRT-LLM run. A collector no
 * file records is left out on any other run (aiperf, vLLM, SGLang): the setting does not apply
 * there, and "unknown" would say nothing.
 */
export function collectorTexts(
  run: Pick<RunSummary, "collectors" | "timeBreakdown"> &
    Partial<Pick<RunSummary, "facts" | "collectorsInferredFrom">>,
): Array<{ key: keyof Collectors; flag: string; text: string; state: EffectiveCollector }> {
  const states = effectiveCollectors(run);
  const trtllm = isTrtllmRun(run);
  const keys = (Object.keys(COLLECTOR_FLAGS) as Array<keyof Collectors>).filter(
    (k) => trtllm || states[k].value !== null,
  );
  return keys.map((key) => {
    const state = states[key];
    const text =
      state.value === null
        ? COLLECTOR_NOT_IN_FILES
        : `${state.value ? "on" : "off"}${state.source === "inferred" ? " (from the data)" : state.source === "implied" ? " (inferred from the config)" : ""}`;
    return { key, flag: COLLECTOR_FLAGS[key], text, state };
  });
}

export interface CollectorMismatch {
  collector: keyof Collectors;
  flag: string;
  /** Known on in these runs … */
  onRunIds: string[];
  /** … and off in these */
  offRunIds: string[];
  unknownRunIds: string[];
  /** "differs": known on in one run and off in another (a contaminated A/B); "unknown": some runs do not say */
  kind: "differs" | "unknown";
}

/**
 * Whether a collector can exist on a run of this backend (the run's backend fact: "trtllm",
 * "dynamo+vllm", an edited "SGLang", …). All three are TensorRT-LLM's: `return_perf_metrics` and
 * `enable_iter_perf_stats` are its engine options, `publish_kv_events` Dynamo's TensorRT-LLM
 * worker flag (Dynamo's vLLM and SGLang workers publish KV events through the engine's own
 * `--kv-events-config`). A backend that names another engine cannot have them; an unknown one
 * ("dynamo", none) may be TensorRT-LLM, so they may apply.
 */
export function collectorApplies(_collector: keyof Collectors, backend: string | null | undefined): boolean {
  if (!backend) return true;
  const b = backend.toLowerCase();
  if (b.includes("trt") || b.includes("tensorrt")) return true;
  return !/vllm|sglang|atom|llama\.?cpp|ollama|tgi|mistralrs/.test(b);
}

/**
 * One entry per collector whose state is not the same known value in every run it applies to
 * (collectorApplies); runs whose backend cannot have it are left out of the entry.
 */
export function collectorMismatches(
  runs: Array<Pick<RunSummary, "id" | "collectors" | "timeBreakdown"> & Partial<Pick<RunSummary, "facts">>>,
): CollectorMismatch[] {
  if (runs.length < 2) return [];
  const states = runs.map((r) => ({
    id: r.id,
    backend: r.facts?.backend?.value ?? null,
    c: effectiveCollectors(r),
  }));
  const out: CollectorMismatch[] = [];
  for (const [collector, flag] of Object.entries(COLLECTOR_FLAGS) as Array<[keyof Collectors, string]>) {
    // A run that records the collector has it whatever its backend says.
    const applies = states.filter(
      (s) => s.c[collector].value !== null || collectorApplies(collector, s.backend),
    );
    if (applies.length < 2) continue;
    const onRunIds = applies.filter((s) => s.c[collector].value === true).map((s) => s.id);
    const offRunIds = applies.filter((s) => s.c[collector].value === false).map((s) => s.id);
    const unknownRunIds = applies.filter((s) => s.c[collector].value === null).map((s) => s.id);
    if (onRunIds.length > 0 && offRunIds.length > 0)
      out.push({ collector, flag, onRunIds, offRunIds, unknownRunIds, kind: "differs" });
    // Known in some runs only: cannot prove the arms match, worth a softer note.
    else if (unknownRunIds.length > 0 && unknownRunIds.length < applies.length)
      out.push({ collector, flag, onRunIds, offRunIds, unknownRunIds, kind: "unknown" });
  }
  return out;
}
