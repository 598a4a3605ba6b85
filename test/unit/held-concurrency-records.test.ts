/**
 * The concurrency an aiperf run held, read from its per-request records (docs/metrics.md
 * §Comparable runs, "Held concurrency"), by aiperf's own definition of `effective_concurrency`:
 * src/aiperf/analysis/sweepline.py `concurrency_sweep_line` (+1 at each record's
 * `request_start_ns`, −1 at its `request_end_ns`, as float64, ends before starts at a tie,
 * cumulative sum), src/aiperf/analysis/sweepline_stats.py `compute_time_weighted_stats` (the step
 * function's time-weighted average over the window), src/aiperf/metrics/accumulator.py
 * `_inject_sweep_metrics` (the window from the first event to the last; the profiling phase's
 * records, errors and cancellations included) and `process_record` (the stamps as floats).
 *
 * Pinned on a generated records file of aiperf's record schema (MetricRecordMetadata,
 * src/aiperf/common/models/record_models.py), on the real aiperf 0.8.0 run whose summary's own
 * `effective_concurrency` the records must reproduce exactly, on the real aiperf 0.6.0 run
 * test/fixtures/aiperf-real-c4 (its summary states none), and as not measured on aiperf 0.1.1
 * records (no request_end_ns) and on the 0.3 records cut to 10 of 64 requests.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EMPTY_FACTS } from "@/lib/api/run-facts";
import { BLOCK_SPAN_STAMPED, parseRecordBlock } from "@/lib/formats/aiperf-record-block.mjs";
import { parseSummaryJson } from "@/lib/formats/aiperf-summary";
import {
  RECORDS_CONCURRENCY_SOURCE,
  SUMMARY_CONCURRENCY_SOURCE,
} from "@/lib/metrics/aiperf-held-concurrency";
import { diagnose, saturationOf, type DoctorRun } from "@/lib/metrics/run-differences";
import { describeRealPublic, realPublicFile, realPublicJson } from "../helpers/real-public";
import { analyze, diskFile } from "./aiperf-helpers";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-held-concurrency-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const BASE = 1_796_112_919_279_689_077n;
const MS = 1_000_000n;

/** One `profile_export.jsonl` line as aiperf 0.6/0.7 writes it; times in ms from BASE. */
function line(o: {
  i: number;
  from: number;
  to: number | null;
  phase?: "profiling" | "warmup";
  error?: boolean;
  cancelled?: boolean;
}): string {
  const start = BASE + BigInt(o.from) * MS;
  const end = o.to === null ? "" : `"request_end_ns":${BASE + BigInt(o.to) * MS},`;
  const meta = `{"session_num":${o.i},"x_request_id":"r${o.i}","x_correlation_id":"c${o.i}","conversation_id":"s${o.i}","turn_index":0,"credit_issued_ns":${start - MS},"request_start_ns":${start},"request_ack_ns":${start + MS},${end}"worker_id":"worker_0","record_processor_id":"rp_0","benchmark_phase":"${o.phase ?? "profiling"}","was_cancelled":${o.cancelled ?? false}}`;
  if (o.error)
    return `{"metadata":${meta},"metrics":{"error_isl":{"value":400,"unit":"tokens"}},"error":{"code":500,"type":"Internal Server Error","message":"boom"}}`;
  const latency = o.to === null ? 100 : o.to - o.from;
  return `{"metadata":${meta},"metrics":{"time_to_first_token":{"value":50,"unit":"ms"},"request_latency":{"value":${latency},"unit":"ms"},"input_sequence_length":{"value":400,"unit":"tokens"},"output_sequence_length":{"value":60,"unit":"tokens"}},"error":null}`;
}

/**
 * Profiling spans 0–1000, 0–2000, 500–1500, 1000–3000 (an error), 2000–4000 (cancelled) ms: 8 s
 * in flight over a 4 s window, 2.0 requests; a warm-up long before (left out, else the window
 * would start there) and one profiling record without request_end_ns (counted as missing).
 */
const GENERATED = [
  line({ i: 0, from: -9000, to: -8000, phase: "warmup" }),
  line({ i: 1, from: 0, to: 1000 }),
  line({ i: 2, from: 0, to: 2000 }),
  line({ i: 3, from: 500, to: 1500 }),
  line({ i: 4, from: 1000, to: 3000, error: true }),
  line({ i: 5, from: 2000, to: 4000, cancelled: true }),
  line({ i: 6, from: 2500, to: null }),
];

