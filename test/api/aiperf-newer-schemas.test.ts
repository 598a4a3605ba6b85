/**
 * Files of newer aiperf builds that no shared real folder holds, generated here from aiperf's own
 * description of them (ai-dynamo/aiperf docs/reference/json-export-schema.md, schema 1.4/1.5:
 * `warmup_metrics`, per-GPU `platform` and `nvidia_*` telemetry names, `runtime_submission_invalid_reasons`,
 * full-response blocks; `outputs.json` schema 1.1 with `data` and `warmup`; named phase artifacts
 * wrapped as `{"phase", "data"}` beside `phase_manifest.json`; src/aiperf/gpu_telemetry/constants.py:
 * energy is a counter whose delta aiperf writes; docs/server-metrics/server-metrics-json-schema.md:
 * a fourth metric type "unknown"; the tidy timeslices CSV with `Start_NS,End_NS` columns), uploaded
 * through POST /api/runs and read back through the public API.
 */
import { describe, expect, it } from "vitest";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { gpuSummaryPayloadSchema, timeslicesPayloadSchema } from "@/lib/api/aiperf-charts";
import { runSummarySchema } from "@/lib/api/schemas";
import { freshAppEachTest, idParams, uploadRun } from "../helpers/test-app";
import { readChart } from "../helpers/read-api";

freshAppEachTest();

async function summaryOf(id: string) {
  const res = await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id));
  return runSummarySchema.parse(await res.json());
}

const stats = (unit: string, base: number, count: number) => ({
  unit,
  avg: base,
  min: base * 0.5,
  max: base * 2,
  p1: base * 0.5,
  p5: base * 0.6,
  p10: base * 0.7,
  p25: base * 0.8,
  p50: base,
  p75: base * 1.2,
  p90: base * 1.5,
  p95: base * 1.8,
  p99: base * 1.9,
  std: base * 0.1,
  count,
  sum: base * count,
});

/** A schema 1.5 summary: 40 successful and 2 failed requests, 8 + 2 warm-up, 2 GPUs of which 1 worked. */
function summary15() {
  const gpu = (index: number, busy: boolean) => ({
    gpu_index: index,
    gpu_name: "NVIDIA H100 80GB HBM3",
    gpu_uuid: `GPU-${index}`,
    platform: "nvidia",
    metrics: {
      nvidia_power_usage: { unit: "W", avg: busy ? 410.5 : 70.25, min: 60, max: busy ? 650 : 71 },
      nvidia_gpu_utilization: { unit: "%", avg: busy ? 85 : 0, min: 0, max: busy ? 100 : 0 },
      nvidia_gpu_memory_used: { unit: "GB", avg: busy ? 70 : 0, min: 0, max: busy ? 71.5 : 0 },
      // A counter: aiperf writes the delta over the run as its one value.
      nvidia_energy_consumption: { unit: "MJ", avg: busy ? 0.0125 : 0.002 },
    },
  });
  return {
    schema_version: "1.5",
    aiperf_version: "0.13.0",
    benchmark_id: "gen-1",
    request_count: { unit: "requests", avg: 40 },
    error_request_count: { unit: "requests", avg: 2 },
    request_throughput: { unit: "requests/sec", avg: 4 },
    output_token_throughput: { unit: "tokens/sec", avg: 800 },
    total_token_throughput: { unit: "tokens/sec", avg: 4800 },
    benchmark_duration: { unit: "sec", avg: 10 },
    time_to_first_token: stats("ms", 120, 40),
    request_latency: stats("ms", 2400, 40),
    inter_token_latency: stats("ms", 12, 40),
    input_sequence_length: stats("tokens", 1000, 40),
    output_sequence_length: stats("tokens", 200, 40),
    full_decode_duration: stats("ms", 2280, 40),
    effective_concurrency: { unit: "requests", avg: 9.5, p50: 10, max: 10 },
    active_total_throughput: { unit: "tokens/sec", avg: 5000 },
    warmup_metrics: {
      request_count: { unit: "requests", avg: 8 },
      error_request_count: { unit: "requests", avg: 2 },
      time_to_first_token: stats("ms", 300, 8),
    },
    runtime_submission_invalid_reasons: [],
    telemetry_data: {
      summary: { endpoints_configured: ["http://node:9400/metrics"] },
      endpoints: { "node:9400": { gpus: { gpu_0: gpu(0, true), gpu_1: gpu(1, false) } } },
    },
    input_config: { endpoint: { model_names: ["m"] }, loadgen: { concurrency: 10 } },
    was_cancelled: false,
    error_summary: [],
  };
}

