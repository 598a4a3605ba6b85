/**
 * The comparability doctor's configuration reasons (docs/metrics.md §Comparable runs): dataset,
 * seed, KV cache, KV offload, speculative decoding and aiperf's submission validity, each with
 * both runs' values and where they were read; and the readers that write them
 * (lib/formats/run-config.ts) on generated input that follows the producers' sources (aiperf
 * src/aiperf/common/config/input_config.py and its AgentX metadata; SGLang
 * python/sglang/srt/server_args.py; InferenceX utils/process_result.py; GuideLLM
 * src/guidellm/benchmark/benchmark.py).
 */
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { parseDocument } from "yaml";
import { EMPTY_FACTS } from "@/lib/api/run-facts";
import {
  aiperfRunConfig,
  configText,
  guidellmRunConfig,
  inferencexRunConfig,
  parseConfigText,
  sglangDataset,
  sglangRunConfig,
  trtllmRunConfig,
  vllmRunConfig,
} from "@/lib/formats/run-config";
import { engineConfigAnalyzer } from "@/lib/ingest/analyzers/engine-config";
import { configReasons } from "@/lib/metrics/config-differences";
import { diagnose, type DoctorRun } from "@/lib/metrics/run-differences";

const run = (info: DoctorRun["info"]): DoctorRun => ({ facts: { ...EMPTY_FACTS }, info });