/** aiperf's sweep line and time-weighted average, written out over float64 stamps. */
function sweepLineAverage(spans: Array<[bigint, bigint]>): number {
  const events = spans.flatMap(([s, e]) => [
    { t: Number(s), d: 1 },
    { t: Number(e), d: -1 },
  ]);
  events.sort((x, y) => x.t - y.t || x.d - y.d);
  let level = 0;
  let area = 0;
  for (let i = 0; i < events.length - 1; i++) {
    level += events[i].d;
    area += level * (events[i + 1].t - events[i].t);
  }
  return area / (events[events.length - 1].t - events[0].t);
}

function doctorRun(
  result: Awaited<ReturnType<typeof analyze>>["result"],
  concurrency: number,
  requestRate: number | null = null,
): DoctorRun {
  const fact = (value: number) => ({ value, source: "aiperf input_config", edited: false });
  return {
    facts: {
      ...EMPTY_FACTS,
      concurrency: fact(concurrency),
      requestRate: requestRate === null ? null : fact(requestRate),
    },
    requests: result.requests,
    info: result.info,
  };
}

describe("held concurrency from generated aiperf records", () => {
  it("time-weighted requests in flight over the profiling window; warm-up left out, a record without its end counted", async () => {
    const file = path.join(tmp, "profile_export.jsonl");
    fs.writeFileSync(file, GENERATED.join("\n") + "\n");
    const { result, handle } = await analyze([diskFile(file)]);
    await handle.close();
    const spans: Array<[bigint, bigint]> = [
      [0n, 1000n],
      [0n, 2000n],
      [500n, 1500n],
      [1000n, 3000n],
      [2000n, 4000n],
    ].map(([s, e]) => [BASE + s * MS, BASE + e * MS]);
    // The parse thread marks which records state both stamps themselves.
    const block = parseRecordBlock(GENERATED.join("\n"));
    expect([...block.flags.subarray(0, block.records)].map((f) => (f & BLOCK_SPAN_STAMPED) !== 0)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      false,
    ]);
    const expected = sweepLineAverage(spans);
    expect(expected).toBeCloseTo(2, 9);
    expect(result.info).toMatchObject({
      effectiveConcurrency: expected,
      effectiveConcurrencySource: RECORDS_CONCURRENCY_SOURCE,
      effectiveConcurrencyCount: 5,
      effectiveConcurrencyMissing: 1,
    });
    // 2.0 of 4 requested: below 90%, a saturated load generator.
    const s = saturationOf(doctorRun(result, 4));
    expect(s.saturated).toBe(true);
    expect(s.text).toMatch(/^concurrency 2\.00 of 4 requested; queue wait p50/);
    expect(s.evidence[0]).toBe(
      `effective concurrency below 90% of the requested (2.00 of 4; ${RECORDS_CONCURRENCY_SOURCE}, 5 requests)`,
    );
    // Under a request rate the concurrency is a ceiling: shown, not judged.
    const rated = saturationOf(doctorRun(result, 4, 2));
    expect(rated.text).toMatch(
      /^concurrency 2\.00 held, at most 4 at 2 requests\/s \(a ceiling, not a target\);/,
    );
    expect(rated.evidence.some((e) => e.startsWith("effective concurrency"))).toBe(false);
  });
});

describe("the real aiperf 0.6.0 run (test/fixtures/aiperf-real-c4)", () => {
  const REAL = path.resolve(__dirname, "../fixtures/aiperf-real-c4");
  it("its 200 profiling records held 3.94 of the 4 requested: not saturated", async () => {
    const summary = JSON.parse(fs.readFileSync(path.join(REAL, "profile_export_aiperf.json"), "utf8"));
    // aiperf 0.6.0 states no effective concurrency: the figure is the records'.
    expect(summary.effective_concurrency).toBeUndefined();
    expect(summary.input_config.loadgen.concurrency).toBe(4);
    const { result, handle } = await analyze([
      diskFile(path.join(REAL, "profile_export.jsonl"), "profile_export.jsonl", 0),
      diskFile(path.join(REAL, "profile_export_aiperf.json"), "profile_export_aiperf.json", 1),
    ]);
    await handle.close();
    // numpy's sweep line over the same float64 stamps gives 3.938286625833915.
    expect(result.info).toMatchObject({
      effectiveConcurrency: 3.938286625833915,
      effectiveConcurrencySource: RECORDS_CONCURRENCY_SOURCE,
      effectiveConcurrencyCount: 200,
    });
    expect(result.info?.effectiveConcurrencyMissing).toBeUndefined();
    const run = doctorRun(result, 4);
    const s = saturationOf(run);
    expect(s.saturated).toBe(false);
    expect(s.text).toMatch(/^concurrency 3\.94 of 4 requested; queue wait p50 2\.81 ms/);
    expect(diagnose(run, run).reasons).toEqual([]);
  });
});

