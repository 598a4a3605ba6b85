import { describe, expect, it } from "vitest";
import { infoLabel, infoTitle, infoValue, shownInfo } from "@/components/run/run-info";

describe("run header info", () => {
  it("names imported figures as people read them", () => {
    // Keys the vLLM and SGLang readers write (lib/formats/vllm-bench.ts, sglang-bench.ts).
    expect(infoLabel("vllmPooledItlP99Ms")).toBe("vLLM pooled ITL p99");
    expect(infoLabel("sglangPooledItlMeanMs")).toBe("SGLang pooled ITL mean");
    expect(infoLabel("peakOutputTokensPerS")).toBe("peak output tokens/s");
    expect(infoLabel("requestGoodputPerS")).toBe("request goodput/s");
    expect(infoLabel("randomInputLen")).toBe("random input length");
    expect(infoLabel("benchmarkToolVersion")).toBe("benchmark tool version");
    // A tool's own printed label (lib/formats/bench-console.ts) stays in its words.
    expect(infoLabel("SGLang bench_serving console: Max ITL (ms)")).toBe(
      "SGLang bench_serving console: Max ITL (ms)",
    );
    expect(infoValue("SGLang bench_serving console: Max ITL (ms)", "388.38")).toBe("388.38");
    // InferenceX's field names keep their spelling; the tool's name is written as it writes it.
    expect(infoLabel("inferencex mean_ttft (s)")).toBe("InferenceX mean_ttft (s)");
    // Counts whose words alone would read as a wait ("queue wait missing 10").
    expect(infoLabel("queueWaitMissing")).toBe("records without queue-wait stamps");
    expect(infoLabel("queueWaited")).toBe("requests that waited in the load generator");
    expect(infoLabel("queueWaitP99Ms")).toBe("queue wait p99");
  });

  it("gives milliseconds as times and flags as yes or no", () => {
    expect(infoValue("vllmPooledItlP99Ms", 12.3456)).toBe("12.3 ms");
    expect(infoValue("prefixCacheHitRate", 0.25)).toBe("25%");
    // A gap between two hit rates is signed points, with a minus sign, not a raw float.
    expect(infoValue("routerHitRateGapPoints", -12.555)).toBe("−12.6 pp");
    expect(infoLabel("routerHitRateGapPoints")).toBe("router hit rate gap");
    expect(infoValue("burstiness", 1)).toBe("1");
    expect(infoValue("streaming", true)).toBe("yes");
    // A seed is an identifier: every digit, as the file wrote it.
    expect(infoValue("randomSeed", 871715748)).toBe("871715748");
    expect(infoLabel("kvCacheConfig")).toBe("KV cache config");
  });

  it("gives other numbers at most two decimals, small ones three significant digits", () => {
    // aiperf's effective concurrency, as the records give it (7.8973 over a 148.56 s window):
    // four decimals read as a precision the figure does not have.
    expect(infoValue("effectiveConcurrency", 7.897312)).toBe("7.9");
    expect(infoValue("effectiveConcurrency", 3.9383)).toBe("3.94");
    expect(infoValue("meanRequestsPerConversation", 1234.5678)).toBe("1,234.57");
    // Below 1, the digits that carry the value stay: not 0.05 for 0.0523.
    expect(infoValue("inferencex mean_ttft (s)", 0.052317)).toBe("0.0523");
    expect(infoValue("samplingRatio", 0.98765)).toBe("0.988");
    expect(infoValue("effectiveConcurrencyCount", 300)).toBe("300");
    // The requests the records' effective concurrency was computed over, said in words.
    expect(infoLabel("effectiveConcurrencyCount")).toBe("requests behind the effective concurrency");
  });

  it("leaves out view hints and empty entries", () => {
    expect(shownInfo("requestTimeline", false)).toBe(false);
    expect(shownInfo("dataset", "")).toBe(false);
    expect(shownInfo("dataset", null)).toBe(false);
    expect(shownInfo("dataset", "sharegpt")).toBe(true);
  });

  it("says how TensorRT-LLM's records were joined in words; the record fields are the tooltip", () => {
    // As the TensorRT-LLM analyzer stores it (lib/ingest/analyzers/trtllm.ts).
    const stored = "600 by disagg_request_id, 0 by ctx_request_id";
    expect(infoLabel("TRT-LLM joins")).toBe("TensorRT-LLM requests joined");
    expect(infoValue("TRT-LLM joins", stored)).toBe("600 by disagg request id, 0 by ctx request id");
    expect(infoTitle("TRT-LLM joins", stored)).toContain("disagg_request_id");
    expect(infoTitle("dataset", "sharegpt")).toBeNull();
  });
});
