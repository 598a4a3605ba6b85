import type { CompareStat } from "./compare-schemas";

/**
 * Every TanStack Query key of the app. Keys are arrays that nest by prefix, so
 * `queryKeys.run(id)` also matches each of that run's charts and request lists when invalidated,
 * and `queryKeys.runs()` every list of runs. The server prefetch and the browser build their keys
 * here, which is what lets a page hydrate from the cache the server filled.
 */
export const queryKeys = {
  runs: () => ["runs"] as const,
  runList: (params: object) => ["runs", params] as const,
  runListInfinite: (params: object) => ["runs", "infinite", params] as const,
  run: (id: string) => ["run", id] as const,
  /** A stored chart payload: its key and shape version (lib/api/chart-catalog.ts), under the run's chart version. */
  runChart: (id: string, chart: { key: string; version: number }, version: string | null) =>
    ["run", id, "chart", chart.key, chart.version, version] as const,
  aiperfRequests: (id: string, sort: string) => ["run", id, "aiperf-requests", sort] as const,
  trtllmRequestSample: (id: string, sort: string, order: "asc" | "desc", limit: number) =>
    ["run", id, "trtllm-requests", sort, order, limit] as const,
  trtllmRequest: (id: string, idx: number) => ["run", id, "trtllm-request", idx] as const,
  timeline: (id: string, params: object) => ["run", id, "timeline", params] as const,
  timelineRequest: (id: string, rid: number) => ["run", id, "timeline-request", rid] as const,
  requestById: (id: string, rid: string) => ["run", id, "request-by-id", rid] as const,
  requestJourney: (id: string, rid: number) => ["run", id, "request-journey", rid] as const,
  journeySummary: (id: string) => ["run", id, "journey"] as const,
  agentSessionPage: (id: string, page: number) => ["run", id, "session-page", page] as const,
  runGoodput: (id: string, slo: string) => ["run", id, "goodput", slo] as const,
  comparisons: () => ["compare"] as const,
  sweeps: () => ["sweeps"] as const,
  sweep: (id: string) => ["sweeps", id] as const,
  compare: (runs: readonly string[], baseline: string, stat: CompareStat, noise = "", allowDifferent = "") =>
    allowDifferent
      ? (["compare", runs.join(","), baseline, stat, noise, allowDifferent] as const)
      : noise
        ? (["compare", runs.join(","), baseline, stat, noise] as const)
        : (["compare", runs.join(","), baseline, stat] as const),
  allSeries: () => ["series"] as const,
  series: (name: string, stat: CompareStat, window: number, judge: "run" | "all", thresholds = "") =>
    ["series", name, stat, window, judge, thresholds] as const,
};
