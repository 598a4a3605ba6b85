/**
 * aiperf 0.1.x record lines and aiperf.log, generated from aiperf's own source: v0.1.1
 * (ai-dynamo/aiperf tag v0.1.1) tags `ttft`/`ttst` (renamed in 43b78902), stamps a record with
 * `metadata.timestamp_ns` (the start, wall clock) and `credit_phase`, and computes its
 * max_response_timestamp as timestamp_ns + request_latency (aiperf/metrics/types/
 * max_response_metric.py); it writes no `was_cancelled`, a cancelled request being error 499
 * `RequestCancellationError`. aiperf.log's PhaseRunner lines as aiperf 0.8.0 writes them.
 */
import { describe, expect, it } from "vitest";
import { parseAiperfLog } from "@/lib/formats/aiperf-log";
import { parseAiperfRecord } from "@/lib/formats/aiperf-records";
import { detectKind } from "@/lib/formats/detect";

const read = (text: string) => parseAiperfRecord(JSON.parse(text), text);

describe("aiperf 0.1.x records", () => {
  it("reads ttft, the start from timestamp_ns and the end as start + request_latency", () => {
    const r = read(
      '{"metadata":{"x_request_id":"a","timestamp_ns":1759522419154568925,"credit_phase":"warmup"},"metrics":{"ttft":{"value":730.147344,"unit":"ms"},"request_latency":{"value":8877.620132,"unit":"ms"}}}',
    );
    expect(r).toMatchObject({
      phase: "warmup",
      ttftMs: 730.147344,
      startNs: 1759522419154568925n,
      endNs: 1759522419154568925n + 8877620132n,
    });
  });

  it("prefers the record's own max_response_timestamp, read exactly from the text", () => {
    const r = read(
      '{"metadata":{"x_request_id":"a","timestamp_ns":1759522419154568925},"metrics":{"request_latency":{"value":1.5,"unit":"ms"},"max_response_timestamp":{"value":1759522428472357876,"unit":"ns"}}}',
    );
    expect(r).toMatchObject({ endNs: 1759522428472357876n });
  });

  it("counts error 499 as a cancellation only where the version writes no was_cancelled", () => {
    const error = '"error":{"code":499,"type":"RequestCancellationError","message":"cancelled"}';
    const old = read(`{"metadata":{"x_request_id":"a","timestamp_ns":1},"metrics":{},${error}}`);
    expect(old).toMatchObject({ cancelled: true, error: { code: 499 } });
    const newer = read(
      `{"metadata":{"x_request_id":"a","request_start_ns":1,"was_cancelled":false},"metrics":{},${error}}`,
    );
    expect(newer).toMatchObject({ cancelled: false });
  });

  it("a newer record without an end keeps none (no end is made up from its latency)", () => {
    const r = read(
      '{"metadata":{"x_request_id":"a","request_start_ns":1000},"metrics":{"request_latency":{"value":1,"unit":"ms"}}}',
    );
    expect(r).toMatchObject({ startNs: 1000n, endNs: null });
  });
});

describe("aiperf.log", () => {
  const log = [
    "2026-06-03 18:03:57.888 - aiperf.cli_runner - INFO - Starting AIPerf System",
    "2026-06-03 18:03:59.532 - PhaseRunner - NOTICE - Phase warmup started | target: 16 requests",
    "  lane=00  sample_time= 39%",
    "2026-06-03 18:10:43.422 - PhaseRunner - NOTICE - Phase warmup complete | completed=16, cancelled=0, errors=1 | elapsed=403.89s",
    "2026-06-03 18:41:13.446 - PhaseRunner - NOTICE - Phase profiling complete | completed=89, cancelled=14, errors=0 | sessions: completed=1, cancelled=0 | elapsed=1830.01s | grace_period_timeout=True",
  ].join("\n");

  it("is detected by its line shape and read for each phase's outcome", () => {
    expect(detectKind(Buffer.from(log), true)).toEqual({ kind: "aiperf-log", format: "text" });
    expect(parseAiperfLog(log).phases).toEqual({
      warmup: { completed: 16, cancelled: 0, errors: 1, elapsedS: 403.89, targetRequests: 16 },
      profiling: { completed: 89, cancelled: 14, errors: 0, elapsedS: 1830.01, targetRequests: null },
    });
  });

  it("recognises the 0.1.x summary's records map, the command and the workload summary", () => {
    const summary = { records: { ttft: { tag: "ttft", unit: "ms", avg: 1 } }, input_config: {} };
    expect(detectKind(Buffer.from(JSON.stringify(summary)), true)).toEqual({
      kind: "aiperf-summary",
      format: "json",
    });
    expect(detectKind(Buffer.from("aiperf profile --model m --url http://x\n"), true).format).toBe("command");
    expect(
      detectKind(
        Buffer.from("=====\nBENCHMARK WORKLOAD DISTRIBUTION ANALYSIS\n=====\nTotal requests: 87\n"),
        true,
      ).format,
    ).toBe("workload");
  });
});
