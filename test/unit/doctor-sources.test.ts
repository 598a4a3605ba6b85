/**
 * What the comparability doctor reads from newer producer files (docs/metrics.md §Comparable
 * runs), on generated input that follows the producers' sources and on real files where one
 * carries the fields:
 * - aiperf 0.8+ `input_config.datasets[]` (aiperf src/aiperf/config/dataset/config.py:
 *   SyntheticDataset, FileDataset, PublicDataset with `sampling` and `random_seed`;
 *   src/aiperf/config/phases.py `phases[].dataset`; the 0.10 summary's `run_info.random_seed`);
 * - vLLM's `--speculative-config` and `--kv-transfer-config` (vllm/engine/arg_utils.py
 *   `EngineArgs`, vllm/config/speculative.py `SpeculativeConfig.__repr__`,
 *   vllm/config/kv_transfer.py `KVTransferConfig`) in a `vllm bench sweep` result
 *   (vllm/benchmarks/sweep/serve.py adds the serve overrides to each run's JSON) and in the
 *   server log (vllm/entrypoints `log_non_default_args`, vllm/config/vllm.py `VllmConfig.__str__`);
 * - client-side queueing: aiperf 0.8+ `credit_to_start_latency`
 *   (src/aiperf/metrics/derived_latency.py: `request_start_ns − credit_issued_ns`).
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SUMMARY_CREDIT_DROP_WORDS, SUMMARY_QUEUE_WAIT_WORDS } from "@/lib/api/source-words";
import { EMPTY_FACTS } from "@/lib/api/run-facts";
import { parseSummaryJson } from "@/lib/formats/aiperf-summary";
import { readPythonRepr } from "@/lib/formats/python-repr";
import { aiperfRunConfig, vllmServeRunConfig } from "@/lib/formats/run-config";
import { LogFactsScanner } from "@/lib/formats/server-log-facts";
import { readVllmResult } from "@/lib/formats/vllm-bench";
import { queueWaitInfo } from "@/lib/metrics/aiperf-run-result";
import { configReasons } from "@/lib/metrics/config-differences";
import { diagnose, type DoctorRun } from "@/lib/metrics/run-differences";
import { percentile } from "@/lib/metrics/stats";
import { benchImportAnalyzer } from "@/lib/ingest/analyzers/bench-import";
import { serverMetricsAnalyzer } from "@/lib/ingest/analyzers/server-metrics";
import { diskIngestFile, runAnalyzer } from "../helpers/analyze";
import { describeRealPublic, realPublicFile, realPublicJson } from "../helpers/real-public";

const reasons = (
  a: Record<string, string | number | boolean>,
  b: Record<string, string | number | boolean>,
) => configReasons(a, b).map((r) => [r.name, r.severity, r.a, r.b]);

/** A v2 `BenchmarkConfig` as aiperf 0.8+ writes it in `input_config`. */
const v2 = (
  datasets: unknown[],
  phases: unknown[] = [{ name: "profiling", type: "concurrency", concurrency: 8 }],
) => ({
  models: { items: [{ name: "m" }] },
  endpoint: { urls: ["http://localhost:8000"], type: "chat", streaming: true },
  datasets,
  phases,
});