describe("configReasons", () => {
  it("dataset: another prompt source blocks, each side and its field named", () => {
    const a = aiperfRunConfig({ input: { public_dataset: "sharegpt", random_seed: 42 } }, null);
    const b = aiperfRunConfig({ input: { prompt: { input_tokens: { mean: 400 } }, random_seed: 42 } }, null);
    const r = diagnose(run(a), run(b));
    expect(r.verdict).toBe("not comparable");
    expect(r.reasons).toEqual([
      {
        name: "dataset",
        group: "workload",
        severity: "blocking",
        accepted: false,
        label: "dataset",
        a: "public dataset sharegpt",
        b: "synthetic",
        evidence: expect.stringContaining(
          "from aiperf input_config.input.public_dataset and aiperf input_config.input (no file or public dataset)",
        ) as string,
      },
    ]);
    expect(r.reasons[0].evidence).toContain("no producer writes a hash of its prompts");
    expect(diagnose(run(a), run(b), { accept: new Set(["dataset"]) }).verdict).toBe(
      "comparable with caveats",
    );
  });

  it("dataset: synthetic prompts from any generator are one corpus (their lengths are tested apart)", () => {
    const aiperf = aiperfRunConfig({ input: { prompt: {} } }, null);
    const guidellm = guidellmRunConfig({ request_loader: { data: "prompt_tokens=256,output_tokens=128" } });
    const sglang = sglangDataset("random");
    expect(configReasons(aiperf, guidellm)).toEqual([]);
    expect(configReasons(guidellm, sglang)).toEqual([]);
    expect(configReasons(sglang, sglangDataset("generated-shared-prefix")).map((x) => [x.a, x.b])).toEqual([
      ["synthetic (SGLang random)", "generated-shared-prefix"],
    ]);
    expect(guidellmRunConfig({ request_loader: { data: "/data/prompts.jsonl" } }).dataset).toBe(
      "/data/prompts.jsonl",
    );
  });

  it("seed: a caveat, not a blocker", () => {
    const a = aiperfRunConfig({ input: { prompt: {}, random_seed: 42 } }, null);
    const b = aiperfRunConfig({ input: { prompt: {}, random_seed: 100 } }, null);
    const r = diagnose(run(a), run(b));
    expect(r.verdict).toBe("comparable with caveats");
    expect(r.reasons.map((x) => [x.name, x.severity, x.a, x.b])).toEqual([["seed", "caveat", "42", "100"]]);
    expect(r.reasons[0].evidence).toMatch(/^from aiperf input_config.input.random_seed:/);
  });

  it("a setting one run does not state is no difference", () => {
    const a = aiperfRunConfig({ input: { prompt: {}, random_seed: 42 } }, null);
    expect(configReasons(a, {})).toEqual([]);
    expect(configReasons({ kvCacheConfig: "dtype=auto" }, { kvCacheConfig: "page_size=16" })).toEqual([]);
  });

  it("kv-cache: size or layout is a caveat; prefix caching or the data type blocks", () => {
    const sg = (over: Record<string, unknown>) =>
      sglangRunConfig({
        kv_cache_dtype: "auto",
        mem_fraction_static: 0.9,
        page_size: 1,
        max_total_tokens: null,
        disable_radix_cache: false,
        ...over,
      });
    const size = configReasons(sg({}), sg({ mem_fraction_static: 0.8 }));
    expect(size.map((x) => [x.name, x.group, x.severity, x.a, x.b])).toEqual([
      ["kv-cache", "system", "caveat", "mem_fraction_static 0.9", "mem_fraction_static 0.8"],
    ]);
    expect(size[0].evidence).toMatch(/^from SGLang server_info;/);
    const reuse = configReasons(sg({}), sg({ disable_radix_cache: true, kv_cache_dtype: "fp8_e4m3" }));
    expect(reuse.map((x) => [x.severity, x.a, x.b])).toEqual([
      ["blocking", "dtype auto, prefix_caching on", "dtype fp8_e4m3, prefix_caching off"],
    ]);
  });

  it("kv-offload: a tier in one run only blocks; another size of the same tier is a caveat", () => {
    const off = sglangRunConfig({ enable_hierarchical_cache: false, enable_lmcache: false });
    const hi = (ratio: number) =>
      sglangRunConfig({
        enable_hierarchical_cache: true,
        enable_lmcache: false,
        hicache_ratio: ratio,
        hicache_size: 0,
        hicache_write_policy: "write_through",
        hicache_storage_backend: null,
      });
    expect(off.kvOffloadConfig).toBe("offload=none");
    const tier = configReasons(off, hi(2));
    expect(tier.map((x) => [x.name, x.severity, x.a, x.b])).toEqual([
      ["kv-offload", "blocking", "offload none", "offload HiCache"],
    ]);
    expect(configReasons(hi(2), hi(4)).map((x) => [x.severity, x.a, x.b])).toEqual([
      ["caveat", "hicache_ratio 2", "hicache_ratio 4"],
    ]);
    // InferenceX's offloading beside SGLang's: the tier is compared across producers.
    const ix = inferencexRunConfig({ offloading: "cpu" });
    expect(configReasons(off, ix)[0].evidence).toMatch(/^from SGLang server_info and InferenceX offloading;/);
  });

  it("speculative-decoding: on in one run only (or another method) blocks; other draft settings are a caveat", () => {
    const none = sglangRunConfig({ speculative_algorithm: null });
    const eagle = (steps: number) =>
      sglangRunConfig({
        speculative_algorithm: "EAGLE",
        speculative_num_steps: steps,
        speculative_eagle_topk: 1,
        speculative_num_draft_tokens: 4,
        speculative_draft_model_path: "/models/EAGLE3-Llama-3.1-8B",
      });
    expect(eagle(3).speculativeDecoding).toBe(
      "method=EAGLE, num_steps=3, eagle_topk=1, num_draft_tokens=4, draft_model=EAGLE3-Llama-3.1-8B",
    );
    const r = diagnose(run(none), run(eagle(3)));
    expect(r.verdict).toBe("not comparable");
    expect(r.reasons.map((x) => [x.name, x.severity, x.a, x.b])).toEqual([
      ["speculative-decoding", "blocking", "method none", "method EAGLE"],
    ]);
    expect(configReasons(eagle(3), eagle(5)).map((x) => [x.severity, x.a, x.b])).toEqual([
      ["caveat", "num_steps 3", "num_steps 5"],
    ]);
    const mtp = inferencexRunConfig({ spec_decoding: "mtp" });
    const ixNone = inferencexRunConfig({ spec_decoding: "none" });
    expect(configReasons(ixNone, mtp).map((x) => [x.severity, x.evidence.split(";")[0]])).toEqual([
      ["blocking", "from InferenceX spec_decoding"],
    ]);
  });

  it("submission-valid: invalid in one run and valid in the other blocks, with aiperf's reasons; invalid in both is a caveat", () => {
    const valid = aiperfRunConfig(null, { scenario: "inferencex-agentx-mvp", submission_valid: true });
    const invalid = aiperfRunConfig(null, {
      scenario: "inferencex-agentx-mvp",
      submission_valid: false,
      submission_invalid_reasons: ["context_overflow_rate_exceeded", "run_cancelled"],
    });
    const r = diagnose(run(valid), run(invalid));
    expect(r.verdict).toBe("not comparable");
    expect(r.reasons.map((x) => [x.name, x.group, x.severity, x.a, x.b])).toEqual([
      [
        "submission-valid",
        "measurement",
        "blocking",
        "valid",
        "invalid (context_overflow_rate_exceeded; run_cancelled)",
      ],
    ]);
    expect(r.reasons[0].evidence).toContain("metadata.submission_valid is false in the second run");
    expect(configReasons(invalid, invalid).map((x) => x.severity)).toEqual(["caveat"]);
    expect(configReasons(invalid, {}).map((x) => [x.severity, x.b])).toEqual([["caveat", "not stated"]]);
    expect(configReasons(valid, valid)).toEqual([]);
  });
});

