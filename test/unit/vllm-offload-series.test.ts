/**
 * Which vLLM offload series one endpoint's numbers come from (lib/metrics/server-metrics/offload.ts),
 * on series named as vllm/distributed/kv_transfer/kv_connector/v1/offloading/metrics.py names them.
 */
import { describe, expect, it } from "vitest";
import { offloadSeries } from "@/lib/metrics/server-metrics/offload";
import { endpointFacts } from "@/lib/metrics/server-metrics/endpoint-facts";
import type { EndpointWindow, MetricSeries } from "@/lib/formats/server-metrics/types";

const WINDOW: EndpointWindow = { durationS: 10, source: "profiling phase" };

const counter = (name: string, total: number, labels: Record<string, string> = {}): MetricSeries => ({
  name,
  type: "counter",
  endpoint: "e",
  labels: { engine: "0", ...labels },
  stats: { total, rate: total / 10 },
});

describe("offload series selection", () => {
  it("an older build's lower-case transfer_type is the same direction", () => {
    const s = [
      counter("vllm:kv_offload_total_bytes", 4e9, { transfer_type: "gpu_to_cpu" }),
      counter("vllm:kv_offload_total_bytes", 1e9, { transfer_type: "cpu_to_gpu" }),
      counter("vllm:kv_offload_total_time", 2, { transfer_type: "gpu_to_cpu" }),
      counter("vllm:kv_offload_total_time", 0.25, { transfer_type: "cpu_to_gpu" }),
    ];
    const f = endpointFacts("e", s, WINDOW, false);
    expect(f.offloadBytesGpuToCpu).toBe(4e9);
    expect(f.offloadBandwidthGpuToCpu).toBe(2e9);
    expect(f.offloadBandwidthCpuToGpu).toBe(4e9);
  });

  it("the flat counters win over the deprecated ones, which are never added to them", () => {
    const s = [
      counter("vllm:kv_offload_store_bytes", 3e9),
      counter("vllm:kv_offload_store_time", 1.5),
      counter("vllm:kv_offload_total_bytes", 3e9, { transfer_type: "GPU_to_CPU" }),
      counter("vllm:kv_offload_total_time", 1.5, { transfer_type: "GPU_to_CPU" }),
    ];
    expect(offloadSeries(s).gpuToCpu!.source).toBe("vllm:kv_offload_store_bytes");
    expect(endpointFacts("e", s, WINDOW, false).offloadBytesGpuToCpu).toBe(3e9);
    expect(offloadSeries(s).cpuToGpu).toBeNull();
  });

  it("TensorRT-LLM's offload and onboard bytes, without time counters, are an average over the window", () => {
    const s = [counter("trtllm_kv_cache_offload_bytes", 5e8), counter("trtllm_kv_cache_onboard_bytes", 1e8)];
    const f = endpointFacts("e", s, WINDOW, false);
    expect(f.offloadBandwidthGpuToCpu).toBe(5e7);
    expect(f.offloadBandwidthMethod).toBe("average rate (bytes / window)");
  });

  it("histogram samples of transfer sizes are not bytes moved", () => {
    const size: MetricSeries = {
      name: "vllm:kv_offload_store_size",
      type: "histogram",
      endpoint: "e",
      labels: {},
      stats: { count: 10, sum: 9e9 },
    };
    expect(offloadSeries([size]).gpuToCpu).toBeNull();
    expect(endpointFacts("e", [size], WINDOW, false).offloadBytesGpuToCpu).toBeNull();
  });
});