describe("aiperf 0.8+ datasets[]", () => {
  it("a file, public or synthetic dataset reads as the v1 layout names it, with its sampling and seed", () => {
    const file = aiperfRunConfig(
      v2([
        {
          name: "main",
          type: "file",
          path: "/data/agent/prompts.jsonl",
          format: "multi_turn",
          sampling: "shuffle",
          random_seed: 7,
        },
      ]),
      null,
    );
    expect(file).toEqual({
      dataset: "input file prompts.jsonl (multi_turn)",
      datasetSource: "aiperf input_config.datasets[0]",
      datasetSampling: "shuffle",
      datasetSamplingSource: "aiperf input_config.datasets[0].sampling",
      randomSeed: 7,
      randomSeedSource: "aiperf input_config.datasets[0].random_seed",
    });
    // The same file through the v1 layout (≤0.7 `input.file` + `custom_dataset_type`): one corpus.
    const v1 = aiperfRunConfig({ input: { file: "prompts.jsonl", custom_dataset_type: "multi_turn" } }, null);
    expect(v1.dataset).toBe(file.dataset);
    expect(reasons(v1, file)).toEqual([]);

    const pub = aiperfRunConfig(
      v2([{ name: "sg", type: "public", dataset: "sharegpt", sampling: "random" }]),
      null,
    );
    expect(pub.dataset).toBe("public dataset sharegpt");
    const synth = aiperfRunConfig(
      v2([{ name: "default", type: "synthetic", entries: 100, prompts: { isl: 512, osl: 128 } }]),
      null,
    );
    expect(synth.dataset).toBe("synthetic");
    expect(synth.datasetSampling).toBeUndefined();
    expect(reasons(pub, synth)).toEqual([["dataset", "blocking", "public dataset sharegpt", "synthetic"]]);
    // Inline records have no path: named as inline, with their format.
    expect(
      aiperfRunConfig(
        v2([{ name: "i", type: "file", records: [{ text: "hi" }], format: "single_turn" }]),
        null,
      ).dataset,
    ).toBe("inline records (single_turn)");
  });

  it("the profiling phase's dataset is the one read; the seed falls back to run_info", () => {
    const cfg = v2(
      [
        { name: "warm", type: "synthetic", prompts: { isl: 64 } },
        { name: "trace", type: "file", path: "traces/mooncake.jsonl", format: "mooncake_trace" },
      ],
      [
        { name: "warmup", type: "concurrency", exclude_from_results: true, dataset: "warm" },
        { name: "profiling", type: "concurrency", dataset: "trace" },
      ],
    );
    expect(aiperfRunConfig(cfg, null, { random_seed: 42 })).toEqual({
      dataset: "input file mooncake.jsonl (mooncake_trace)",
      datasetSource: "aiperf input_config.datasets[1]",
      randomSeed: 42,
      randomSeedSource: "aiperf run_info.random_seed",
    });
  });

  it("dataset: the same corpus drawn another way is a caveat; another corpus still blocks", () => {
    const one = (sampling: string, p = "a.jsonl") =>
      aiperfRunConfig(v2([{ name: "d", type: "file", path: p, format: "single_turn", sampling }]), null);
    expect(reasons(one("sequential"), one("sequential"))).toEqual([]);
    const r = configReasons(one("sequential"), one("random"));
    expect(r.map((x) => [x.name, x.severity, x.label, x.a, x.b])).toEqual([
      [
        "dataset",
        "caveat",
        "dataset sampling",
        "input file a.jsonl (single_turn), sampling sequential",
        "input file a.jsonl (single_turn), sampling random",
      ],
    ]);
    expect(r[0].evidence).toMatch(/datasets\[0\]\.sampling/);
    expect(reasons(one("sequential"), one("random", "b.jsonl")).map((x) => x.slice(0, 2))).toEqual([
      ["dataset", "blocking"],
    ]);
    // A run that does not state its sampling is no difference.
    expect(
      reasons(
        one("random"),
        aiperfRunConfig({ input: { file: "a.jsonl", custom_dataset_type: "single_turn" } }, null),
      ),
    ).toEqual([]);
  });

  it("real aiperf 0.10 summary (test/fixtures/aiperf/real-v0.10): datasets[0] file and its seed", () => {
    const s = parseSummaryJson(
      JSON.parse(
        fs.readFileSync(
          path.resolve(__dirname, "../fixtures/aiperf/real-v0.10__profile_export_aiperf.json"),
          "utf8",
        ),
      ),
    )!;
    expect(s.runConfig).toEqual({
      dataset: "input file nvfp4_agent.jsonl (multi_turn)",
      datasetSource: "aiperf input_config.datasets[0]",
      randomSeed: 42,
      randomSeedSource: "aiperf input_config.datasets[0].random_seed",
    });
  });
});

