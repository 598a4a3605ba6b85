/**
 * What a figure counts, in one line under its title (docs/metrics.md §Requests, §The window,
 * §Cache hit rate, §KV offload): which window, which requests, which method. One vocabulary, so
 * the same population reads the same on every view.
 */
import type { FigureDefinition } from "@/lib/api/figure";
export { SERVER_GAUGE, SERVER_INTERVALS } from "@/lib/metrics/figures/server-series";
export { TRTLLM_STEPS } from "@/lib/metrics/figures/steps";

// The definition type, its line and the two request populations the figure descriptions use live
// in lib/api/figure.ts, which the report reads too.
export {
  AIPERF_SUCCESSFUL,
  benchmarkTool,
  definitionText,
  requestsDefinition,
  SERVER_COUNTERS,
  TRTLLM_COMPLETED,
  type FigureDefinition,
} from "@/lib/api/figure";

export const TURNS_SUCCESSFUL: FigureDefinition = {
  window: "profiling phase, by aiperf's turn_index",
  requests: "successful profiling requests of each turn (errors, cancellations and warm-up excluded)",
  method: "client-side timings from aiperf's records; percentiles interpolate linearly",
};

export const ROUTER_PREDICTION: FigureDefinition = {
  window: "scrape intervals, from the first",
  requests: "every request the router routed (predicted); all traffic the pool's engines saw (delivered)",
  method:
    "predicted = Δsum / Δcount of the router's hit-rate histogram (a mean over requests of overlap blocks / prompt blocks); delivered = Δcached / Δprompt tokens of the engines' own counters (token-weighted)",
};

export const ROUTER_LOG_PREDICTION: FigureDefinition = {
  window: "scrape intervals, from the first (the log's own span when there are no scrapes)",
  requests:
    "every request the router log routed in the window (predicted); all traffic the prefill-side engines saw (delivered)",
  method:
    "predicted = Σ overlap blocks / Σ prompt blocks of the router's [ROUTING] Best lines (block-weighted); delivered = Δcached / Δprompt tokens of the engines' own counters (token-weighted)",
};
