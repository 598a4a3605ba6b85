import { v2SyntheticLengths } from "./aiperf-v2-lengths";
import { phaseList, warmupFromLoadgen, warmupFromPhases, type WarmupConfig } from "./aiperf-warmup-config";

/**
 * The run configuration inside an aiperf summary (`input_config`), in its two incompatible shapes
 * (docs/formats.md §aiperf summary): v1 `UserConfig` (≤0.7: endpoint.model_names, loadgen.*) and v2
 * `BenchmarkConfig` (0.8+: models.items, phases[]). aiperf's own plotter reads only v1 and falls
 * back to concurrency 1 on v2 files; here both give the same facts.
 */
export interface AiperfRunConfig {
  model: string | null;
  endpointType: string | null;
  /** Server URL (+ custom path) the benchmark targeted */
  endpointUrl: string | null;
  streaming: boolean | null;
  concurrency: number | null;
  requestRate: number | null;
  requestCount: number | null;
  /** The configured warm-up; null when the config has none or does not say */
  warmup: WarmupConfig | null;
  configVersion: 1 | 2 | null;
  /**
   * The synthetic prompt settings (v1 `input.prompt.input_tokens.mean` / `output_tokens.mean`, v2
   * the expected value of `datasets[i].prompts.isl` / `osl`: ./aiperf-v2-lengths.ts),
   * null when the config has none or the prompts came from a file or public dataset, where the
   * synthetic settings do not shape the requests.
   */
  syntheticIsl: number | null;
  syntheticOsl: number | null;
}

/** A run config that says nothing: every setting unknown. */
export const UNKNOWN_RUN_CONFIG: Readonly<AiperfRunConfig> = {
  model: null,
  endpointType: null,
  endpointUrl: null,
  streaming: null,
  concurrency: null,
  requestRate: null,
  requestCount: null,
  warmup: null,
  configVersion: null,
  syntheticIsl: null,
  syntheticOsl: null,
};

function obj(v: unknown): Record<string, unknown> | null {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const str = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);
const bool = (v: unknown): boolean | null => (typeof v === "boolean" ? v : null);

export function readInputConfig(raw: unknown): AiperfRunConfig {
  const cfg = obj(raw) ?? {};
  const endpoint = obj(cfg.endpoint) ?? {};
  const empty: AiperfRunConfig = {
    ...UNKNOWN_RUN_CONFIG,
    endpointType: str(endpoint.type),
    streaming: bool(endpoint.streaming),
  };
  const models = obj(cfg.models);
  if (models || Array.isArray(cfg.phases) || obj(cfg.phases)) {
    const items = Array.isArray(models?.items) ? models.items : [];
    const names = items.map((i) => str(obj(i)?.name)).filter((n): n is string => n !== null);
    const phases = phaseList(cfg.phases);
    // The measured phase: named (or, in newer builds, of kind) "profiling", else the first one
    // not excluded from results.
    const phase =
      phases.find((p) => p.name === "profiling" || p.kind === "profiling") ??
      phases.find((p) => p.exclude_from_results !== true && p.kind !== "warmup");
    return {
      ...empty,
      model: names.length ? names.join(", ") : null,
      endpointUrl: Array.isArray(endpoint.urls)
        ? endpoint.urls.filter((u) => typeof u === "string").join(", ") || null
        : null,
      concurrency: num(phase?.concurrency),
      requestRate: num(phase?.rate) ?? num(phase?.request_rate),
      requestCount: num(phase?.requests) ?? num(phase?.request_count),
      warmup: warmupFromPhases(phases),
      configVersion: 2,
      ...v2Synthetic(cfg, phase),
    };
  }
  const loadgen = obj(cfg.loadgen);
  const names = Array.isArray(endpoint.model_names)
    ? endpoint.model_names.filter((n) => typeof n === "string")
    : [];
  if (!loadgen && names.length === 0) return empty;
  return {
    ...empty,
    model: names.length ? names.join(", ") : null,
    endpointUrl: str(endpoint.url) ? `${endpoint.url}${str(endpoint.custom_endpoint) ?? ""}` : null,
    concurrency: num(loadgen?.concurrency),
    requestRate: num(loadgen?.request_rate),
    requestCount: num(loadgen?.request_count),
    // A scenario (`--scenario inferencex-agentx-mvp`, aiperf 0.8+) sets its own warm-up without
    // writing it to loadgen: the size is then unknown, not "none configured".
    warmup: warmupFromLoadgen(loadgen) ?? (str(cfg.scenario) ? { requests: null, durationS: null } : null),
    configVersion: 1,
    ...syntheticLengths(obj(cfg.input)),
  };
}

function v2Synthetic(
  cfg: Record<string, unknown>,
  phase: Record<string, unknown> | undefined,
): Pick<AiperfRunConfig, "syntheticIsl" | "syntheticOsl"> {
  const { isl, osl } = v2SyntheticLengths(cfg, phase);
  return { syntheticIsl: isl, syntheticOsl: osl };
}

/** v1 synthetic prompt means; a file, public dataset or fixed schedule replaces the synthetic prompts. */
function syntheticLengths(
  input: Record<string, unknown> | null,
): Pick<AiperfRunConfig, "syntheticIsl" | "syntheticOsl"> {
  const none = { syntheticIsl: null, syntheticOsl: null };
  if (!input || str(input.file) || str(input.public_dataset) || str(input.custom_dataset_type)) return none;
  const prompt = obj(input.prompt);
  return {
    syntheticIsl: num(obj(prompt?.input_tokens)?.mean),
    syntheticOsl: num(obj(prompt?.output_tokens)?.mean),
  };
}
