/**
 * The doctor's configuration entries (lib/formats/run-config.ts) read from real producers' files
 * in ../shared/fixtures/real-public/ (read in place; skipped with one line where absent): aiperf
 * 0.8.0's AgentX summary (public dataset, seed, `submission_valid: false` and its reason), SGLang
 * 0.5.9's bench_serving line (`dataset_name`, `server_info` KV cache, HiCache/LMCache off,
 * speculative decoding off), InferenceX results (`spec_decoding`, `offloading`) and GuideLLM's
 * report (request_loader data, args.profile.random_seed) and vLLM's `vllm:cache_config_info`.
 */
import fs from "node:fs";
import { expect, it } from "vitest";
import { parseSummaryJson } from "@/lib/formats/aiperf-summary";
import { WarningLog } from "@/lib/formats/json-lines";
import { readPrometheusText } from "@/lib/formats/prometheus-text";
import { vllmRunConfig } from "@/lib/formats/run-config";
import { guidellmResults } from "@/lib/formats/guidellm";
import { parseJsonText } from "@/lib/formats/json-lines";
import { inferencexResults } from "@/lib/formats/inferencex-result";
import { readSglangResult } from "@/lib/formats/sglang-bench";
import { describeRealPublic, realPublicFile, realPublicJson } from "../helpers/real-public";

describeRealPublic("aiperf-0.8.0-sglang-glm5.1-agentic-conc16", () => {
  it("aiperf: public dataset, seed and submission_valid false with its reason", () => {
    const s = parseSummaryJson(
      realPublicJson("aiperf-0.8.0-sglang-glm5.1-agentic-conc16", "profile_export_aiperf.json"),
    )!;
    expect(s.runConfig).toEqual({
      dataset: "public dataset semianalysis_cc_traces_weka_with_subagents_060226_256k",
      datasetSource: "aiperf input_config.input.public_dataset",
      randomSeed: 42,
      randomSeedSource: "aiperf input_config.input.random_seed",
      submissionValid: false,
      submissionInvalidReasons: "context_overflow_rate_exceeded",
    });
  });

  it("InferenceX agentic result: speculative decoding and offloading off", () => {
    const [r] = inferencexResults(
      realPublicJson("aiperf-0.8.0-sglang-glm5.1-agentic-conc16", "inferencex_agentic_result.json"),
    );
    expect(r.facts).toMatchObject({
      speculativeDecoding: "method=none",
      speculativeDecodingSource: "InferenceX spec_decoding",
      kvOffloadConfig: "offload=none",
      kvOffloadConfigSource: "InferenceX offloading",
    });
  });
});

describeRealPublic("inferencex-agg-kimik2.5-mi355x-vllm0.21", () => {
  it("InferenceX fixed-length result: spec_decoding mtp, no offloading field", () => {
    const [r] = inferencexResults(
      realPublicJson(
        "inferencex-agg-kimik2.5-mi355x-vllm0.21",
        "agg_kimik2.5_1k1k_int4_vllm_tp8-ep1-dpafalse_disagg-false_spec-mtp_conc4_MI355-gbt350-odcdh5-wbb3.json",
      ),
    );
    expect(r.facts.speculativeDecoding).toBe("method=mtp");
    expect(r.facts.kvOffloadConfig).toBeUndefined();
  });
});

describeRealPublic("sglang-0.5.9-bench-serving-output-details", () => {
  it("SGLang: dataset_name and server_info's KV cache, offload and speculative settings", () => {
    const line = fs
      .readFileSync(
        realPublicFile(
          "sglang-0.5.9-bench-serving-output-details",
          "tp4_dp2_Qwen3-14B_in1024_out128_p100_c100_38769a.jsonl",
        ),
        "utf8",
      )
      .split("\n")[0];
    // SGLang writes `Infinity` for an unbounded request rate: read as Runlens reads JSON text.
    const r = readSglangResult(parseJsonText(line) as Record<string, unknown>);
    expect(r.facts).toMatchObject({
      dataset: "synthetic (SGLang random)",
      datasetSource: "SGLang bench_serving dataset_name",
      kvCacheConfig: "dtype=auto, prefix_caching=on, mem_fraction_static=0.9, page_size=1",
      kvCacheConfigSource: "SGLang server_info",
      kvOffloadConfig: "offload=none",
      speculativeDecoding: "method=none",
    });
    // server_info.random_seed is the server's sampling seed, not the benchmark's prompts.
    expect(r.facts.randomSeed).toBeUndefined();
  });
});

describeRealPublic("guidellm-0.2-stripped-fixture", () => {
  it("GuideLLM: request_loader data and args.profile.random_seed", () => {
    const [r] = guidellmResults(
      realPublicJson("guidellm-0.2-stripped-fixture", "benchmarks_stripped.json") as Record<string, unknown>,
    );
    expect(r.facts).toMatchObject({
      dataset: "synthetic (prompt_tokens=256,output_tokens=128)",
      datasetSource: "GuideLLM request_loader.data",
      randomSeed: 42,
      randomSeedSource: "GuideLLM args.profile.random_seed",
    });
  });
});

it("aiperf-real-c4: synthetic prompts, seed 42, no submission verdict", () => {
  const p = realPublicFile("../aiperf-real-c4", "profile_export_aiperf.json");
  if (!fs.existsSync(p)) return void console.log(`skipped: ${p} is absent`);
  const s = parseSummaryJson(JSON.parse(fs.readFileSync(p, "utf8")))!;
  expect(s.runConfig).toEqual({
    dataset: "synthetic",
    datasetSource: "aiperf input_config.input (no file or public dataset)",
    randomSeed: 42,
    randomSeedSource: "aiperf input_config.input.random_seed",
  });
});

describeRealPublic("prometheus-vllm-v1-idle-scrape-qwen1.5", () => {
  it("vLLM: cache_config_info's dtype, prefix caching, memory share and block size; no offload label", async () => {
    const set = await readPrometheusText(
      fs.createReadStream(realPublicFile("prometheus-vllm-v1-idle-scrape-qwen1.5", "vllm_metrics.txt")),
      "worker",
      new WarningLog(),
      { records: 0, skipped: 0 },
    );
    const labels = set.series.filter((x) => x.name === "vllm:cache_config_info").map((x) => x.labels);
    expect(vllmRunConfig(labels)).toEqual({
      kvCacheConfig: "dtype=auto, prefix_caching=on, gpu_memory_utilization=0.25, block_size=16",
      kvCacheConfigSource: "vLLM cache_config_info",
    });
  });
});
