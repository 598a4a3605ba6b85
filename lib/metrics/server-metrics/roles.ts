/**
 * Endpoint role from labels (docs/metrics.md §Backend and roles): `dynamo_component` (or `component`), then
 * `disaggregation_mode`, then SGLang's `engine_type` (which the reference ignored, trap T15).
 * An endpoint that only serves Dynamo frontend (or router) families is that; anything else
 * unlabelled is `combined`.
 *
 * Dynamo gives a worker the component `prefill` only when it is a prefill worker; every other
 * worker, aggregated or decode, is registered as `backend` (vLLM, SGLang) or `tensorrt_llm`
 * (TensorRT-LLM). Such a worker is decode only beside a prefill pool: the role is read per run.
 */
import type { EndpointRole } from "@/lib/api/schemas";
import { engineOf } from "./backend";
import type { MetricSeries } from "@/lib/formats/server-metrics/types";

/** Dynamo's component for a worker that is not a prefill worker: aggregated, or decode beside prefill. */
const DYNAMO_WORKER_COMPONENTS = new Set(["backend", "tensorrt_llm"]);

/** `disaggregated`: the run has a prefill side, so Dynamo's non-prefill workers decode. */
export function roleFromLabel(key: string, value: string, disaggregated = false): EndpointRole | null {
  const v = value.trim().toLowerCase();
  if (key === "dynamo_component" || key === "component") {
    if (v === "prefill") return "prefill";
    if (v === "decode") return "decode";
    if (DYNAMO_WORKER_COMPONENTS.has(v)) return disaggregated ? "decode" : "combined";
    if (v === "frontend") return "frontend";
    if (v === "router") return "router";
    return null;
  }
  if (key === "disaggregation_mode") {
    if (v === "context" || v === "ctx" || v === "prefill") return "prefill";
    if (v === "generation" || v === "gen" || v === "decode") return "decode";
    if (v === "aggregated" || v === "agg" || v === "prefill_and_decode") return "combined";
    return null;
  }
  if (key === "engine_type") {
    if (v === "prefill") return "prefill";
    if (v === "decode") return "decode";
  }
  return null;
}

function isRouterFamily(name: string): boolean {
  return name.startsWith("dynamo_component_router") || name.startsWith("dynamo_router");
}

const ROLE_KEYS = ["dynamo_component", "component", "disaggregation_mode", "engine_type"];
const PRIORITY: EndpointRole[] = ["prefill", "decode", "combined", "router", "frontend"];

function labelledRoles(series: readonly MetricSeries[], disaggregated: boolean): Set<EndpointRole> {
  const seen = new Set<EndpointRole>();
  for (const s of series) {
    // A router's metrics carry the labels of the workers it routes to, not its own role.
    if (isRouterFamily(s.name)) continue;
    for (const k of ROLE_KEYS) {
      const v = s.labels[k];
      const r = v === undefined ? null : roleFromLabel(k, v, disaggregated);
      if (r) seen.add(r);
    }
  }
  return seen;
}

/** Whether any endpoint of the run is labelled a prefill worker (then Dynamo's `backend` workers decode). */
export function hasPrefillLabel(series: readonly MetricSeries[]): boolean {
  return labelledRoles(series, false).has("prefill");
}

/** `disaggregated`: `hasPrefillLabel` over the whole run, not only this endpoint. */
export function endpointRole(series: readonly MetricSeries[], disaggregated: boolean): EndpointRole {
  const seen = labelledRoles(series, disaggregated);
  const hasEngine = series.some((s) => engineOf(s.name) !== null);
  const engineRoles = PRIORITY.filter(
    (r) => seen.has(r) && (r !== "frontend" && r !== "router" ? true : !hasEngine),
  );
  if (engineRoles.length > 0) return engineRoles[0];
  if (!hasEngine) {
    if (series.some((s) => s.name.startsWith("dynamo_frontend_"))) return "frontend";
    if (series.some((s) => isRouterFamily(s.name))) return "router";
  }
  return "combined";
}

/** Roles that compute prompt prefixes, hence own cache hits (decode only reuses what prefill sent). */
export function isPrefillSide(role: EndpointRole): boolean {
  return role === "prefill" || role === "combined";
}

export function isDecodeSide(role: EndpointRole): boolean {
  return role === "decode" || role === "combined";
}