describeRealPublic("aiperf-0.8.0-sglang-glm5.1-agentic-conc16", () => {
  const folder = "aiperf-0.8.0-sglang-glm5.1-agentic-conc16";
  it("the records alone reproduce aiperf's own effective_concurrency to the last digit", async () => {
    const own = parseSummaryJson(realPublicJson(folder, "profile_export_aiperf.json"))!.metrics
      .effective_concurrency!;
    expect(own.avg).toBe(13.327003864587935);
    const records = await analyze([diskFile(realPublicFile(folder, "profile_export.jsonl"))]);
    await records.handle.close();
    expect(records.result.info).toMatchObject({
      effectiveConcurrency: own.avg,
      effectiveConcurrencySource: RECORDS_CONCURRENCY_SOURCE,
      effectiveConcurrencyCount: 87,
    });
    // With the summary, aiperf's own figure is the one shown, its source named.
    const both = await analyze([
      diskFile(realPublicFile(folder, "profile_export.jsonl"), "profile_export.jsonl", 0),
      diskFile(realPublicFile(folder, "profile_export_aiperf.json"), "profile_export_aiperf.json", 1),
    ]);
    await both.handle.close();
    expect(both.result.info).toMatchObject({
      effectiveConcurrency: own.avg,
      effectiveConcurrencySource: SUMMARY_CONCURRENCY_SOURCE,
    });
    // 13.33 of the 16 requested (83%): the run did not hold its load.
    const s = saturationOf(doctorRun(both.result, 16));
    expect(s.saturated).toBe(true);
    expect(s.evidence[0]).toBe(
      `effective concurrency below 90% of the requested (13.33 of 16; ${SUMMARY_CONCURRENCY_SOURCE})`,
    );
  });
});

describeRealPublic("aiperf-0.1.1-gptoss20b-cancellations", () => {
  it("records with one timestamp_ns and no request_end_ns: concurrency not measured, never guessed", async () => {
    const folder = "aiperf-0.1.1-gptoss20b-cancellations";
    const { result, handle } = await analyze([diskFile(realPublicFile(folder, "profile_export.jsonl"))]);
    await handle.close();
    expect(result.info?.effectiveConcurrency).toBeUndefined();
    expect(result.info?.effectiveConcurrencyMissing).toBe(100);
    const s = saturationOf(doctorRun(result, 100));
    expect(s.saturated).toBe(false);
    expect(s.text).toBe(
      "concurrency not measured (100 profiling records without request_start_ns and request_end_ns); queue wait not measured (100 profiling records without credit_issued_ns)",
    );
  });
});

describeRealPublic("aiperf-0.3-qwen3-0.6b-plot-fixtures", () => {
  it("records cut to 10 of the summary's 64 requests: their span is not the run's, so not measured", async () => {
    const folder = "aiperf-0.3-qwen3-0.6b-plot-fixtures";
    const { result, handle } = await analyze([
      diskFile(realPublicFile(folder, "qwen_concurrency4/profile_export.jsonl"), "profile_export.jsonl", 0),
      diskFile(
        realPublicFile(folder, "qwen_concurrency4/profile_export_aiperf.json"),
        "profile_export_aiperf.json",
        1,
      ),
    ]);
    await handle.close();
    expect(result.info?.effectiveConcurrency).toBeUndefined();
    expect(result.info?.effectiveConcurrencyUnmeasured).toBe(
      "the records hold 10 of the 64 requests aiperf's summary describes",
    );
    const s = saturationOf(doctorRun(result, 4));
    expect(s.saturated).toBe(false);
    expect(s.text).toMatch(
      /^concurrency not measured \(the records hold 10 of the 64 requests aiperf's summary describes\)/,
    );
  });
});