describe("run config readers", () => {
  it("writes settings as name=value pairs and reads them back", () => {
    const text = configText([
      ["dtype", "fp8"],
      ["on", true],
      ["gone", null],
      ["odd", "a, b=c"],
    ]);
    expect(text).toBe("dtype=fp8, on=on, odd=a;b:c");
    expect([...parseConfigText(text!)]).toEqual([
      ["dtype", "fp8"],
      ["on", "on"],
      ["odd", "a;b:c"],
    ]);
  });

  it("aiperf: input file with its type, metadata.dataset over input_config", () => {
    expect(
      aiperfRunConfig(
        { input: { file: "/data/traces/mooncake.jsonl", custom_dataset_type: "mooncake_trace" } },
        null,
      ).dataset,
    ).toBe("input file mooncake.jsonl (mooncake_trace)");
    expect(
      aiperfRunConfig(
        { input: { public_dataset: "x" } },
        {
          dataset: { source_type: "public_dataset", hf_dataset_name: "semianalysisai/cc-traces-weka-062126" },
        },
      ),
    ).toMatchObject({
      dataset: "public dataset semianalysisai/cc-traces-weka-062126",
      datasetSource: "aiperf metadata.dataset.hf_dataset_name",
    });
  });

  it("GuideLLM: request_loader.data and args.profile.random_seed", () => {
    expect(
      guidellmRunConfig({
        request_loader: { data: "prompt_tokens=256,output_tokens=128" },
        args: { profile: { random_seed: 42 } },
      }),
    ).toEqual({
      dataset: "synthetic (prompt_tokens=256,output_tokens=128)",
      datasetSource: "GuideLLM request_loader.data",
      randomSeed: 42,
      randomSeedSource: "GuideLLM args.profile.random_seed",
    });
  });
});

