/**
 * Whether a run has a router side to compare (docs/metrics.md §Predicted vs delivered hit rate):
 * a router's hit-rate histogram, or a Dynamo frontend or router endpoint whose prediction is
 * then said to be missing. One rule for the stored payload and the run's `routerPrediction` flag.
 */
import { LLMD_PREFIX_HIT_RATIO, ROUTER_KV_HIT_RATE } from "@/lib/formats/server-metrics/catalog";
import type { EndpointFacts } from "./endpoint-facts";

export const ROUTER_PREDICTION_NAMES = [ROUTER_KV_HIT_RATE, LLMD_PREFIX_HIT_RATIO];

export function hasRouterSide(facts: readonly EndpointFacts[]): boolean {
  return facts.some(
    (f) =>
      f.role === "frontend" ||
      f.role === "router" ||
      f.series.some((s) => s.type === "histogram" && ROUTER_PREDICTION_NAMES.includes(s.name)),
  );
}
