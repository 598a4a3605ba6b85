import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { detectKind, DETECT_HEAD_BYTES } from "@/lib/formats/detect";
import type { Kind } from "@/lib/api/kinds";

const FIXTURES = path.resolve(__dirname, "../fixtures");

function detectFile(rel: string) {
  const buf = fs.readFileSync(path.join(FIXTURES, rel));
  return detectKind(buf.subarray(0, DETECT_HEAD_BYTES), buf.length <= DETECT_HEAD_BYTES);
}

function walk(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** What each shared sample is, by its role (file names are never consulted by the detector). */
function expectedKind(rel: string): { kind: Kind; format?: string } {
  const base = path.basename(rel);
  if (/(^|__)profile_export\.jsonl$/.test(base)) return { kind: "aiperf-records", format: "jsonl" };
  if (/profile_export_aiperf_timeslices\.json$/.test(base))
    return { kind: "aiperf-summary", format: "timeslices-json" };
  if (/profile_export_aiperf_timeslices\.csv$/.test(base))
    return { kind: "aiperf-summary", format: "timeslices-csv" };
  if (/profile_export_aiperf\.json$/.test(base)) return { kind: "aiperf-summary", format: "json" };
  if (/profile_export_aiperf\.csv$/.test(base)) return { kind: "aiperf-summary", format: "csv" };
  if (/gpu_telemetry_export\.jsonl$/.test(base)) return { kind: "aiperf-gpu-telemetry", format: "jsonl" };
  if (/server_metrics_export(\.sample)?\.json$/.test(base))
    return { kind: "aiperf-server-metrics", format: "json" };
  if (/server_metrics_export\.jsonl$/.test(base)) return { kind: "aiperf-server-metrics", format: "jsonl" };
  if (/server_metrics_export(\.sample)?\.csv$/.test(base))
    return { kind: "aiperf-server-metrics", format: "csv" };
  if (/\.prom$/.test(base)) return { kind: "aiperf-server-metrics", format: "prometheus" };
  if (base === "canary_reference_inputs.json") return { kind: "aiperf-inputs", format: "json" };
  if (base === "server.log" || /^watchtower-.*\.out$/.test(base))
    return { kind: "server-log", format: "text" };
  if (/^perf_metrics-.*\.jsonl$|^illustrative-perf_metrics.*\.jsonl$/.test(base))
    return { kind: "trtllm-perf-metrics", format: "jsonl" };
  if (/^time_breakdown_readme_.*\.json$/.test(base))
    return { kind: "trtllm-perf-metrics", format: "json-array" };
  if (base === "dynamo_doc_request_perf_metrics.json") return { kind: "trtllm-perf-metrics", format: "json" };
  // InferenceX's own results (utils/agentic/aggregation/process_agentic_result.py `build_agg`):
  // the aggregation study's reference outputs and a real result row are InferenceX result files.
  if (/^reference-output\..*\.json$|^v3-agg-row-.*\.json$/.test(base))
    return { kind: "inferencex-result", format: "json" };
  // Expectations, environment files, notes and reports: not inputs.
  return { kind: "unknown" };
}

const SAMPLE_DIRS = ["aiperf", "trtllm", "inferencex-aggregation", "inferencex-app"];
const files = SAMPLE_DIRS.flatMap((d) =>
  fs.existsSync(path.join(FIXTURES, d)) ? walk(path.join(FIXTURES, d)) : [],
)
  .map((f) => path.relative(FIXTURES, f))
  .filter((f) => !f.includes(`${path.sep}generated${path.sep}`))
  .sort();

describe("detectKind on every shared sample", () => {
  it("finds the samples", () => {
    expect(files.length).toBeGreaterThan(150);
  });
  it.each(files)("%s", (rel) => {
    const want = expectedKind(rel);
    const got = detectFile(rel);
    expect(got.kind).toBe(want.kind);
    if (want.format) expect(got.format).toBe(want.format);
  });
});

describe("detectKind on junk", () => {
  const d = (s: string | Buffer, complete = true) =>
    detectKind(Buffer.isBuffer(s) ? s : Buffer.from(s), complete);
  it("empty and whitespace files are unknown/empty", () => {
    expect(d("")).toEqual({ kind: "unknown", format: "empty" });
    expect(d("\n\n  \r\n")).toEqual({ kind: "unknown", format: "empty" });
  });
  it("binary is unknown/binary", () => {
    expect(d(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]))).toEqual({
      kind: "unknown",
      format: "binary",
    });
    const noise = Buffer.alloc(4096);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919) % 256;
    expect(d(noise).kind).toBe("unknown");
  });
  it("JSON of no known kind is unknown/json", () => {
    expect(d('{"hello": "world"}')).toEqual({ kind: "unknown", format: "json" });
    expect(d("[1, 2, 3]")).toEqual({ kind: "unknown", format: "json" });
    expect(d('{"a":1}\n{"b":2}\n')).toEqual({ kind: "unknown", format: "json" });
  });
  it("truncated JSON and markdown do not throw", () => {
    expect(d('{"metadata": {"x"', false).kind).toBe("unknown");
    expect(d("# Title\n\n| a | b |\n|---|---|\n| vllm | GPU KV cache size |\n").kind).toBe("unknown");
  });
  it("a BOM and CRLF do not hide the kind", () => {
    const line = '{"metadata":{"session_num":0},"metrics":{"request_latency":{"value":1,"unit":"ms"}}}';
    expect(d(`\ufeff${line}\r\n${line}\r\n`)).toEqual({ kind: "aiperf-records", format: "jsonl" });
  });
  it("lone CR line ends are line ends: records stay records", () => {
    const line = '{"metadata":{"session_num":0},"metrics":{"request_latency":{"value":1,"unit":"ms"}}}';
    expect(d(`${line}\r${line}\r`)).toEqual({ kind: "aiperf-records", format: "jsonl" });
    expect(d("Metric,avg,min\rRequest Latency (ms),1,1\r")).toEqual({
      kind: "aiperf-summary",
      format: "csv",
    });
  });
  it("UTF-16 with a BOM is read as text, little- and big-endian", () => {
    const line = '{"metadata":{"session_num":0},"metrics":{"request_latency":{"value":1,"unit":"ms"}}}';
    const le = Buffer.concat([Buffer.of(0xff, 0xfe), Buffer.from(`${line}\n${line}\n`, "utf16le")]);
    const be = Buffer.from(le).swap16();
    expect(detectKind(le, true)).toEqual({ kind: "aiperf-records", format: "jsonl" });
    expect(detectKind(be, true)).toEqual({ kind: "aiperf-records", format: "jsonl" });
    // A head cut inside a code unit still reads.
    expect(detectKind(le.subarray(0, le.length - 1), false)).toEqual({
      kind: "aiperf-records",
      format: "jsonl",
    });
  });
  it("a first record whose metadata outgrows the head is an aiperf record", () => {
    const huge = `{"metadata": {"session_num": 0, "x_request_id": "req-0", "request_start_ns": 1, "worker_id": "${"W".repeat(DETECT_HEAD_BYTES)}`;
    expect(d(huge.slice(0, DETECT_HEAD_BYTES), false)).toEqual({ kind: "aiperf-records", format: "jsonl" });
    // A summary's metadata is no record.
    const summary = `{"metadata": {"aggregation_type": "x", "note": "${"W".repeat(DETECT_HEAD_BYTES)}`;
    expect(d(summary.slice(0, DETECT_HEAD_BYTES), false).kind).not.toBe("aiperf-records");
  });
  it("lines wrapped as {record: …} are TRT-LLM perf metrics", () => {
    const rec = '{"record":{"request_id":1,"perf_metrics":{"timing_metrics":{"arrival_time":1.0}}}}';
    expect(d(`${rec}\n${rec}\n`)).toEqual({ kind: "trtllm-perf-metrics", format: "jsonl" });
  });
  it("a first line longer than the head is still classified by its keys", () => {
    const huge = `{"request_id":1,"perf_metrics":{"timing_metrics":{}},"time_breakdown_metrics":{"step_metrics":[${"1,".repeat(600_000)}`;
    expect(d(huge.slice(0, DETECT_HEAD_BYTES), false)).toEqual({
      kind: "trtllm-perf-metrics",
      format: "jsonl",
    });
  });
  it("engine configs in YAML and JSON", () => {
    expect(
      d(
        "return_perf_metrics: true\nenable_iter_perf_stats: false\nkv_cache_config:\n  free_gpu_memory_fraction: 0.9\n",
      ),
    ).toEqual({
      kind: "engine-config",
      format: "yaml",
    });
    expect(d('{"return_perf_metrics": true, "max_batch_size": 64}')).toEqual({
      kind: "engine-config",
      format: "json",
    });
  });
  it("a server-metrics export larger than the head, with nested timeslices, stays server metrics", () => {
    const series = `{"endpoint_url":"http://a:8000/metrics","stats":{"avg":1},"timeslices":[${'{"start_ns":1,"end_ns":2,"avg":1},'.repeat(40_000)}`;
    const head = `{"schema_version":"1.0","summary":{"endpoints_configured":["http://a:8000/metrics"]},"metrics":{"vllm:x":{"type":"gauge","series":[${series}`;
    expect(d(head.slice(0, DETECT_HEAD_BYTES), false)).toEqual({
      kind: "aiperf-server-metrics",
      format: "json",
    });
  });
  it("aiperf timeslice exports", () => {
    expect(d('{"timeslices":[{"timeslice_index":0}]}')).toEqual({
      kind: "aiperf-summary",
      format: "timeslices-json",
    });
    expect(d("Timeslice,Metric,Unit,Stat,Value\r\n0,Time to First Token,ms,avg,45.20\r\n")).toEqual({
      kind: "aiperf-summary",
      format: "timeslices-csv",
    });
  });
});
