import fs from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseGpuSample } from "@/lib/formats/aiperf-gpu-telemetry";
import { readInputConfig } from "@/lib/formats/aiperf-input-config";
import { tagFromDisplay } from "@/lib/formats/aiperf-metric-tags";
import { nsFromText, parseAiperfRecord } from "@/lib/formats/aiperf-records";
import { parseSummaryJson } from "@/lib/formats/aiperf-summary";
import { parseSummaryCsv } from "@/lib/formats/aiperf-summary-csv";
import { metricNumber, readMetric, toMs } from "@/lib/formats/aiperf-units";
import { nsDeltaMs } from "@/lib/metrics/requests-log";
import { AIPERF_FIXTURES } from "./aiperf-helpers";

const read = (name: string) => fs.readFileSync(path.join(AIPERF_FIXTURES, name), "utf8");

describe("aiperf record lines", () => {
  it("keeps nanosecond timestamps exact (JSON.parse would round them by up to 256 ns)", () => {
    const text =
      '{"metadata":{"x_request_id":"a","request_start_ns":1762551940061660357,"request_end_ns":1762551940061660999,"benchmark_phase":"profiling"},"metrics":{}}';
    const r = parseAiperfRecord(JSON.parse(text), text);
    if (typeof r === "string") throw new Error(r);
    expect(r.startNs).toBe(1762551940061660357n);
    expect(nsDeltaMs(r.endNs!, r.startNs!)).toBeCloseTo(0.000642, 12);
    // The trap the text read avoids:
    expect(BigInt(JSON.parse(text).metadata.request_start_ns)).not.toBe(1762551940061660357n);
  });

  it("finds a nanosecond stamp in the text exactly where the plain pattern does", () => {
    const token = fc.constantFrom(
      '"request_start_ns"',
      '"request_end_ns"',
      ":",
      " ",
      "\n",
      "\t",
      "-",
      "5",
      "0",
      "17625519400616603",
      ".",
      "e",
      "E",
      ",",
      "{",
      "}",
      '"x"',
      '\\"',
      "1.5e18",
      "null",
    );
    fc.assert(
      fc.property(fc.array(token, { maxLength: 16 }), (tokens) => {
        const text = tokens.join("");
        for (const key of ["request_start_ns", "request_end_ns"]) {
          const m = new RegExp(`"${key}"\\s*:\\s*(-?\\d+)(?![\\d.eE])`).exec(text);
          expect(nsFromText(text, key)).toBe(m ? BigInt(m[1]) : null);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("reads a scalar metric as readMetric does", () => {
    const raw = fc.oneof(
      fc.double(),
      fc.constantFrom(null, undefined, "5", [1, 2], {}),
      fc.record(
        {
          value: fc.oneof(fc.double(), fc.constantFrom("2.5", " ", "", "x", null, [3])),
          unit: fc.constantFrom("ms", "s", " sec ", "ns", "us", "tokens", 7, undefined),
        },
        { requiredKeys: [] },
      ),
    );
    fc.assert(
      fc.property(raw, (r) => {
        const m = readMetric(r);
        const want = !m || Array.isArray(m.value) ? null : toMs(m.value, m.unit);
        expect(metricNumber(r)).toBe(want);
      }),
      { numRuns: 2000 },
    );
  });

  it("reads {value, unit} and bare numbers, converting by unit", () => {
    expect(metricNumber({ value: 1.5, unit: "sec" })).toBe(1500);
    expect(metricNumber({ value: 2_000_000, unit: "ns" })).toBe(2);
    expect(metricNumber({ value: 250, unit: "us" })).toBe(0.25);
    expect(metricNumber(42)).toBe(42);
    expect(metricNumber({ value: 200, unit: "tokens" })).toBe(200);
    expect(metricNumber(null)).toBeNull();
    expect(metricNumber({ value: [1, 2], unit: "ms" })).toBeNull();
    expect(toMs(3, undefined)).toBe(3);
  });

  it("reads the cancelled error record of the aiperf docs", () => {
    const text = read("doc-error-record__profile_export.jsonl").trim();
    const r = parseAiperfRecord(JSON.parse(text), text);
    if (typeof r === "string") throw new Error(r);
    expect(r).toMatchObject({ cancelled: true, phase: "profiling", inputTokens: 550, ttftMs: null });
    expect(r.error).toEqual({
      type: "RequestCancellationError",
      code: 499,
      message: "Request was cancelled after 0.000 seconds",
    });
    expect(r.requestId).toBe("c35e4b1b-6775-4750-b875-94cd68e5ec15");
  });

  it("accepts omitted optionals (exclude_none files) and refuses lines without metadata", () => {
    const text =
      '{"metadata":{"request_start_ns":10,"request_end_ns":20},"metrics":{"request_latency":{"value":1,"unit":"ms"}}}';
    const r = parseAiperfRecord(JSON.parse(text), text);
    expect(r).toMatchObject({ requestId: null, phase: "profiling", cancelled: false, error: null, e2eMs: 1 });
    expect(parseAiperfRecord({ metrics: {} }, "{}")).toBe("no metadata object");
  });
});

describe("aiperf summary", () => {
  it("reads the pre-versioned qwen summary (explicit nulls, v1 input_config)", () => {
    const s = parseSummaryJson(JSON.parse(read("qwen-c1__profile_export_aiperf.json")))!;
    expect(s.schemaVersion).toBeNull();
    expect(s.metrics.goodput).toBeUndefined();
    expect(s.metrics.request_count.avg).toBe(64);
    expect(s.config).toMatchObject({
      model: "Qwen/Qwen3-0.6B",
      endpointUrl: "localhost:8000/v1/chat/completions",
      concurrency: 1,
      requestCount: 64,
      configVersion: 1,
    });
  });

  it("reads the real 0.10 summary (schema 1.3, v2 input_config, count/sum)", () => {
    const s = parseSummaryJson(JSON.parse(read("real-v0.10__profile_export_aiperf.json")))!;
    expect(s).toMatchObject({ schemaVersion: "1.3", aiperfVersion: "0.10.0" });
    expect(s.config).toMatchObject({
      model: "qwen3.6-nvfp4",
      endpointUrl: "http://localhost:8000",
      endpointType: "chat",
      streaming: true,
      concurrency: 16,
      requestCount: 96,
      configVersion: 2,
    });
    expect(s.metrics.request_latency).toMatchObject({ unit: "ms", count: 96, p99: 18625.4480323 });
  });

  it("reads the real CSV by header name, mapping display names back to tags", () => {
    const s = parseSummaryCsv(read("real-v0.10__profile_export_aiperf.csv"));
    expect(s.metrics.request_latency).toMatchObject({
      unit: "ms",
      avg: 6726.66,
      p99: 18625.45,
      sum: 645759.75,
    });
    expect(s.metrics.time_to_first_token.p50).toBe(177.79);
    expect(s.metrics.request_count.avg).toBe(96);
    expect(s.metrics.benchmark_duration).toMatchObject({ unit: "sec", avg: 44.52 });
    expect(s.metrics.http_duration_excl_conn).toMatchObject({ unit: "ms" });
  });

  it("maps display headers, keeping parentheses that are not units", () => {
    expect(tagFromDisplay("Time to First Token (ms)")).toEqual({ tag: "time_to_first_token", unit: "ms" });
    expect(tagFromDisplay("Request Count")).toEqual({ tag: "request_count", unit: undefined });
    expect(tagFromDisplay("OSL Mismatch Diff % (%)")).toEqual({ tag: "osl_mismatch_diff_pct", unit: "%" });
    expect(tagFromDisplay("Output Token Throughput Per User (tokens/sec/user)").tag).toBe(
      "output_token_throughput_per_user",
    );
  });

  it("takes request rate from v1 loadgen and from a v2 phase", () => {
    expect(readInputConfig({ loadgen: { request_rate: 5 } }).requestRate).toBe(5);
    expect(readInputConfig({ phases: [{ name: "profiling", type: "rate", rate: 12 }] }).requestRate).toBe(12);
    expect(readInputConfig({}).configVersion).toBeNull();
  });
});

describe("aiperf GPU telemetry", () => {
  it("reads both metric-name generations and both source fields", () => {
    const line = read("qwen-c4__gpu_telemetry_export.jsonl").split("\n")[0];
    const old = parseGpuSample(JSON.parse(line), line);
    if (typeof old === "string") throw new Error(old);
    expect(old).toMatchObject({
      source: "http://localhost:9402/metrics",
      gpuIndex: 0,
      powerW: 55.874,
      utilizationPct: 7,
      energyMj: 32.667422506,
    });
    expect(old.timestampNs).toBe(1762551935794723163n);
    const text =
      '{"timestamp_ns":1762551935794723163,"telemetry_source_url":"pynvml://localhost","gpu_index":1,"gpu_uuid":"GPU-x","telemetry_data":{"nvidia_power_usage":300.5,"nvidia_gpu_utilization":99,"nvidia_memory_used":40.1,"nvidia_energy_consumption":1.5}}';
    const newer = parseGpuSample(JSON.parse(text), text);
    expect(newer).toMatchObject({ source: "pynvml://localhost", powerW: 300.5, utilizationPct: 99 });
    expect(newer).toMatchObject({ memoryUsedGb: 40.1, energyMj: 1.5 });
  });
});

describe("ITL when the record omits it", () => {
  it("derives (latency − TTFT) / (OSL − 1), and nothing below 2 output tokens", () => {
    const text =
      '{"metadata":{"request_start_ns":1,"request_end_ns":2},"metrics":{"time_to_first_token":{"value":100,"unit":"ms"},"request_latency":{"value":1.1,"unit":"sec"},"output_sequence_length":{"value":101,"unit":"tokens"},"inter_chunk_latency":{"value":[9,11],"unit":"ms"}}}';
    expect(parseAiperfRecord(JSON.parse(text), text)).toMatchObject({ itlMs: 10, e2eMs: 1100 });
    const one = text.replace('"value":101', '"value":1');
    expect(parseAiperfRecord(JSON.parse(one), one)).toMatchObject({ itlMs: null });
  });
});
