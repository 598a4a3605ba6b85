import type { Kind } from "@/lib/api/kinds";

/**
 * The concrete layout inside a kind, so a parser knows how to read it:
 * - trtllm-perf-metrics: "jsonl" (post-refactor records, possibly `{"record":…}`-wrapped) | "json-array" (older /perf_metrics)
 *   | "aiperf-raw" (aiperf's `--export-level raw` records, the metrics in the post-[DONE] SSE event)
 *   | "http-capture" (curl -i / -N of responses: the metrics in headers or the SSE event)
 * - trtllm-side-file: "time-events" (per-rank JSONL: a record per finished request, or a line per lifecycle event; ids exact) | "iteration-stats" (`/metrics` IterationStats) | "request-stats" (RequestStatsPerIteration)
 * - aiperf-records: "jsonl"
 * - aiperf-summary: "json" | "csv" | "timeslices-json" | "timeslices-csv" | "aggregate-json"
 * - aiperf-server-metrics: "json" | "csv" | "jsonl" | "prometheus" (plain Prometheus text scrape)
 * - aiperf-gpu-telemetry: "jsonl"
 * - aiperf-inputs: "json"
 * - aiperf-log: "text" (aiperf.log) | "command" (benchmark_command.txt) | "workload" (workload_distribution_summary.txt)
 *   | "outputs" (outputs.json) | "phase-export" (phases/<name>/…, wrapped) | "phase-manifest" (phase_manifest.json)
 * - server-log: "text"
 * - router-log: "text" | "jsonl" (Dynamo frontend log with routing decisions)
 * - engine-config: "yaml" | "json" | "text" (a `.env` file setting Dynamo's collector variables)
 * - guidellm-report: "json" | "yaml"
 * - bench-console: "text" (the summary a vLLM, SGLang or GuideLLM benchmark printed)
 * - inferencex-result: "json" (one result, an `agg_bmk.json` array of them, or `run_stats.json`) | "csv" (the sweep's `summary.csv`)
 * - unknown: "binary" | "empty" | "text" | "json"
 */
export type Format =
  | "jsonl"
  | "json"
  | "json-array"
  | "csv"
  | "timeslices-json"
  | "timeslices-csv"
  | "aggregate-json"
  | "prometheus"
  | "text"
  | "command"
  | "workload"
  | "outputs"
  | "phase-export"
  | "phase-manifest"
  | "yaml"
  | "binary"
  | "empty"
  | "time-events"
  | "iteration-stats"
  | "request-stats"
  | "aiperf-raw"
  | "http-capture";

export interface Detected {
  kind: Kind;
  format: Format;
}
