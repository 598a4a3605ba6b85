/**
 * Run facts server metrics state (docs/metrics.md §Run facts): the served model from labels
 * (Dynamo's `model`, the name clients ask for, before the engines' `model_name`, often a path),
 * the backend from metric names, and the serving roles from the endpoints' role labels, with
 * vLLM's `engine` label (one value per engine core) as the data-parallel size.
 */
import type { ExtractedFacts, RoleFact } from "@/lib/api/run-facts";
import type { EndpointRow } from "@/lib/api/schemas";
import type { LogFacts } from "@/lib/formats/server-log-facts";
import type { MetricSeries } from "@/lib/formats/server-metrics/types";
import { engineOf, isDynamoName } from "./backend";

const ENGINE_ROLES = new Set(["prefill", "decode", "combined"]);

function distinct(
  series: readonly MetricSeries[],
  label: string,
  keep: (s: MetricSeries) => boolean,
): string[] {
  const out = new Set<string>();
  for (const s of series) {
    const v = s.labels[label]?.trim();
    if (v && keep(s)) out.add(v);
  }
  return [...out].sort();
}

/**
 * Model names that differ only in case are one model (Hugging Face ids are case-insensitive, and
 * a Dynamo deployment can label one model both ways): the cased spelling is kept.
 */
function distinctModels(names: readonly string[]): string[] {
  const byKey = new Map<string, string>();
  for (const n of names) {
    const key = n.toLowerCase();
    const seen = byKey.get(key);
    if (seen === undefined || (seen === key && n !== key)) byKey.set(key, n);
  }
  return [...byKey.values()].sort();
}

export function serverMetricsFacts(
  series: readonly MetricSeries[],
  rows: readonly EndpointRow[],
  backend: string | null,
): ExtractedFacts {
  const facts: ExtractedFacts = {};
  const dynamoModels = distinctModels(distinct(series, "model", (s) => isDynamoName(s.name)));
  const engineModels = distinctModels(distinct(series, "model_name", (s) => engineOf(s.name) !== null));
  if (dynamoModels.length > 0)
    facts.model = {
      value: dynamoModels.join(", "),
      source: "server-metrics label model (Dynamo served model)",
    };
  else if (engineModels.length > 0)
    facts.model = { value: engineModels.join(", "), source: "server-metrics label model_name" };
  if (backend) facts.backend = { value: backend, source: "server metrics (metric names)" };
  const roles = serverRoles(series, rows);
  if (roles.length > 0) facts.roles = { value: roles, source: "server-metrics endpoints (role labels)" };
  return facts;
}

function serverRoles(series: readonly MetricSeries[], rows: readonly EndpointRow[]): RoleFact[] {
  const byRole = new Map<string, { count: number; dp: number | null }>();
  for (const row of rows) {
    if (!ENGINE_ROLES.has(row.role)) continue;
    const engines = distinct(
      series,
      "engine",
      (s) => s.endpoint === row.endpoint && s.name.startsWith("vllm:"),
    );
    const current = byRole.get(row.role) ?? { count: 0, dp: null };
    current.count++;
    if (engines.length > 0) current.dp = Math.max(current.dp ?? 0, engines.length);
    byRole.set(row.role, current);
  }
  return [...byRole].map(([role, r]) => ({ role, count: r.count, tp: null, pp: null, ep: null, dp: r.dp }));
}

const ENGINE_NAMES = { vllm: "vLLM", sglang: "SGLang", trtllm: "TensorRT-LLM" } as const;

/**
 * Adds what an engine's startup log states to the facts from its metrics: the metrics name the
 * model and backend first; the log fills the version and the parallel sizes (into the one role
 * the metrics found, or a combined worker when they found none).
 */
export function withLogFacts(facts: ExtractedFacts, log: LogFacts | null): ExtractedFacts {
  if (!log) return facts;
  const out: ExtractedFacts = { ...facts };
  const source = `server log (${log.engine ? ENGINE_NAMES[log.engine] : "engine"} startup)`;
  if (!out.model && log.model) out.model = { value: log.model, source };
  if (!out.backend && log.engine) out.backend = { value: log.engine, source };
  if (log.version) out.backendVersion = { value: log.version, source };
  const sizes = { tp: log.tp, pp: log.pp, dp: log.dp, ep: log.ep };
  if (Object.values(sizes).every((v) => v === null)) return out;
  const roles = out.roles?.value ?? [];
  if (roles.length === 0) out.roles = { value: [{ role: "combined", count: null, ...sizes }], source };
  else if (roles.length === 1)
    out.roles = {
      value: [{ ...roles[0], tp: sizes.tp, pp: sizes.pp, ep: sizes.ep, dp: roles[0].dp ?? sizes.dp }],
      source: `${out.roles!.source} + ${source}`,
    };
  return out;
}
