/**
 * vLLM KV offload, read from each of aiperf's three server-metrics exports of one generated run
 * (test/generators/vllm-offload.mjs; series as vLLM writes them in
 * vllm/distributed/kv_transfer/kv_connector/v1/offloading/metrics.py, vllm/v1/kv_offload/tiering/
 * base.py + metrics.py and vllm/v1/metrics/loggers.py; exports as aiperf's json_exporter.py,
 * csv_exporter.py and jsonl_writer.py write them). The exports must agree with each other to
 * 1e-9 and with the numbers worked out by hand below from the generator's per-step amounts.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { SmEndpointDetail, SmEndpointsPayload, SmSeriesPayload } from "@/lib/api/server-metrics-charts";
import { analyzeFiles, analyzeWithRecords } from "./server-metrics-helpers";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-vllm-offload-"));
const profilingDir = path.join(dir, "profiling-scrapes");
const file = (ext: string) => path.join(dir, `server_metrics_export.${ext}`);
type Result = Awaited<ReturnType<typeof analyzeWithRecords>>;
const results: Record<string, Result> = {};

// By hand, from the generator's STEP table: 61 profiling steps, 2 MiB blocks.
const STEPS = 61;
const BLOCK = 2_097_152;
const A = "10.0.0.1:8000" as const;
const B = "10.0.0.2:8000" as const;
const HAND = {
  [A]: {
    // engine 0 stores 88 blocks and loads 8 per step, engine 1 76 and 4; 0.2 ms and 0.1 ms per block.
    storeBytes: STEPS * (88 + 76) * BLOCK,
    storeS: STEPS * (88 + 76) * 0.0002,
    loadBytes: STEPS * (8 + 4) * BLOCK,
    loadS: STEPS * (8 + 4) * 0.0001,
    // External hits are the loaded blocks' tokens; external queries what the GPU cache missed.
    externalHitRate: ((8 + 4) * 16) / (2048 - 512 + (1536 - 256)),
    prompt: STEPS * (2048 + 1536),
    generation: STEPS * (256 + 192),
    capacity: 2 * 40960 * 16,
  },
  [B]: {
    storeBytes: STEPS * 116 * BLOCK,
    storeS: STEPS * 116 * 0.00025,
    loadBytes: STEPS * 12 * BLOCK,
    loadS: STEPS * 12 * 0.0002,
    externalHitRate: (12 * 16) / (3072 - 1024),
    prompt: STEPS * 3072,
    generation: STEPS * 384,
    capacity: 81920 * 16,
  },
};

/** The profiling part of a JSONL export: each endpoint's last scrape before the phase (the reference) and all after. */
function profilingLines(text: string, startNs: number): string {
  const lines = text.trim().split("\n");
  const keep = new Set<number>();
  const lastBefore = new Map<string, number>();
  lines.forEach((l, i) => {
    const o = JSON.parse(l) as { endpoint_url: string; timestamp_ns: number };
    if (o.timestamp_ns >= startNs) keep.add(i);
    else lastBefore.set(o.endpoint_url, i);
  });
  for (const i of lastBefore.values()) keep.add(i);
  return lines.filter((_, i) => keep.has(i)).join("\n") + "\n";
}

beforeAll(async () => {
  execFileSync(process.execPath, ["test/generators/vllm-offload.mjs", dir]);
  fs.mkdirSync(profilingDir);
  const startNs = (1_796_000_000 + 5.75) * 1e9;
  fs.writeFileSync(
    path.join(profilingDir, "server_metrics_export.jsonl"),
    profilingLines(fs.readFileSync(file("jsonl"), "utf8"), startNs),
  );
  for (const ext of ["json", "csv", "jsonl"]) results[ext] = await analyzeFiles([file(ext)]);
  results.profilingJsonl = await analyzeFiles([path.join(profilingDir, "server_metrics_export.jsonl")]);
  // As a user uploads it: the whole JSONL export (baseline and warmup scrapes included) beside
  // aiperf's records, which place the profiling phase.
  results.jsonlWithRecords = await analyzeWithRecords([
    path.join(dir, "profile_export.jsonl"),
    file("jsonl"),
  ]);
});

const rowsOf = (r: Result) => (r.charts!["sm-endpoints"] as SmEndpointsPayload).rows;
const row = (r: Result, ep: string): SmEndpointDetail => rowsOf(r).find((x) => x.endpoint === ep)!;
const close = (actual: number | null | undefined, expected: number) =>
  expect(Math.abs((actual ?? NaN) / expected - 1)).toBeLessThan(1e-9);

