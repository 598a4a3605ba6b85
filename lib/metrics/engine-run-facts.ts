/**
 * Run facts from the engine configs of a run (docs/metrics.md §Run facts): roles with their
 * parallel sizes, the backend and its version, and a GPU count only where every role states its
 * replicas and TP (Σ replicas × TP × PP × DP; an unstated PP or DP is the engines' default of 1).
 * A role without a stated replica count gives no GPU count: a config file describes one worker,
 * not how many were started.
 */
import type { ExtractedFacts, RoleFact } from "@/lib/api/run-facts";
import type { EngineParallelism } from "@/lib/formats/engine-parallelism";

const CONFIG_SOURCE = "engine config";
export const RUN_METADATA_SOURCE = "run metadata";

export function engineConfigFacts(configs: readonly EngineParallelism[]): ExtractedFacts {
  const facts: ExtractedFacts = {};
  // A benchmark's run metadata (isRunMetadata) says what was deployed; it is named as such.
  const source =
    configs.length > 0 && configs.every((c) => c.runMetadata) ? RUN_METADATA_SOURCE : CONFIG_SOURCE;
  const roles = new Map<string, RoleFact>();
  for (const c of configs) for (const r of c.roles) if (!roles.has(r.role)) roles.set(r.role, r);
  const list = [...roles.values()];
  if (list.length > 0) {
    facts.roles = { value: list, source };
    const gpus = gpuCount(list);
    if (gpus !== null)
      facts.gpuCount = {
        value: gpus,
        source: `${source} (Σ ${source === CONFIG_SOURCE ? "replicas" : "instances"} × TP × PP × DP)`,
      };
  }
  const engine = configs.find((c) => c.engine)?.engine ?? null;
  const dynamo = configs.some((c) => c.dynamo);
  if (engine) facts.backend = { value: dynamo ? `dynamo+${engine}` : engine, source };
  else if (dynamo) facts.backend = { value: "dynamo", source };
  const version = configs.find((c) => c.version)?.version;
  if (version)
    facts.backendVersion = {
      value: version,
      source: source === CONFIG_SOURCE ? `${source} (container image tag)` : source,
    };
  const model = configs.find((c) => c.model)?.model;
  if (model) facts.model = { value: model, source };
  return facts;
}

export function gpuCount(roles: readonly RoleFact[]): number | null {
  let total = 0;
  for (const r of roles) {
    if (r.count === null || r.tp === null) return null;
    total += r.count * r.tp * (r.pp ?? 1) * (r.dp ?? 1);
  }
  return total > 0 ? total : null;
}

/**
 * Worker counts per role from TensorRT-LLM perf-metrics files: trtllm-serve answers /perf_metrics
 * per worker (its rank 0 speaks for all its TP × PP ranks), so each worker is one file, or one
 * server URL when several files came from the same server. Files holding only disagg-server
 * records are not workers. TP and PP stay unknown here: the engine config says them.
 */
export function trtllmWorkerRoles(
  workerFiles: readonly { role: string; server: string | null; file: number }[],
): RoleFact[] {
  const byRole = new Map<string, Set<string>>();
  for (const w of workerFiles) {
    const ids = byRole.get(w.role) ?? new Set<string>();
    ids.add(w.server ?? `file:${w.file}`);
    byRole.set(w.role, ids);
  }
  return [...byRole].map(([role, ids]) => ({
    role,
    count: ids.size,
    tp: null,
    pp: null,
    ep: null,
    dp: null,
  }));
}

export const WORKER_FILES_SOURCE = "TensorRT-LLM perf metrics (one file per worker)";

/**
 * Engine-config roles with each unstated replica count filled from the worker files of that role
 * (a config that states its replicas keeps them: it says what was deployed, files what was
 * captured). A config without a role in its name (`extra-llm-api-config.yml`, role "combined")
 * describes every worker only when the run has one kind of worker. Null when nothing was filled.
 */
export function withWorkerCounts(
  config: readonly RoleFact[],
  workers: readonly RoleFact[],
): RoleFact[] | null {
  const only = workers.length === 1 ? workers[0] : null;
  let filled = false;
  const out = config.map((r) => {
    if (r.count !== null) return r;
    const w =
      workers.find((x) => x.role === r.role) ??
      (r.role === "combined" && config.length === 1 ? only : undefined);
    if (!w?.count) return r;
    filled = true;
    return { ...r, count: w.count };
  });
  return filled ? out : null;
}
