/** Every input kind of design.md §3. Detected by content (lib/formats/detect.ts), never by file name. */
export const KINDS = [
  "trtllm-perf-metrics",
  "aiperf-records",
  "aiperf-summary",
  "aiperf-server-metrics",
  "aiperf-gpu-telemetry",
  "aiperf-inputs",
  "server-log",
  "engine-config",
  "unknown",
] as const;

export type Kind = (typeof KINDS)[number];

/**
 * The concrete layout inside a kind, so a parser knows how to read it:
 * - trtllm-perf-metrics: "jsonl" (post-refactor records, possibly `{"record":…}`-wrapped) | "json-array" (older /perf_metrics)
 * - aiperf-records: "jsonl"
 * - aiperf-summary: "json" | "csv" | "timeslices-json" | "timeslices-csv" | "aggregate-json"
 * - aiperf-server-metrics: "json" | "csv" | "jsonl" | "prometheus" (plain Prometheus text scrape)
 * - aiperf-gpu-telemetry: "jsonl"
 * - aiperf-inputs: "json"
 * - server-log: "text"
 * - engine-config: "yaml" | "json"
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
  | "yaml"
  | "binary"
  | "empty";

export interface Detected {
  kind: Kind;
  format: Format;
}

export const KIND_LABELS: Record<Kind, string> = {
  "trtllm-perf-metrics": "TensorRT-LLM perf metrics",
  "aiperf-records": "aiperf per-request records",
  "aiperf-summary": "aiperf summary",
  "aiperf-server-metrics": "server metrics",
  "aiperf-gpu-telemetry": "GPU telemetry",
  "aiperf-inputs": "aiperf inputs",
  "server-log": "server log",
  "engine-config": "engine config",
  unknown: "not recognised",
};