/** profile_export.jsonl lines of the 1.x record shape (profiling only, as current aiperf writes). */
function records(n: number): string {
  const base = 1_780_000_000_000_000_000n;
  const lines = [];
  for (let i = 0; i < n; i++) {
    const start = base + BigInt(i) * 1_000_000_000n;
    lines.push(
      `{"metadata":{"x_request_id":"r${i}","request_start_ns":${start},"request_end_ns":${start + 500_000_000n},"benchmark_phase":"profiling","was_cancelled":false},"metrics":{"time_to_first_token":{"value":${50 + i},"unit":"ms"},"request_latency":{"value":500,"unit":"ms"},"input_sequence_length":{"value":100,"unit":"tokens"},"output_sequence_length":{"value":20,"unit":"tokens"}}}`,
    );
  }
  return lines.join("\n") + "\n";
}

describe("aiperf summary schema 1.5", () => {
  it("reads warmup_metrics, nvidia_* telemetry with busy GPUs, effective metrics and the GPU statistics", async () => {
    const s = summary15();
    const id = await uploadRun([{ name: "profile_export_aiperf.json", content: JSON.stringify(s) }]);
    const run = await summaryOf(id);
    expect(run.requests).toMatchObject({
      source: "aiperf-summary",
      count: 42,
      errorCount: 2,
      warmupCount: 10,
      warmupSource: "summary",
      warmupErrorCount: 2,
    });
    expect(run.info).toMatchObject({ schemaVersion: "1.5", effectiveConcurrency: 9.5, telemetryGpus: 2 });
    expect(run.facts.gpuCount).toMatchObject({
      value: 1,
      source: "aiperf summary telemetry_data (1 of 2 GPUs busy: utilisation or memory used above 0)",
    });
    expect(run.derived.outputTokPerSPerGpu.value).toBe(800);
    const gpus = gpuSummaryPayloadSchema.parse(await readChart(id, "aiperf-gpu-summary")).gpus;
    expect(gpus.map((g) => [g.busy, g.powerAvgW, g.utilizationMaxPct, g.memoryUsedMaxGb])).toEqual([
      [true, 410.5, 100, 71.5],
      [false, 70.25, 0, 0],
    ]);
    expect(gpus[0].energyJ).toBeCloseTo(12_500, 6);
    expect(run.warnings).toEqual([]);
  });
});

describe("aiperf outputs.json (schema 1.1)", () => {
  it("gives the warm-up size from its warmup list, beside records that hold none", async () => {
    const outputs = {
      schema_version: "1.1",
      data: [0, 1, 2].map((i) => ({
        session_num: i,
        turn_index: 0,
        x_request_id: `r${i}`,
        benchmark_phase: "profiling",
        request_start_ns: 1,
        request_end_ns: 2,
        metrics: { input_sequence_length: 100, output_token_count: 20 },
        response_text: "text",
      })),
      warmup: [0, 1].map((i) => ({
        session_num: i,
        turn_index: 0,
        benchmark_phase: "warmup",
        response_text: null,
      })),
    };
    const id = await uploadRun([
      { name: "profile_export.jsonl", content: records(3) },
      { name: "outputs.json", content: JSON.stringify(outputs) },
    ]);
    const run = await summaryOf(id);
    expect(run.files.find((f) => f.name === "outputs.json")).toMatchObject({
      kind: "aiperf-log",
      format: "outputs",
      records: 3,
    });
    expect(run.requests).toMatchObject({ count: 3, warmupCount: 2, warmupSource: "outputs" });
  });

  it("records alone say nothing of the warm-up: unknown, not 0", async () => {
    const run = await summaryOf(await uploadRun([{ name: "profile_export.jsonl", content: records(3) }]));
    expect(run.requests!.warmupCount).toBeNull();
  });
});

