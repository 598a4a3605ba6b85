/**
 * The input kinds a file can be: part of every file row the API returns, so the wire contract
 * owns them. Detection by content lives in lib/formats/detect.ts.
 */
/** The kinds of other benchmark tools' result files, imported as one run each (or a sweep). */
export const BENCH_RESULT_KINDS = [
  "vllm-bench",
  "sglang-bench",
  "genai-perf-export",
  "genai-perf-summary",
  "guidellm-report",
  "inferencex-result",
] as const;

export const KINDS = [
  "trtllm-perf-metrics",
  "trtllm-side-file",
  "aiperf-records",
  "aiperf-summary",
  "aiperf-server-metrics",
  "aiperf-gpu-telemetry",
  "aiperf-inputs",
  "aiperf-log",
  "server-log",
  "router-log",
  "engine-config",
  ...BENCH_RESULT_KINDS,
  "dynamo-request-trace",
  "dynamo-otlp-spans",
  "bench-console",
  "unknown",
] as const;

export type Kind = (typeof KINDS)[number];

/** How the browser names each kind. */
export const KIND_LABELS: Record<Kind, string> = {
  "trtllm-perf-metrics": "TensorRT-LLM perf metrics",
  "trtllm-side-file": "TensorRT-LLM stats (stored, not charted)",
  "aiperf-records": "aiperf per-request records",
  "aiperf-summary": "aiperf summary",
  "aiperf-server-metrics": "server metrics",
  "aiperf-gpu-telemetry": "GPU telemetry",
  "aiperf-inputs": "aiperf inputs",
  "aiperf-log": "aiperf log, outputs or run notes",
  "server-log": "server log",
  "router-log": "KV router log (routing decisions)",
  "engine-config": "engine config",
  "vllm-bench": "vLLM bench serve result",
  "sglang-bench": "SGLang bench_serving result",
  "genai-perf-export": "genai-perf per-request export",
  "genai-perf-summary": "genai-perf summary",
  "guidellm-report": "GuideLLM benchmarks report",
  "inferencex-result": "InferenceX result",
  "dynamo-request-trace": "Dynamo request trace",
  "dynamo-otlp-spans": "Dynamo OpenTelemetry spans (OTLP JSON)",
  "bench-console": "benchmark console output (vLLM, SGLang, GuideLLM)",
  unknown: "not recognised",
};
