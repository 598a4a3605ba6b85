/**
 * Run facts per source (docs/metrics.md §Run facts), each sample written the way its producer
 * writes it:
 * - aiperf v1 `input_config` (UserConfig dump; `input.prompt.input_tokens.mean` as in aiperf's
 *   `aiperf/common/config/prompt_config.py`) and v2 (a real 0.10 summary in test/fixtures);
 * - GPU telemetry lines as aiperf's `gpu_telemetry_export.jsonl` (one GPU through two exporters);
 * - TensorRT-LLM `extra-llm-api-config.yml` keys (`tensor_parallel_size`, …, the LLM API
 *   arguments of `tensorrt_llm/llmapi/llm_args.py`), a trtllm-serve disaggregated config
 *   (`context_servers` / `generation_servers` with `num_instances`), Dynamo component YAML with
 *   CLI arguments and a Dynamo graph deployment (`spec.services.<name>.replicas`, image tags);
 * - server-metrics labels (vLLM `model_name` / `engine`, Dynamo `model`) and startup log lines.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { readInputConfig } from "@/lib/formats/aiperf-input-config";
import { parseGpuSample } from "@/lib/formats/aiperf-gpu-telemetry";
import { parseSummaryJson } from "@/lib/formats/aiperf-summary";
import { parallelismFromJson, parallelismFromYaml, roleOfFileName } from "@/lib/formats/engine-parallelism";
import { LogFactsScanner } from "@/lib/formats/server-log-facts";
import type { MetricSeries } from "@/lib/formats/server-metrics/types";
import { aiperfFacts } from "@/lib/metrics/aiperf-run-facts";
import {
  engineConfigFacts,
  gpuCount,
  trtllmWorkerRoles,
  withWorkerCounts,
  WORKER_FILES_SOURCE,
} from "@/lib/metrics/engine-run-facts";
import { GpuTelemetry } from "@/lib/metrics/gpu-telemetry";
import { serverMetricsFacts, withLogFacts } from "@/lib/metrics/server-metrics/run-facts";
import { mergeFacts } from "@/lib/ingest/merge-facts";
import { fixture } from "../helpers/test-app";

describe("aiperf input_config", () => {
  it("v1: model, load and synthetic ISL/OSL", () => {
    const c = readInputConfig({
      endpoint: { model_names: ["Qwen/Qwen3-0.6B"], type: "chat", streaming: true, url: "localhost:8000" },
      input: { prompt: { input_tokens: { mean: 100, stddev: 0 }, output_tokens: { mean: 200, stddev: 0 } } },
      loadgen: { concurrency: 8, request_count: 64 },
    });
    expect(c).toMatchObject({
      model: "Qwen/Qwen3-0.6B",
      concurrency: 8,
      syntheticIsl: 100,
      syntheticOsl: 200,
    });
    const facts = aiperfFacts(
      { config: c, telemetryGpus: [] } as unknown as Parameters<typeof aiperfFacts>[0],
      null,
      new GpuTelemetry(),
    );
    expect(facts.isl).toEqual({ value: 100, source: "aiperf input_config v1 (synthetic prompt mean)" });
    expect(facts.concurrency).toEqual({ value: 8, source: "aiperf input_config v1" });
  });

  it("v1 with a prompt file: the synthetic settings do not describe the requests", () => {
    const c = readInputConfig({
      endpoint: { model_names: ["m"] },
      input: { file: "prompts.jsonl", prompt: { input_tokens: { mean: 550 } } },
      loadgen: { request_rate: 4 },
    });
    expect(c).toMatchObject({ syntheticIsl: null, requestRate: 4 });
  });

  it("v2 (aiperf 0.10): model and concurrency from models.items and the profiling phase; ISL/OSL measured", () => {
    const summary = parseSummaryJson(
      JSON.parse(fs.readFileSync(fixture("aiperf/real-v0.10__profile_export_aiperf.json"), "utf8")),
    )!;
    const facts = aiperfFacts(summary, null, new GpuTelemetry());
    expect(facts.model).toEqual({ value: "qwen3.6-nvfp4", source: "aiperf input_config v2" });
    expect(facts.concurrency).toEqual({ value: 16, source: "aiperf input_config v2" });
    expect(facts.isl).toBeUndefined();
  });
});

describe("aiperf v2 input_config ISL/OSL", () => {
  // Shaped as aiperf 0.10+ writes its BenchmarkConfig (src/aiperf/config/dataset/config.py
  // SyntheticDataset, content.py PromptConfig, distributions.py): `datasets[]` of `type: synthetic`
  // with `prompts.isl` / `prompts.osl` as sampling distributions, the phase naming its dataset.
  const v2 = (datasets: unknown[], phaseDataset?: string) => ({
    models: { items: [{ name: "mock-llama-8b" }] },
    endpoint: { urls: ["http://127.0.0.1:8001"], type: "chat", streaming: true },
    datasets,
    phases: [
      { name: "warmup", type: "concurrency", exclude_from_results: true, requests: 8, concurrency: 4 },
      {
        name: "profiling",
        type: "concurrency",
        requests: 200,
        concurrency: 4,
        ...(phaseDataset ? { dataset: phaseDataset } : {}),
      },
    ],
  });
  const synthetic = (prompts: unknown, name = "main") => ({
    name,
    type: "synthetic",
    entries: 100,
    random_seed: 42,
    prompts,
  });

  it("reads {mean, stddev} of the profiling phase's synthetic dataset, named v2 in its source", () => {
    const c = readInputConfig(
      v2([synthetic({ isl: { mean: 400, stddev: 60 }, osl: { mean: 60, stddev: 12 } })]),
    );
    expect(c).toMatchObject({ configVersion: 2, concurrency: 4, syntheticIsl: 400, syntheticOsl: 60 });
    const facts = aiperfFacts(
      { config: c, telemetryGpus: [] } as unknown as Parameters<typeof aiperfFacts>[0],
      null,
      new GpuTelemetry(),
    );
    expect(facts.isl).toEqual({ value: 400, source: "aiperf input_config v2 (synthetic prompt mean)" });
    expect(facts.osl).toEqual({ value: 60, source: "aiperf input_config v2 (synthetic output mean)" });
  });

  it("takes each distribution's expected value: fixed, log-normal, percentile, empirical, multimodal", () => {
    const read = (isl: unknown, osl: unknown) => {
      const c = readInputConfig(v2([synthetic({ isl, osl })]));
      return [c.syntheticIsl, c.syntheticOsl];
    };
    expect(read(512, { value: 128 })).toEqual([512, 128]);
    expect(
      read({ mean: 2048, median: 1800 }, { points: [{ value: 100, weight: 3 }, { value: 200 }] }),
    ).toEqual([
      2048,
      // (3 × 100 + 1 × 200) / 4
      125,
    ]);
    // {p50, p99} log-normal: σ = ln(4) / 2.3263478740408408 = 0.595916, mean = 1000 · e^(σ²/2) = 1194.3
    const [p] = read({ p50: 1000, p99: 4000 }, 10);
    expect(p).toBeCloseTo(1000 * Math.exp((Math.log(4) / 2.3263478740408408) ** 2 / 2), 9);
    expect(p).toBeCloseTo(1194.3, 1);
    // peaks 60 % at 128 and 40 % at 2048: 0.6 × 128 + 0.4 × 2048 = 896
    expect(
      read(
        {
          peaks: [
            { mean: 128, stddev: 20, weight: 60 },
            { mean: 2048, median: 1800, weight: 40 },
          ],
        },
        1,
      )[0],
    ).toBeCloseTo(896, 9);
  });

  it("weights a sequence distribution's pairs by probability", () => {
    const c = readInputConfig(
      v2([
        synthetic({
          sequence_distribution: [
            { isl: 128, osl: 64, probability: 40 },
            { isl: { mean: 512, stddev: 50 }, osl: 256, probability: 60 },
          ],
        }),
      ]),
    );
    // 0.4 × 128 + 0.6 × 512 = 358.4; 0.4 × 64 + 0.6 × 256 = 179.2
    expect(c.syntheticIsl).toBeCloseTo(358.4, 9);
    expect(c.syntheticOsl).toBeCloseTo(179.2, 9);
  });

  it("reads the dataset the profiling phase names; a file dataset has no synthetic lengths", () => {
    const file = { name: "trace", type: "file", path: "traces/a.jsonl", format: "mooncake_trace" };
    const named = readInputConfig(v2([file, synthetic({ isl: 300, osl: 30 }, "synth")], "synth"));
    expect([named.syntheticIsl, named.syntheticOsl]).toEqual([300, 30]);
    const fromFile = readInputConfig(v2([file, synthetic({ isl: 300, osl: 30 }, "synth")], "trace"));
    expect([fromFile.syntheticIsl, fromFile.syntheticOsl]).toEqual([null, null]);
  });
});

describe("GPU telemetry", () => {
  const line = (url: string, uuid: string | null, index: number, model: string) =>
    JSON.stringify({
      timestamp_ns: 1762551530946074466,
      dcgm_url: url,
      gpu_index: index,
      ...(uuid ? { gpu_uuid: uuid } : {}),
      gpu_model_name: model,
      hostname: "h",
      telemetry_data: { gpu_power_usage: 30 },
    });

  it("counts one GPU scraped through two exporters once, and GPUs without a uuid each", () => {
    const gpu = new GpuTelemetry();
    for (const text of [
      line("http://localhost:9400/metrics", "GPU-a", 0, "NVIDIA H100 80GB HBM3"),
      line("http://localhost:9402/metrics", "GPU-a", 0, "NVIDIA H100 80GB HBM3"),
      line("http://localhost:9400/metrics", "GPU-b", 1, "NVIDIA H100 80GB HBM3"),
      line("http://other:9400/metrics", null, 0, "NVIDIA H100 80GB HBM3"),
    ]) {
      const s = parseGpuSample(JSON.parse(text), text);
      if (typeof s !== "string") gpu.add(s, 0);
    }
    const facts = aiperfFacts(undefined, null, gpu);
    expect(facts.gpuCount).toEqual({ value: 3, source: "GPU telemetry (3 distinct GPUs)" });
    expect(facts.gpuModel).toEqual({ value: "NVIDIA H100 80GB HBM3", source: "GPU telemetry" });
  });

  it("falls back on the summary's telemetry_data, one GPU per uuid", () => {
    const summary = parseSummaryJson(
      JSON.parse(fs.readFileSync(fixture("aiperf/qwen-c1__profile_export_aiperf.json"), "utf8")),
    )!;
    const facts = aiperfFacts(summary, null, new GpuTelemetry());
    expect(facts.gpuCount).toEqual({ value: 1, source: "aiperf summary telemetry_data (1 distinct GPU)" });
  });
});

describe("engine configs", () => {
  it("TensorRT-LLM extra-llm-api-config.yml: one worker's sizes, no GPU count without replicas", () => {
    const p = parallelismFromYaml(
      "backend: pytorch\ntensor_parallel_size: 4\npipeline_parallel_size: 2\nmoe_expert_parallel_size: 4\nenable_attention_dp: true\n",
      roleOfFileName("configs/extra-llm-api-config.yml"),
    );
    expect(p.roles).toEqual([{ role: "combined", count: null, tp: 4, pp: 2, ep: 4, dp: null }]);
    expect(p.engine).toBe("trtllm");
    expect(engineConfigFacts([p]).gpuCount).toBeUndefined();
    expect(roleOfFileName("disagg/prefill.yaml")).toBe("prefill");
  });

  it("trtllm-serve disaggregated config: roles with instances give the GPU count", () => {
    const yaml = [
      "hostname: localhost",
      "port: 8000",
      "context_servers:",
      "  num_instances: 2",
      "  tensor_parallel_size: 2",
      "  urls:",
      '    - "localhost:8001"',
      "generation_servers:",
      "  num_instances: 1",
      "  tensor_parallel_size: 4",
      "  pipeline_parallel_size: 1",
    ].join("\n");
    const facts = engineConfigFacts([parallelismFromYaml(yaml)]);
    expect(facts.roles?.value).toEqual([
      { role: "prefill", count: 2, tp: 2, pp: null, ep: null, dp: null },
      { role: "decode", count: 1, tp: 4, pp: 1, ep: null, dp: null },
    ]);
    // 2 × 2 + 1 × 4 × 1
    expect(facts.gpuCount).toEqual({ value: 8, source: "engine config (Σ replicas × TP × PP × DP)" });
  });

  it("Dynamo component YAML with CLI arguments, and a graph deployment with replicas and an image tag", () => {
    const components = parallelismFromYaml(
      [
        "prefill:",
        "  args:",
        "    - --model",
        "    - Qwen/Qwen3-0.6B",
        "    - --tensor-parallel-size",
        '    - "2"',
        "decode:",
        "  args: [--tensor-parallel-size=4, --data-parallel-size=2]",
      ].join("\n"),
    );
    expect(components.model).toBe("Qwen/Qwen3-0.6B");
    expect(components.roles.map((r) => [r.role, r.tp, r.dp])).toEqual([
      ["prefill", 2, null],
      ["decode", 4, 2],
    ]);
    const graph = parallelismFromYaml(
      [
        "apiVersion: nvidia.com/v1alpha1",
        "kind: DynamoGraphDeployment",
        "spec:",
        "  services:",
        "    Frontend:",
        "      replicas: 1",
        "    VllmDecodeWorker:",
        "      replicas: 2",
        "      extraPodSpec:",
        "        mainContainer:",
        "          image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.4.1",
        "          args:",
        '            - "python3 -m dynamo.vllm --model Qwen/Qwen3-0.6B --tensor-parallel-size 2"',
      ].join("\n"),
    );
    const facts = engineConfigFacts([graph]);
    expect(facts.backend).toEqual({ value: "dynamo+vllm", source: "engine config" });
    expect(facts.backendVersion).toEqual({ value: "0.4.1", source: "engine config (container image tag)" });
    expect(facts.roles?.value).toEqual([{ role: "decode", count: 2, tp: 2, pp: null, ep: null, dp: null }]);
    expect(facts.gpuCount?.value).toBe(4);
  });

  it("JSON configs read alike", () => {
    const p = parallelismFromJson({ tensor_parallel_size: 8, kv_cache_config: { enable_block_reuse: true } });
    expect(p.roles).toEqual([{ role: "combined", count: null, tp: 8, pp: null, ep: null, dp: null }]);
    expect(gpuCount([{ role: "x", count: 1, tp: null, pp: null, ep: null, dp: null }])).toBeNull();
  });
});

describe("TensorRT-LLM worker files and engine configs", () => {
  it("fill each role's workers from its perf-metrics files and give Σ workers × TP × PP", () => {
    const ctx = parallelismFromYaml(
      "tensor_parallel_size: 2\n",
      roleOfFileName("ctx_extra-llm-api-config.yml"),
    );
    const gen = parallelismFromYaml(
      "tensor_parallel_size: 4\npipeline_parallel_size: 2\n",
      roleOfFileName("gen_extra-llm-api-config.yml"),
    );
    const workers = trtllmWorkerRoles([
      { file: 0, role: "prefill", server: "http://ctx-0:8001" },
      { file: 1, role: "prefill", server: "http://ctx-1:8001" },
      // a second capture of the same decode server counts once
      { file: 2, role: "decode", server: "http://gen-0:8002" },
      { file: 3, role: "decode", server: "http://gen-0:8002" },
    ]);
    expect(workers.map((w) => [w.role, w.count])).toEqual([
      ["prefill", 2],
      ["decode", 1],
    ]);
    const facts = mergeFacts([
      { analyzer: "engine-config", facts: engineConfigFacts([ctx, gen]) },
      { analyzer: "trtllm", facts: { roles: { value: workers, source: WORKER_FILES_SOURCE } } },
    ]);
    // 2 × 2 × 1 + 1 × 4 × 2
    expect(facts.gpuCount).toEqual({
      value: 12,
      source: `engine config × ${WORKER_FILES_SOURCE}: Σ workers × TP × PP`,
    });
    // GPUs seen by telemetry still count first.
    const seen = mergeFacts([
      { analyzer: "aiperf", facts: { gpuCount: { value: 16, source: "GPU telemetry (16 distinct GPUs)" } } },
      { analyzer: "engine-config", facts: engineConfigFacts([ctx, gen]) },
      { analyzer: "trtllm", facts: { roles: { value: workers, source: WORKER_FILES_SOURCE } } },
    ]);
    expect(seen.gpuCount?.value).toBe(16);
    expect(seen.roles?.value.map((r) => r.count)).toEqual([2, 1]);
  });

  it("a combined config covers workers of one kind only; stated replicas are kept", () => {
    const combined = [{ role: "combined", count: null, tp: 4, pp: null, ep: null, dp: null }];
    const mixed = [
      { role: "prefill", count: 1, tp: null, pp: null, ep: null, dp: null },
      { role: "decode", count: 1, tp: null, pp: null, ep: null, dp: null },
    ];
    expect(withWorkerCounts(combined, mixed)).toBeNull();
    expect(withWorkerCounts(combined, [{ ...mixed[0], role: "combined", count: 3 }])?.[0].count).toBe(3);
    const stated = [{ role: "decode", count: 4, tp: 2, pp: null, ep: null, dp: null }];
    expect(withWorkerCounts(stated, mixed)).toBeNull();
  });
});

describe("server metrics and logs", () => {
  const series = (name: string, endpoint: string, labels: Record<string, string>): MetricSeries => ({
    name,
    type: "counter",
    endpoint,
    labels,
    stats: {},
  });
  const row = (endpoint: string, role: "prefill" | "decode" | "combined" | "frontend") =>
    ({ endpoint, role }) as Parameters<typeof serverMetricsFacts>[1][number];

  it("vLLM: model_name, engine cores as DP, backend from metric names", () => {
    const facts = serverMetricsFacts(
      [
        series("vllm:prompt_tokens", "a:8000", { model_name: "Qwen/Qwen3-0.6B", engine: "0" }),
        series("vllm:prompt_tokens", "a:8000", { model_name: "Qwen/Qwen3-0.6B", engine: "1" }),
      ],
      [row("a:8000", "combined")],
      "vllm",
    );
    expect(facts.model).toEqual({ value: "Qwen/Qwen3-0.6B", source: "server-metrics label model_name" });
    expect(facts.backend).toEqual({ value: "vllm", source: "server metrics (metric names)" });
    expect(facts.roles?.value).toEqual([{ role: "combined", count: 1, tp: null, pp: null, ep: null, dp: 2 }]);
  });

  it("Dynamo: the served model name before the engines' model path; roles counted per endpoint", () => {
    const facts = serverMetricsFacts(
      [
        series("dynamo_frontend_requests", "f:8000", { model: "qwen" }),
        series("trtllm_request_success", "p:9000", { model_name: "/models/qwen" }),
        series("trtllm_request_success", "d1:9000", { model_name: "/models/qwen" }),
        series("trtllm_request_success", "d2:9000", { model_name: "/models/qwen" }),
      ],
      [
        row("f:8000", "frontend"),
        row("p:9000", "prefill"),
        row("d1:9000", "decode"),
        row("d2:9000", "decode"),
      ],
      "dynamo+trtllm",
    );
    expect(facts.model).toEqual({
      value: "qwen",
      source: "server-metrics label model (Dynamo served model)",
    });
    expect(facts.roles?.value.map((r) => [r.role, r.count])).toEqual([
      ["prefill", 1],
      ["decode", 2],
    ]);
  });

  it("one model labelled in two cases is one model, in its cased spelling", () => {
    const facts = serverMetricsFacts(
      [
        series("dynamo_frontend_requests", "f:8000", { model: "qwen/qwen3-0.6b" }),
        series("dynamo_frontend_requests", "f:8000", { model: "Qwen/Qwen3-0.6B" }),
        series("dynamo_frontend_requests", "f:8000", { model: "meta-llama/Llama-3.1-8B" }),
      ],
      [row("f:8000", "frontend")],
      "dynamo",
    );
    expect(facts.model?.value).toBe("Qwen/Qwen3-0.6B, meta-llama/Llama-3.1-8B");
  });

  it("startup logs: engine version, model and parallel sizes", () => {
    const vllm = new LogFactsScanner();
    vllm.line("INFO 11-07 13:30:01 [api_server.py:1805] vLLM API server version 0.11.0");
    vllm.line(
      "INFO 11-07 13:30:05 [core.py:77] Initializing a V1 LLM engine (v0.11.0) with config: model='Qwen/Qwen3-0.6B', speculative_config=None, tokenizer='Qwen/Qwen3-0.6B', tensor_parallel_size=2, pipeline_parallel_size=1, data_parallel_size=1, served_model_name=Qwen/Qwen3-0.6B, enable_prefix_caching=True",
    );
    expect(vllm.result()).toEqual({
      engine: "vllm",
      version: "0.11.0",
      model: "Qwen/Qwen3-0.6B",
      tp: 2,
      pp: 1,
      dp: 1,
      ep: null,
    });
    const sglang = new LogFactsScanner();
    sglang.line(
      "[2025-11-07 13:30:00] server_args=ServerArgs(model_path='Qwen/Qwen3-0.6B', tokenizer_path='Qwen/Qwen3-0.6B', tp_size=4, pp_size=1, dp_size=2, ep_size=1, served_model_name='qwen3')",
    );
    const facts = withLogFacts({}, sglang.result());
    expect(facts.model).toEqual({ value: "qwen3", source: "server log (SGLang startup)" });
    expect(facts.roles?.value).toEqual([{ role: "combined", count: null, tp: 4, pp: 1, dp: 2, ep: 1 }]);
    expect(new LogFactsScanner().result()).toBeNull();
  });
});

describe("merging sources", () => {
  it("takes each fact from the source trusted first for it", () => {
    const merged = mergeFacts([
      { analyzer: "trtllm", backend: "trtllm" },
      {
        analyzer: "aiperf",
        facts: {
          model: { value: "qwen", source: "aiperf input_config v1" },
          gpuCount: { value: 8, source: "GPU telemetry (8 distinct GPUs)" },
        },
      },
      {
        analyzer: "server-metrics",
        facts: {
          model: { value: "/models/qwen", source: "server-metrics label model_name" },
          backend: { value: "dynamo+trtllm", source: "server metrics (metric names)" },
        },
      },
      {
        analyzer: "engine-config",
        facts: {
          gpuCount: { value: 4, source: "engine config (Σ replicas × TP × PP × DP)" },
          backend: { value: "trtllm", source: "engine config" },
        },
      },
    ]);
    expect(merged.model?.value).toBe("qwen");
    expect(merged.gpuCount?.value).toBe(8);
    expect(merged.backend?.value).toBe("dynamo+trtllm");
    expect(mergeFacts([{ analyzer: "trtllm", backend: "trtllm" }]).backend).toEqual({
      value: "trtllm",
      source: "TensorRT-LLM perf metrics",
    });
  });

  it("roles the server metrics only defaulted to combined yield to the perf metrics' prefill and decode workers", () => {
    const role = (r: string, count: number) => ({ role: r, count, tp: null, pp: null, ep: null, dp: null });
    const server = { value: [role("combined", 1)], source: "server-metrics endpoints (role labels)" };
    const workers = { value: [role("prefill", 1), role("decode", 2)], source: WORKER_FILES_SOURCE };
    expect(
      mergeFacts([
        { analyzer: "trtllm", facts: { roles: workers } },
        { analyzer: "server-metrics", facts: { roles: server } },
      ]).roles,
    ).toEqual(workers);
    // Role labels the server metrics do carry still come first, and so does "combined" beside
    // aggregated perf metrics.
    const labelled = { value: [role("prefill", 1), role("decode", 3)], source: server.source };
    expect(
      mergeFacts([
        { analyzer: "trtllm", facts: { roles: workers } },
        { analyzer: "server-metrics", facts: { roles: labelled } },
      ]).roles,
    ).toEqual(labelled);
    const aggregated = { value: [role("combined", 2)], source: WORKER_FILES_SOURCE };
    expect(
      mergeFacts([
        { analyzer: "trtllm", facts: { roles: aggregated } },
        { analyzer: "server-metrics", facts: { roles: server } },
      ]).roles,
    ).toEqual(server);
  });
});
