/**
 * The example runs a fresh Runlens starts with: real samples from test/fixtures, one per input
 * family, so a newcomer sees every view with data before uploading anything.
 */
export interface ExampleRun {
  name: string;
  labels: string[];
  /** Paths relative to test/fixtures, and the name each file gets in the run. */
  files: Array<{ path: string; name: string }>;
}

const agg = (c: string, f: string) => `inferencex-aggregation/cases/${c}/input/results/${f}`;

export const EXAMPLE_RUNS: ExampleRun[] = [
  {
    name: "aiperf · Qwen3-0.6B · concurrency 4",
    labels: ["example", "aiperf"],
    files: [
      { path: "aiperf/qwen-c4__profile_export.jsonl", name: "profile_export.jsonl" },
      { path: "aiperf/qwen-c4__profile_export_aiperf.json", name: "profile_export_aiperf.json" },
      { path: "aiperf/qwen-c4__gpu_telemetry_export.jsonl", name: "gpu_telemetry_export.jsonl" },
    ],
  },
  {
    name: "aiperf · Qwen3-0.6B · concurrency 1",
    labels: ["example", "aiperf"],
    files: [
      { path: "aiperf/qwen-c1__profile_export.jsonl", name: "profile_export.jsonl" },
      { path: "aiperf/qwen-c1__profile_export_aiperf.json", name: "profile_export_aiperf.json" },
      { path: "aiperf/qwen-c1__gpu_telemetry_export.jsonl", name: "gpu_telemetry_export.jsonl" },
    ],
  },
  {
    name: "TensorRT-LLM · disaggregated perf metrics",
    labels: ["example", "trtllm", "disagg"],
    files: [
      {
        path: "trtllm/perf_metrics-disagg-reconstructed.jsonl",
        name: "perf_metrics-disagg-host-1-20260101T000000Z.jsonl",
      },
      {
        path: "trtllm/illustrative-perf_metrics-server-gen-worker.jsonl",
        name: "perf_metrics-server-gen-2-20260101T000000Z.jsonl",
      },
      { path: "trtllm/dynamo_frontend_metrics.prom", name: "dynamo_frontend_metrics.prom" },
      { path: "trtllm/dynamo_trtllm_worker_metrics.prom", name: "dynamo_trtllm_worker_metrics.prom" },
    ],
  },
  {
    name: "vLLM · KV offload to CPU",
    labels: ["example", "vllm"],
    files: [
      {
        path: agg("vllm-kv-offload-transfer", "aiperf_artifacts/server_metrics_export.json"),
        name: "server_metrics_export.json",
      },
      {
        path: agg("vllm-kv-offload-transfer", "aiperf_artifacts/profile_export.jsonl"),
        name: "profile_export.jsonl",
      },
      {
        path: agg("vllm-kv-offload-transfer", "aiperf_artifacts/profile_export_aiperf.json"),
        name: "profile_export_aiperf.json",
      },
    ],
  },
  {
    name: "TensorRT-LLM · 1 prefill + 3 decode server metrics",
    labels: ["example", "trtllm", "disagg"],
    files: [
      {
        path: agg("trap-trtllm-disagg-total-names", "aiperf_artifacts/server_metrics_export.json"),
        name: "server_metrics_export.json",
      },
      {
        path: agg("trap-trtllm-disagg-total-names", "aiperf_artifacts/profile_export.jsonl"),
        name: "profile_export.jsonl",
      },
      {
        path: agg("trap-trtllm-disagg-total-names", "aiperf_artifacts/profile_export_aiperf.json"),
        name: "profile_export_aiperf.json",
      },
    ],
  },
];