describe("vLLM --speculative-config and --kv-transfer-config", () => {
  it("reads both from a bench sweep result's serve overrides, as an object or its JSON text", () => {
    const eagle = vllmServeRunConfig(
      {
        speculative_config: {
          method: "eagle3",
          model: "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B",
          num_speculative_tokens: 3,
        },
        kv_transfer_config: '{"kv_connector":"LMCacheConnectorV1","kv_role":"kv_both"}',
      },
      "vLLM bench result",
      false,
    );
    expect(eagle).toEqual({
      speculativeDecoding: "method=eagle3, num_speculative_tokens=3, draft_model=EAGLE3-LLaMA3.1-Instruct-8B",
      speculativeDecodingSource: "vLLM bench result speculative_config",
      kvOffloadConfig: "offload=lmcache, kv_connector=LMCacheConnectorV1, kv_role=kv_both",
      kvOffloadConfigSource: "vLLM bench result kv_transfer_config",
    });
    // A result without serving arguments says nothing.
    expect(vllmServeRunConfig({ max_concurrency: 8 }, "vLLM bench result", false)).toEqual({});
    // vLLM's native CPU offload connector and a MultiConnector's parts in order.
    expect(
      vllmServeRunConfig(
        {
          kv_transfer_config: {
            kv_connector: "MultiConnector",
            kv_role: "kv_both",
            kv_connector_extra_config: {
              connectors: [
                { kv_connector: "NixlConnector", kv_role: "kv_both" },
                { kv_connector: "OffloadingConnector", kv_role: "kv_both" },
              ],
            },
          },
        },
        "x",
        false,
      ).kvOffloadConfig,
    ).toBe("offload=NixlConnector+native, kv_connector=MultiConnector, kv_role=kv_both");

    const r = readVllmResult({
      date: "20260101-000000",
      backend: "vllm",
      model_id: "meta-llama/Llama-3.1-8B-Instruct",
      num_prompts: 100,
      completed: 100,
      failed: 0,
      max_concurrency: 8,
      request_rate: "inf",
      duration: 10,
      mean_ttft_ms: 20,
      median_ttft_ms: 19,
      p99_ttft_ms: 40,
      run_number: 0,
      speculative_config: { method: "ngram", num_speculative_tokens: 5, prompt_lookup_max: 4 },
      max_num_seqs: 8,
    });
    expect(r.facts).toMatchObject({
      speculativeDecoding: "method=ngram, num_speculative_tokens=5",
      speculativeDecodingSource: "vLLM bench result speculative_config",
    });
  });

  it("reads the server log's non-default args and the engine line's SpeculativeConfig repr", () => {
    const log = new LogFactsScanner();
    log.line(
      "(APIServer pid=1) INFO 08-01 10:00:00 [utils.py:326] non-default args: {'model_tag': 'meta-llama/Llama-3.1-8B-Instruct', 'model': 'meta-llama/Llama-3.1-8B-Instruct', 'speculative_config': {'method': 'eagle3', 'model': 'yuhuili/EAGLE3-LLaMA3.1-Instruct-8B', 'num_speculative_tokens': 3}, 'kv_transfer_config': KVTransferConfig(kv_connector='LMCacheConnectorV1', engine_id='0e4f', kv_buffer_device='cuda', kv_buffer_size=1000000000.0, kv_role='kv_both', kv_rank=None, kv_parallel_size=1, kv_ip='127.0.0.1', kv_port=14579, kv_connector_extra_config={}, kv_connector_module_path=None)}",
    );
    log.line(
      "(EngineCore_DP0 pid=2) INFO 08-01 10:00:05 [core.py:77] Initializing a V1 LLM engine (v0.11.0) with config: model='meta-llama/Llama-3.1-8B-Instruct', speculative_config=SpeculativeConfig(method='eagle3', model='yuhuili/EAGLE3-LLaMA3.1-Instruct-8B', num_spec_tokens=3), tokenizer='meta-llama/Llama-3.1-8B-Instruct', tensor_parallel_size=1, pipeline_parallel_size=1, data_parallel_size=1",
    );
    expect(log.runConfig()).toEqual({
      speculativeDecoding: "method=eagle3, num_speculative_tokens=3, draft_model=EAGLE3-LLaMA3.1-Instruct-8B",
      speculativeDecodingSource: "vLLM non-default args speculative_config",
      kvOffloadConfig: "offload=lmcache, kv_connector=LMCacheConnectorV1, kv_role=kv_both",
      kvOffloadConfigSource: "vLLM non-default args kv_transfer_config",
    });
    expect(log.result()?.tp).toBe(1);

    // Only the engine line, speculative decoding off: `speculative_config=None`.
    const plain = new LogFactsScanner();
    plain.line(
      "INFO 11-07 13:30:05 [core.py:77] Initializing a V1 LLM engine (v0.11.0) with config: model='Qwen/Qwen3-0.6B', speculative_config=None, tokenizer='Qwen/Qwen3-0.6B', tensor_parallel_size=2",
    );
    expect(plain.runConfig()).toEqual({
      speculativeDecoding: "method=none",
      speculativeDecodingSource: "vLLM engine config speculative_config",
    });
    // A non-default args line without them: vLLM's defaults, off.
    const defaults = new LogFactsScanner();
    defaults.line(
      "INFO non-default args: {'model': 'Qwen/Qwen3-0.6B', 'max_num_seqs': 64, 'enable_prefix_caching': True}",
    );
    expect(defaults.runConfig()).toEqual({
      speculativeDecoding: "method=none",
      speculativeDecodingSource: "vLLM non-default args speculative_config",
      kvOffloadConfig: "offload=none",
      kvOffloadConfigSource: "vLLM non-default args kv_transfer_config",
    });
    // A repr Runlens cannot read whole (an object's default repr) states nothing.
    const odd = new LogFactsScanner();
    odd.line("non-default args: {'model': 'x', 'logits_processors': [<object at 0x7f>]}");
    expect(odd.runConfig()).toEqual({});
  });

  it("feeds speculative-decoding and kv-offload: on in one run only blocks, another token count is a caveat", () => {
    const on = vllmServeRunConfig(
      { speculative_config: { method: "eagle3", num_speculative_tokens: 3 } },
      "v",
      true,
    );
    const five = vllmServeRunConfig(
      { speculative_config: { method: "eagle3", num_speculative_tokens: 5 } },
      "v",
      true,
    );
    const off = vllmServeRunConfig({}, "v", true);
    expect(reasons(off, on)).toEqual([["speculative-decoding", "blocking", "method none", "method eagle3"]]);
    expect(reasons(on, five)).toEqual([
      ["speculative-decoding", "caveat", "num_speculative_tokens 3", "num_speculative_tokens 5"],
    ]);
    // A draft model without a method (vLLM infers it) is still on against none.
    const noMethod = vllmServeRunConfig(
      { speculative_config: { model: "org/draft-1b", num_speculative_tokens: 4 } },
      "v",
      true,
    );
    expect(reasons(off, noMethod)).toEqual([
      ["speculative-decoding", "blocking", "method=none", "num_speculative_tokens=4, draft_model=draft-1b"],
    ]);
    const lmcache = vllmServeRunConfig(
      { kv_transfer_config: { kv_connector: "LMCacheConnectorV1", kv_role: "kv_both" } },
      "v",
      true,
    );
    expect(reasons(off, lmcache).filter((x) => x[0] === "kv-offload")).toEqual([
      ["kv-offload", "blocking", "offload none", "offload lmcache"],
    ]);
  });

  it("reads Python reprs exactly or not at all", () => {
    expect(readPythonRepr("{'a': [1, 2.5, -3e-2], 'b': (True, None), 'c': \"x'y\"}")?.value).toEqual({
      a: [1, 2.5, -0.03],
      b: [true, null],
      c: "x'y",
    });
    expect(readPythonRepr("KVTransferConfig(kv_connector='X', kv_buffer_size=1e9)")?.value).toEqual({
      __class__: "KVTransferConfig",
      kv_connector: "X",
      kv_buffer_size: 1e9,
    });
    expect(readPythonRepr("{'a': <function f at 0x1>}")).toBeUndefined();
    // A long line is read in one pass (each token matched in place, not on a copy of the rest): a
    // copy of the rest per token would move about 10^11 characters for this 1.3 MB line, far past
    // the test's time limit, so no clock is read here.
    const long = `{${Array.from({ length: 50_000 }, (_, i) => `'k${i}': [${i}, 1.5, None]`).join(", ")}}`;
    const big = readPythonRepr(long)?.value as Record<string, unknown>;
    expect(Object.keys(big)).toHaveLength(50_000);
    expect(readPythonRepr("{'a': 1")).toBeUndefined();
  });
});

