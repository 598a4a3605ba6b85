/**
 * One set of run facts from every analyzer's (docs/metrics.md §Run facts): per fact, the first
 * analyzer in that fact's order of trust that states it. Pure, like merge-results.ts.
 */
import type { ExtractedFacts, FactKey } from "@/lib/api/run-facts";
import { FACT_KEYS } from "@/lib/api/run-facts";
import { gpuCount, withWorkerCounts } from "@/lib/metrics/engine-run-facts";

export interface NamedFacts {
  analyzer: string;
  facts?: ExtractedFacts;
  /** The runs-table backend an analyzer named without stating it as a fact */
  backend?: string | null;
}

/**
 * Whose word counts first. Load and ISL/OSL are the benchmark client's settings; GPUs were seen
 * by its telemetry before a config said how many should run; the backend is told by the metric
 * names the server really exported, and parallelism by the config that set it.
 */
const ORDER: Partial<Record<FactKey, string[]>> = {
  backend: ["server-metrics", "engine-config", "aiperf"],
  backendVersion: ["server-metrics", "engine-config"],
  roles: ["engine-config", "server-metrics"],
  gpuCount: ["aiperf", "engine-config"],
};
const DEFAULT_ORDER = ["aiperf", "server-metrics", "engine-config"];

/** What a backend named by an analyzer's files (not stated as a fact) is read from. */
const BACKEND_SOURCE: Record<string, string> = { trtllm: "TensorRT-LLM perf metrics" };

export function mergeFacts(named: readonly NamedFacts[]): ExtractedFacts {
  const out: Record<string, unknown> = {};
  for (const key of FACT_KEYS) {
    const order = ORDER[key] ?? DEFAULT_ORDER;
    const ranked = [...named].sort((a, b) => rank(order, a.analyzer) - rank(order, b.analyzer));
    const found = ranked.map((n) => n.facts?.[key]).find((f) => f !== undefined);
    if (found) out[key] = found;
  }
  const workerRoles = disaggregatedWorkerRoles(out as ExtractedFacts, named);
  if (workerRoles) out.roles = workerRoles;
  Object.assign(out, workerCountFacts(out as ExtractedFacts, named));
  if (!out.backend) {
    const named1 = named.find((n) => n.backend);
    if (named1?.backend)
      out.backend = {
        value: named1.backend,
        source: BACKEND_SOURCE[named1.analyzer] ?? `${named1.analyzer} files`,
      };
  }
  return out as ExtractedFacts;
}

/**
 * Server metrics call a worker "combined" when no label says its role (or only Dynamo's
 * `tensorrt_llm` component, which aggregated and decode workers share). When the run's TensorRT-LLM
 * perf metrics show prefill and decode workers, that default would contradict them on one screen
 * ("combined ×1" beside disaggregated serving): the perf metrics' roles stand instead.
 */
function disaggregatedWorkerRoles(
  merged: ExtractedFacts,
  named: readonly NamedFacts[],
): ExtractedFacts["roles"] | null {
  const server = named.find((n) => n.analyzer === "server-metrics")?.facts?.roles;
  const workers = named.find((n) => n.analyzer === "trtllm")?.facts?.roles;
  if (!server || !workers || merged.roles !== server) return null;
  if (!server.value.every((r) => r.role === "combined")) return null;
  return workers.value.some((r) => r.role === "prefill" || r.role === "decode") ? workers : null;
}

function rank(order: string[], analyzer: string): number {
  const i = order.indexOf(analyzer);
  return i < 0 ? order.length : i;
}

/**
 * An engine config states a worker's TP × PP but not how many workers ran; TensorRT-LLM perf
 * metrics hold one file per worker. Together they give each role's replicas and so the GPU count,
 * named by both sources; telemetry that saw the GPUs still counts first.
 */
function workerCountFacts(merged: ExtractedFacts, named: readonly NamedFacts[]): ExtractedFacts {
  const config = named.find((n) => n.analyzer === "engine-config")?.facts?.roles;
  const workers = named.find((n) => n.analyzer === "trtllm")?.facts?.roles;
  if (!config || !workers || merged.roles?.source !== config.source) return {};
  const roles = withWorkerCounts(config.value, workers.value);
  if (!roles) return {};
  const source = `${config.source} × ${workers.source}`;
  const out: ExtractedFacts = { roles: { value: roles, source } };
  const gpus = gpuCount(roles);
  if (gpus !== null && !merged.gpuCount)
    out.gpuCount = { value: gpus, source: `${source}: Σ workers × TP × PP` };
  return out;
}