describe("vLLM offload counters, JSON export, against the hand-worked numbers", () => {
  it("reads each endpoint's bytes and transfer time once: the flat generation, not flat + deprecated", () => {
    for (const ep of [A, B]) {
      const r = row(results.json, ep);
      const h = HAND[ep];
      expect(r.offloadBytesGpuToCpu).toBe(h.storeBytes);
      expect(r.offloadBytesCpuToGpu).toBe(h.loadBytes);
      close(r.offloadTimeGpuToCpuS, h.storeS);
      close(r.offloadTimeCpuToGpuS, h.loadS);
      expect(r.offloadBandwidthMethod).toBe("bytes / transfer time");
      expect(r.offloadSource).toBe(
        "vllm:kv_offload_store_bytes (GPU → CPU), vllm:kv_offload_load_bytes (CPU → GPU)",
      );
    }
  });

  it("bandwidth is bytes over transfer time, per endpoint and direction and for the run", () => {
    // One block in 0.2 ms is 2 MiB / 0.0002 s.
    close(row(results.json, A).offloadBandwidthGpuToCpuBytesPerSecond, BLOCK / 0.0002);
    close(row(results.json, A).offloadBandwidthCpuToGpuBytesPerSecond, BLOCK / 0.0001);
    close(row(results.json, B).offloadBandwidthGpuToCpuBytesPerSecond, BLOCK / 0.00025);
    close(row(results.json, B).offloadBandwidthCpuToGpuBytesPerSecond, BLOCK / 0.0002);
    const off = results.json.serverMetrics!.kvOffload;
    close(
      off.bandwidthGpuToCpuBytesPerSecond,
      (HAND[A].storeBytes + HAND[B].storeBytes) / (HAND[A].storeS + HAND[B].storeS),
    );
    close(
      off.bandwidthCpuToGpuBytesPerSecond,
      (HAND[A].loadBytes + HAND[B].loadBytes) / (HAND[A].loadS + HAND[B].loadS),
    );
    expect(results.json.info!.offloadBandwidthMethod).toBe("bytes / transfer time");
  });

  it("over time, every interval of endpoint A moves blocks at the same 2 MiB / 0.2 ms", () => {
    const payloads = Object.values(results.json.charts!).filter(
      (c): c is SmSeriesPayload => (c as SmSeriesPayload).id === A,
    );
    const points = payloads[0].points.filter((p) => p.offloadGpuToCpuBandwidth !== null);
    expect(points.length).toBeGreaterThanOrEqual(6);
    for (const p of points) close(p.offloadGpuToCpuBandwidth, BLOCK / 0.0002);
  });

  it("external (CPU-tier) hit rate is external hits / external queries, per endpoint and for the run", () => {
    close(row(results.json, A).externalHitRate, HAND[A].externalHitRate);
    close(row(results.json, B).externalHitRate, HAND[B].externalHitRate);
    close(results.json.info!.externalPrefixCacheHitRate as number, ((12 + 12) * 16) / (1536 + 1280 + 2048));
  });

  it("the fs tier of endpoint B: cascade and promotion bytes, bandwidth and chunk hit rate", () => {
    const [tier] = row(results.json, B).offloadTiers;
    expect(tier.tier).toBe("1:fs");
    expect(tier.writeBytes).toBe(STEPS * 58 * BLOCK);
    expect(tier.readBytes).toBe(STEPS * 6 * BLOCK);
    close(tier.writeBandwidth, BLOCK / 0.0004);
    close(tier.readBandwidth, BLOCK / 0.0003);
    close(tier.hitRate, 6 / 20);
    expect(row(results.json, A).offloadTiers).toEqual([]);
  });

  it("tokens and KV capacity per endpoint", () => {
    for (const ep of [A, B]) {
      expect(row(results.json, ep).promptTokens).toBe(HAND[ep].prompt);
      expect(row(results.json, ep).generationTokens).toBe(HAND[ep].generation);
      expect(row(results.json, ep).kvCapacityTokens).toBe(HAND[ep].capacity);
    }
  });
});

const EXPORTS = ["csv", "profilingJsonl", "jsonlWithRecords"] as const;

describe.each(EXPORTS)("the %s export gives what the JSON export gives", (ext) => {
  it("offload bytes, transfer time, bandwidth, tiers and hit rates per endpoint", () => {
    for (const ep of [A, B]) {
      const a = row(results.json, ep);
      const b = row(results[ext], ep);
      for (const k of [
        "offloadBytesGpuToCpu",
        "offloadBytesCpuToGpu",
        "offloadTimeGpuToCpuS",
        "offloadTimeCpuToGpuS",
        "offloadBandwidthGpuToCpuBytesPerSecond",
        "offloadBandwidthCpuToGpuBytesPerSecond",
        "externalHitRate",
        "hitRate",
        "cpuHitRate",
        "promptTokens",
        "generationTokens",
      ] as const)
        close(b[k], a[k]!);
      expect(b.offloadSource).toBe(a.offloadSource);
      expect(b.offloadTiers.length).toBe(a.offloadTiers.length);
      b.offloadTiers.forEach((t, i) => {
        for (const k of ["readBytes", "writeBytes", "readBandwidth", "writeBandwidth", "hitRate"] as const)
          close(t[k], a.offloadTiers[i][k]!);
      });
    }
  });

  it("the run's offload, tokens and hit rates", () => {
    const a = results.json.serverMetrics!;
    const b = results[ext].serverMetrics!;
    for (const k of Object.keys(a.kvOffload) as (keyof typeof a.kvOffload)[])
      close(b.kvOffload[k], a.kvOffload[k]!);
    close(b.tokens.promptTotal, a.tokens.promptTotal!);
    close(b.tokens.generationTotal, a.tokens.generationTotal!);
    close(b.cache.gpuHitRate, a.cache.gpuHitRate!);
    close(b.cache.cpuHitRate, a.cache.cpuHitRate!);
    close(
      results[ext].info!.externalPrefixCacheHitRate as number,
      results.json.info!.externalPrefixCacheHitRate as number,
    );
  });
});