describe("client-side queueing (a saturated load generator)", () => {
  it("queueWaitInfo: credit_to_start_latency first, else credit_drop_latency, in ms", () => {
    expect(
      queueWaitInfo({
        credit_to_start_latency: { unit: "ms", p50: 1.5, p90: 9, count: 80 },
        credit_drop_latency: { unit: "ms", p50: 0.5, p90: 1 },
      }),
    ).toEqual({
      queueWaitP50Ms: 1.5,
      queueWaitP90Ms: 9,
      queueWaitCount: 80,
      queueWaitSource: SUMMARY_QUEUE_WAIT_WORDS,
    });
    expect(queueWaitInfo({ credit_drop_latency: { unit: "ns", p50: 2_000_000, p90: 4_000_000 } })).toEqual({
      queueWaitP50Ms: 2,
      queueWaitP90Ms: 4,
      queueWaitSource: SUMMARY_CREDIT_DROP_WORDS,
    });
    expect(queueWaitInfo({ time_to_first_token: { unit: "ms", p50: 3 } })).toEqual({});
  });
});

describeRealPublic("aiperf-0.8.0-sglang-glm5.1-agentic-conc16", () => {
  const folder = "aiperf-0.8.0-sglang-glm5.1-agentic-conc16";
  it("credit_to_start_latency is request_start_ns − credit_issued_ns of its records; no queueing, the concurrency held is the only saturation evidence", () => {
    const s = parseSummaryJson(realPublicJson(folder, "profile_export_aiperf.json"))!;
    const info = queueWaitInfo(s.metrics);
    expect(info).toMatchObject({
      queueWaitP50Ms: 1.852928,
      queueWaitP90Ms: 8.799027200000001,
      queueWaitCount: 87,
    });
    // aiperf's own definition, recomputed from the records (float64 epoch-ns: within a microsecond).
    const waits = fs
      .readFileSync(realPublicFile(folder, "profile_export.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l).metadata)
      .filter((m) => m.benchmark_phase === "profiling" && typeof m.credit_issued_ns === "number")
      .map((m) => Math.max(m.request_start_ns - m.credit_issued_ns, 0) / 1e6);
    expect(waits).toHaveLength(87);
    expect(percentile(waits, 50)).toBeCloseTo(info.queueWaitP50Ms as number, 3);
    expect(percentile(waits, 90)).toBeCloseTo(info.queueWaitP90Ms as number, 3);
    // 1.9 ms of waiting against a TTFT of minutes is no queueing; 13.3 of 16 held (an agentic
    // run's think time) is the concurrency rule's caveat, the only evidence given.
    const run: DoctorRun = {
      facts: { ...EMPTY_FACTS, concurrency: { value: 16, source: "aiperf input_config", edited: false } },
      requests: {
        count: 87,
        errorCount: 0,
        cancelledCount: 0,
        warmupCount: 0,
        warmupSource: "summary",
        inputTokens: null,
        outputTokens: null,
        ttftMs: {
          count: 87,
          mean: s.metrics.time_to_first_token.avg!,
          p50: s.metrics.time_to_first_token.p50!,
          p90: s.metrics.time_to_first_token.p90!,
          p99: s.metrics.time_to_first_token.p99!,
        },
      },
      info: { effectiveConcurrency: s.metrics.effective_concurrency.avg!, ...info },
    };
    const [r, ...rest] = diagnose(run, run).reasons;
    expect(rest).toEqual([]);
    expect(r.name).toBe("saturation");
    expect(r.a).toMatch(
      /^concurrency 13\.33 of 16 requested; queue wait p50 1\.85 ms, p90 8\.80 ms against TTFT p50 196420 ms/,
    );
    expect(r.evidence).toMatch(/effective concurrency below 90%/);
    expect(r.evidence).not.toMatch(/client-side queueing/);
  });
});

describeRealPublic("vllm-bench-serve-glm4.7-fp8-b200-with-console", () => {
  it("vLLM bench results that state no serving arguments give no speculative or KV-transfer entry", () => {
    const r = readVllmResult(
      realPublicJson(
        "vllm-bench-serve-glm4.7-fp8-b200-with-console",
        "run_1_TP4_DP2_CTX2048_C100_P100_O128.json",
      ),
    );
    expect(r.facts.speculativeDecoding).toBeUndefined();
    expect(r.facts.kvOffloadConfig).toBeUndefined();
  });
});

/**
 * No real vLLM file in ../shared/fixtures states `--speculative-config` or `--kv-transfer-config`
 * (its results, consoles and logs are negative cases above), so these are generated files written
 * from vLLM's source, listed in test/fixtures/vllm-serve/INDEX.md: the `vllm serve` startup log
 * (vllm/entrypoints/utils.py `log_non_default_args`, vllm/config/kv_transfer.py
 * `KVTransferConfig`, vllm/v1/engine/core.py's engine config line), `vllm bench sweep serve`
 * results (vllm/benchmarks/sweep/serve.py `_update_run_data`, vllm/benchmarks/sweep/param_sweep.py
 * `ParameterSweepItem`) and a `vllm bench serve --metadata` result with the spec-decode counters
 * (vllm/benchmarks/serve.py `_add_spec_decode_result`, vllm/v1/metrics/loggers.py
 * `SpecDecodingProm`), each read through the analyzer an upload uses.
 */
describe("vLLM serving configuration on generated files (test/fixtures/vllm-serve)", () => {
  const dir = path.resolve(__dirname, "../fixtures/vllm-serve");
  const fromLog = async (name: string) => {
    const { result, accepted } = await runAnalyzer(serverMetricsAnalyzer(), [
      diskIngestFile(path.join(dir, name)),
    ]);
    expect(accepted).toEqual([name]);
    return { info: result.info, facts: result.facts };
  };
  const fromBench = async (rel: string) => {
    const file = diskIngestFile(path.join(dir, rel));
    expect(file.kind).not.toBe("unknown");
    const { result } = await runAnalyzer(benchImportAnalyzer(), [file]);
    return result.info;
  };
  type Info = Parameters<typeof configReasons>[0];
  const pick = (info: Info) =>
    Object.fromEntries(
      Object.entries(info ?? {}).filter(([k]) => /^(speculativeDecoding|kvOffloadConfig)/.test(k)),
    );
  const blocking = (a: Info, b: Info) =>
    configReasons(a, b)
      .filter((r) => r.name === "speculative-decoding" || r.name === "kv-offload")
      .map((r) => [r.name, r.severity, r.a, r.b]);

  it("the serve log: non-default args and the engine line give EAGLE-3 and a MultiConnector; the defaults' log gives both off", async () => {
    const on = await fromLog("serve-eagle3-nixl-offload.log");
    expect(pick(on.info)).toEqual({
      speculativeDecoding: "method=eagle3, num_speculative_tokens=3, draft_model=EAGLE3-LLaMA3.1-Instruct-8B",
      speculativeDecodingSource: "vLLM non-default args speculative_config",
      kvOffloadConfig: "offload=NixlConnector+native, kv_connector=MultiConnector, kv_role=kv_both",
      kvOffloadConfigSource: "vLLM non-default args kv_transfer_config",
    });
    const off = await fromLog("serve-defaults.log");
    expect(pick(off.info)).toEqual({
      speculativeDecoding: "method=none",
      speculativeDecodingSource: "vLLM non-default args speculative_config",
      kvOffloadConfig: "offload=none",
      kvOffloadConfigSource: "vLLM non-default args kv_transfer_config",
    });
    expect(blocking(off.info, on.info)).toEqual([
      ["kv-offload", "blocking", "offload none", "offload NixlConnector+native"],
      ["speculative-decoding", "blocking", "method none", "method eagle3"],
    ]);
  });

  it("vllm bench sweep results: `speculative-config` spelt with a dash, dotted fields, and a combination without either", async () => {
    const eagle = await fromBench("sweep/SERVE--eagle3-k3/run=0.json");
    expect(pick(eagle)).toEqual({
      speculativeDecoding: "method=eagle3, num_speculative_tokens=3, draft_model=EAGLE3-LLaMA3.1-Instruct-8B",
      speculativeDecodingSource: "vLLM bench result speculative_config",
    });
    const ngram = await fromBench("sweep/SERVE--ngram-lmcache/run=0.json");
    expect(pick(ngram)).toEqual({
      speculativeDecoding: "method=ngram, num_speculative_tokens=5",
      speculativeDecodingSource: "vLLM bench result speculative_config",
      kvOffloadConfig: "offload=lmcache, kv_connector=LMCacheConnectorV1, kv_role=kv_both",
      kvOffloadConfigSource: "vLLM bench result kv_transfer_config",
    });
    expect(blocking(eagle, ngram)).toEqual([
      [
        "speculative-decoding",
        "blocking",
        "method eagle3, num_speculative_tokens 3",
        "method ngram, num_speculative_tokens 5",
      ],
    ]);
    // A combination that overrides neither states nothing (the serve command's own arguments
    // are not in the result): no difference against either, until its server log says more.
    const baseline = await fromBench("sweep/SERVE--baseline/run=0.json");
    expect(pick(baseline)).toEqual({});
    expect(blocking(baseline, eagle)).toEqual([]);
    const off = await fromLog("serve-defaults.log");
    expect(blocking({ ...baseline, ...off.info }, eagle).map((r) => r.slice(0, 2))).toEqual([
      ["speculative-decoding", "blocking"],
    ]);
  });

  it("vllm bench serve --metadata kv_transfer_config=… and the spec-decode counters: native offload, speculative decoding on", async () => {
    const meta = await fromBench("bench-serve-metadata-offload.json");
    expect(pick(meta)).toEqual({
      speculativeDecoding: "speculative_decoding=on",
      speculativeDecodingSource:
        "vLLM bench result spec_decode_num_drafts (the server's spec-decode counters)",
      kvOffloadConfig: "offload=native, kv_connector=OffloadingConnector, kv_role=kv_both",
      kvOffloadConfigSource: "vLLM bench result kv_transfer_config",
    });
    const off = await fromLog("serve-defaults.log");
    expect(blocking(off.info, meta)).toEqual([
      ["kv-offload", "blocking", "offload none", "offload native"],
      ["speculative-decoding", "blocking", "method=none", "speculative_decoding=on"],
    ]);
    // "On" names no method: against a stated configuration it is no difference.
    const eagle = await fromBench("sweep/SERVE--eagle3-k3/run=0.json");
    expect(blocking(eagle, meta).filter((r) => r[0] === "speculative-decoding")).toEqual([]);
    // A stated argument wins over the counters (the eagle3 result carries both).
    expect(eagle?.speculativeDecodingSource).toBe("vLLM bench result speculative_config");
  });
});