describe("aiperf named phase artifacts", () => {
  it("keeps phase_manifest.json and the wrapped phase exports apart from the run's own summary", async () => {
    const s = summary15();
    const manifest = {
      phases: [
        { name: "warmup", artifacts: { summary: "phases/warmup/profile_export_aiperf.json" } },
        { name: "profiling", artifacts: { summary: "phases/profiling/profile_export_aiperf.json" } },
      ],
    };
    const id = await uploadRun([
      { name: "run/profile_export_aiperf.json", content: JSON.stringify(s) },
      { name: "run/phase_manifest.json", content: JSON.stringify(manifest) },
      {
        name: "run/phases/profiling/profile_export_aiperf.json",
        content: JSON.stringify({ phase: { name: "profiling" }, data: s }),
      },
    ]);
    const run = await summaryOf(id);
    const kinds = Object.fromEntries(run.files.map((f) => [f.name, `${f.kind}/${f.format}`]));
    expect(kinds).toMatchObject({
      "run/phase_manifest.json": "aiperf-log/phase-manifest",
      "run/phases/profiling/profile_export_aiperf.json": "aiperf-log/phase-export",
    });
    expect(run.requests).toMatchObject({ count: 42 });
    expect(run.warnings).toEqual([]);
  });
});

describe("aiperf timeslices CSV with Start_NS,End_NS", () => {
  it("is detected and read by its column names", async () => {
    const csv = [
      "Timeslice,Start_NS,End_NS,Metric,Unit,Stat,Value",
      "0,1780000000000000000,1780000001000000000,Time to First Token,ms,avg,51.00",
      "0,1780000000000000000,1780000001000000000,Request Throughput,requests/sec,avg,1.00",
      "1,1780000001000000000,1780000002000000000,Time to First Token,ms,avg,52.00",
    ].join("\n");
    const id = await uploadRun([
      { name: "profile_export.jsonl", content: records(3) },
      { name: "profile_export_aiperf_timeslices.csv", content: csv },
    ]);
    const run = await summaryOf(id);
    expect(run.files.find((f) => f.name.endsWith("timeslices.csv"))).toMatchObject({
      kind: "aiperf-summary",
      format: "timeslices-csv",
    });
    const t = timeslicesPayloadSchema.parse(await readChart(id, "aiperf-timeslices"));
    expect(t.slices).toHaveLength(2);
  });
});

describe("aiperf server metrics CSV with an untyped family", () => {
  it("reads type unknown as a gauge rather than skipping it", async () => {
    const csv = [
      "# AIPerf Server Metrics Export (CSV)",
      "# schema_version: 1.1",
      "Endpoint,Type,Metric,Unit,avg,min,max,std,p1,p5,p10,p25,p50,p75,p90,p95,p99,Description",
      "localhost:8000,unknown,power_total_watts,,350.0000,300.0000,400.0000,1.0000,300.0000,300.0000,300.0000,320.0000,350.0000,380.0000,390.0000,395.0000,399.0000,Untyped family",
      "localhost:8000,gauge,vllm:num_requests_running,,4.0000,0.0000,8.0000,1.0000,0.0000,0.0000,0.0000,2.0000,4.0000,6.0000,8.0000,8.0000,8.0000,Running",
    ].join("\n");
    const run = await summaryOf(
      await uploadRun([
        { name: "profile_export.jsonl", content: records(3) },
        { name: "server_metrics_export.csv", content: csv },
      ]),
    );
    const file = run.files.find((f) => f.name === "server_metrics_export.csv")!;
    expect(file.kind).toBe("aiperf-server-metrics");
    expect(file.warnings.map((w) => w.message).join(" ")).not.toContain("unknown metric type");
  });
});