describe("an older vLLM that writes only the deprecated generation", () => {
  it("reads kv_offload_total_bytes / _total_time by transfer_type, and an endpoint without offload stays null", async () => {
    const doc = JSON.parse(fs.readFileSync(file("json"), "utf8")) as { metrics: Record<string, unknown> };
    for (const name of Object.keys(doc.metrics))
      if (/^vllm:kv_offload_(store|load)_/.test(name)) delete doc.metrics[name];
    const old = path.join(dir, "deprecated-only");
    fs.mkdirSync(old, { recursive: true });
    fs.writeFileSync(path.join(old, "server_metrics_export.json"), JSON.stringify(doc));
    const r = await analyzeFiles([path.join(old, "server_metrics_export.json")]);
    const a = row(r, A);
    expect(a.offloadBytesGpuToCpu).toBe(HAND[A].storeBytes);
    expect(a.offloadBytesCpuToGpu).toBe(HAND[A].loadBytes);
    close(a.offloadBandwidthGpuToCpuBytesPerSecond, BLOCK / 0.0002);
    expect(a.offloadSource).toBe("vllm:kv_offload_total_bytes{transfer_type}");
    // B wrote only the flat names: with those gone it has no offload numbers, never zeros.
    expect(row(r, B).offloadBytesGpuToCpu).toBeNull();
    expect(row(r, B).offloadBandwidthGpuToCpuBytesPerSecond).toBeNull();
    expect(r.serverMetrics!.kvOffload.bytesGpuToCpu).toBe(HAND[A].storeBytes);
  });
});

describe("KV capacity by export", () => {
  it("JSON and CSV carry vllm:cache_config_info: the same capacity", () => {
    const total = HAND[A].capacity + HAND[B].capacity;
    expect(results.json.serverMetrics!.kvCache.gpuTotalTokens).toBe(total);
    expect(results.csv.serverMetrics!.kvCache.gpuTotalTokens).toBe(total);
    expect(results.json.warnings!.some((w) => w.includes("KV capacity unknown"))).toBe(false);
  });

  it("JSONL has no _info family: capacity stays unknown, and a warning names the exports that carry it", () => {
    for (const r of [results.jsonl, results.profilingJsonl]) {
      expect(r.serverMetrics!.kvCache.gpuTotalTokens).toBeNull();
      const w = r.warnings!.find((x) => x.includes("KV capacity unknown"));
      expect(w).toContain("10.0.0.1:8000, 10.0.0.2:8000");
      expect(w).toContain("vllm:cache_config_info");
      expect(w).toContain("server_metrics_export.json or server_metrics_export.csv");
    }
  });
});

describe("a raw /metrics scrape of endpoint A (prometheus_client text with _created samples and size buckets)", () => {
  it("reads the flat bytes once, not the deprecated copy too, nor _created or bucket samples", async () => {
    const text = fs.readFileSync(path.join(dir, "metrics-0.prom"), "utf8");
    const lifetime = (name: string) =>
      text
        .split("\n")
        .filter((l) => l.startsWith(`${name}{`))
        .reduce((a, l) => a + Number(l.split(" ").at(-1)), 0);
    const r = await analyzeFiles([path.join(dir, "metrics-0.prom")]);
    expect(r.serverMetrics!.kvOffload.bytesGpuToCpu).toBe(lifetime("vllm:kv_offload_store_bytes_total"));
    expect(r.serverMetrics!.kvOffload.bytesCpuToGpu).toBe(lifetime("vllm:kv_offload_load_bytes_total"));
  });
});

describe("the whole JSONL export alone", () => {
  it("has no profiling phase: its counters cover baseline and warmup, and a warning says so", () => {
    const a = results.json.serverMetrics!;
    const b = results.jsonl.serverMetrics!;
    expect(b.tokens.promptTotal!).toBeGreaterThan(a.tokens.promptTotal!);
    expect(results.jsonl.warnings!.some((w) => w.includes("whole scrape span"))).toBe(true);
    expect(results.jsonlWithRecords.warnings!.some((w) => w.includes("whole scrape span"))).toBe(false);
  });
});