describe("TensorRT-LLM engine config", () => {
  // Generated after tensorrt_llm/llmapi/llm_args.py: KvCacheConfig (enable_block_reuse, dtype,
  // free_gpu_memory_fraction, host_cache_size) and the speculative_config's decoding_type.
  const yaml = (kv: string, spec = "") =>
    `backend: pytorch\ntensor_parallel_size: 4\nkv_cache_config:\n${kv}${spec}`;
  const read = (text: string) => trtllmRunConfig(parseDocument(text).toJS());

  it("reads kv_cache_config, host_cache_size and speculative_config", () => {
    const info = read(
      yaml(
        "  free_gpu_memory_fraction: 0.85\n  enable_block_reuse: true\n  host_cache_size: 45000000000\n",
        "speculative_config:\n  decoding_type: Eagle\n  max_draft_len: 3\n  speculative_model_dir: /models/EAGLE3-LLaMA3.1-Instruct-8B\n",
      ),
    );
    expect(info).toEqual({
      kvCacheConfig: "prefix_caching=on, free_gpu_memory_fraction=0.85",
      kvCacheConfigSource: "TensorRT-LLM kv_cache_config",
      kvOffloadConfig: "offload=host, host_cache_size=45000000000",
      kvOffloadConfigSource: "TensorRT-LLM kv_cache_config.host_cache_size",
      speculativeDecoding: "method=Eagle, max_draft_len=3, draft_model=EAGLE3-LLaMA3.1-Instruct-8B",
      speculativeDecodingSource: "TensorRT-LLM speculative_config",
    });
    // A config without the sections says nothing about them.
    expect(read("backend: pytorch\nreturn_perf_metrics: true\n")).toEqual({});
  });

  it("host offload in one run only blocks; block reuse off blocks; a memory fraction is a caveat", () => {
    const a = read(
      yaml("  free_gpu_memory_fraction: 0.85\n  enable_block_reuse: true\n  host_cache_size: 0\n"),
    );
    const b = read(
      yaml("  free_gpu_memory_fraction: 0.9\n  enable_block_reuse: true\n  host_cache_size: 45000000000\n"),
    );
    expect(configReasons(a, b).map((x) => [x.name, x.severity, x.a, x.b])).toEqual([
      ["kv-cache", "caveat", "free_gpu_memory_fraction 0.85", "free_gpu_memory_fraction 0.9"],
      ["kv-offload", "blocking", "offload none", "offload host"],
    ]);
    const c = read(
      yaml("  free_gpu_memory_fraction: 0.85\n  enable_block_reuse: false\n  host_cache_size: 0\n"),
    );
    expect(configReasons(a, c).map((x) => [x.name, x.severity])).toEqual([["kv-cache", "blocking"]]);
  });

  it("the engine-config analyzer adds them to the run info", async () => {
    const text = yaml(
      "  enable_block_reuse: false\n",
      "speculative_config:\n  decoding_type: MTP\n  num_nextn_predict_layers: 3\n",
    );
    const analyzer = engineConfigAnalyzer();
    const file = {
      name: "extra-llm-api-config.yml",
      kind: "engine-config",
      format: "yaml",
      open: async () => Readable.from([Buffer.from(text)]),
    } as unknown as Parameters<typeof analyzer.ingestFile>[0];
    const ctx = { limits: { maxJsonDocumentBytes: 1 << 20 } } as unknown as Parameters<
      typeof analyzer.ingestFile
    >[1];
    await analyzer.ingestFile(file, ctx);
    const result = await analyzer.finish(ctx as never);
    expect(result.info).toEqual({
      kvCacheConfig: "prefix_caching=off",
      kvCacheConfigSource: "TensorRT-LLM kv_cache_config",
      speculativeDecoding: "method=MTP",
      speculativeDecodingSource: "TensorRT-LLM speculative_config",
    });
  });
});

describe("vLLM cache_config_info", () => {
  // Labels as vllm/config/cache.py metrics_info writes them: every CacheConfig field as str().
  const labels = (over: Record<string, string>) => ({
    block_size: "16",
    cache_dtype: "auto",
    enable_prefix_caching: "True",
    gpu_memory_utilization: "0.9",
    kv_offloading_size: "None",
    kv_offloading_backend: "native",
    engine: "0",
    ...over,
  });

  it("KV offloading on in one run only blocks", () => {
    const off = vllmRunConfig([labels({})]);
    const on = vllmRunConfig([labels({ kv_offloading_size: "64.0", kv_offloading_backend: "lmcache" })]);
    expect(off.kvOffloadConfig).toBe("offload=none");
    expect(on.kvOffloadConfig).toBe("offload=lmcache, kv_offloading_size=64.0");
    expect(
      configReasons(off, on).map((x) => [x.name, x.severity, x.a, x.b, x.evidence.split(";")[0]]),
    ).toEqual([
      [
        "kv-offload",
        "blocking",
        "offload none",
        "offload lmcache",
        "from vLLM cache_config_info kv_offloading_size",
      ],
    ]);
  });

  it("prefix caching off in one run blocks", () => {
    const r = configReasons(
      vllmRunConfig([labels({})]),
      vllmRunConfig([labels({ enable_prefix_caching: "False" })]),
    );
    expect(r.map((x) => [x.name, x.severity, x.a, x.b])).toEqual([
      ["kv-cache", "blocking", "prefix_caching on", "prefix_caching off"],
    ]);
  });
});
