/**
 * Client-side queueing read from aiperf's per-request records (docs/metrics.md §Comparable runs,
 * "Client-side queueing"): each profiling record's `request_start_ns − credit_issued_ns`, aiperf's
 * `credit_to_start_latency` (aiperf src/aiperf/metrics/derived_latency.py
 * `compute_credit_to_start_latency`: float64 stamps, NaN dropped, clamped at 0, numpy's linear
 * percentiles over the profiling phase's records, errors included). The record fields are
 * aiperf's `MetricRecordMetadata` (src/aiperf/common/models/record_models.py: `credit_issued_ns`
 * "when the credit was issued by the rate limiter", `request_start_ns` the request's start, both
 * `time.time_ns()`), the credit stamped once the concurrency slot is taken
 * (src/aiperf/credit/issuer.py `_issue_credit_internal`).
 *
 * Pinned on a generated records file following that schema, on the real aiperf 0.6.0 run
 * test/fixtures/aiperf-real-c4 (read in place), and on the real-public aiperf folders: 0.8.0,
 * whose summary's own `credit_to_start_latency` the records must reproduce exactly, and 0.1.1,
 * whose records carry no credit stamp (not measured, never 0).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SUMMARY_QUEUE_WAIT_WORDS } from "@/lib/api/source-words";
import { EMPTY_FACTS } from "@/lib/api/run-facts";
import { parseAiperfRecord } from "@/lib/formats/aiperf-records";
import { parseRecordBlock } from "@/lib/formats/aiperf-record-block.mjs";
import { parseSummaryJson } from "@/lib/formats/aiperf-summary";
import { RECORDS_QUEUE_WAIT_SOURCE } from "@/lib/metrics/aiperf-queue-wait";
import { queueWaitInfo } from "@/lib/metrics/aiperf-run-result";
import { diagnose, saturationOf, type DoctorRun } from "@/lib/metrics/run-differences";
import { describeRealPublic, realPublicFile, realPublicJson } from "../helpers/real-public";
import { analyze, diskFile } from "./aiperf-helpers";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-queue-wait-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const BASE = 1_796_112_919_279_689_077n;

/** One `profile_export.jsonl` line as aiperf 0.6/0.7 writes it (MetricRecordMetadata + metrics). */
function line(o: {
  i: number;
  waitNs: bigint | null;
  phase?: "profiling" | "warmup";
  ttftMs?: number;
  latencyMs?: number;
  error?: boolean;
}): string {
  const issued = BASE + BigInt(o.i) * 1_000_000_000n;
  const start = issued + (o.waitNs ?? 0n);
  const latency = o.latencyMs ?? 500;
  const end = start + BigInt(Math.round(latency * 1e6));
  const credit = o.waitNs === null ? "" : `"credit_issued_ns":${issued},`;
  const meta = `{"session_num":${o.i},"x_request_id":"r${o.i}","x_correlation_id":"c${o.i}","conversation_id":"s${o.i}","turn_index":0,${credit}"request_start_ns":${start},"request_end_ns":${end},"worker_id":"worker_0","record_processor_id":"rp_0","benchmark_phase":"${o.phase ?? "profiling"}","was_cancelled":false}`;
  if (o.error)
    return `{"metadata":${meta},"metrics":{"error_isl":{"value":400,"unit":"tokens"}},"error":{"code":500,"type":"Internal Server Error","message":"boom"}}`;
  const metrics = [
    o.ttftMs !== undefined ? `"time_to_first_token":{"value":${o.ttftMs},"unit":"ms"}` : null,
    `"request_latency":{"value":${latency},"unit":"ms"}`,
    `"input_sequence_length":{"value":400,"unit":"tokens"}`,
    `"output_sequence_length":{"value":60,"unit":"tokens"}`,
  ].filter(Boolean);
  return `{"metadata":${meta},"metrics":{${metrics.join(",")}},"error":null}`;
}

/** Ten profiling waits 1..10 ms against a 50 ms TTFT, a warm-up, an error, one record without the stamp. */
const GENERATED = [
  line({ i: 0, waitNs: 900_000_000n, phase: "warmup", ttftMs: 50 }),
  ...Array.from({ length: 10 }, (_, k) => line({ i: k + 1, waitNs: BigInt(k + 1) * 1_000_000n, ttftMs: 50 })),
  line({ i: 11, waitNs: 2_500_000n, error: true }),
  line({ i: 12, waitNs: null, ttftMs: 50 }),
  // A credit stamped after the start (clock skew between aiperf's processes) waits 0, as aiperf clamps.
  line({ i: 13, waitNs: -300n, ttftMs: 50 }),
];

describe("queue wait from generated aiperf records", () => {
  it("each record's wait is request_start_ns − credit_issued_ns in ms, null without the credit stamp", () => {
    const parse = (l: string) => {
      const r = parseAiperfRecord(JSON.parse(l), l);
      if (typeof r === "string") throw new Error(r);
      return r.queueWaitMs;
    };
    // aiperf subtracts the stamps as float64 (its column store): at 1.8e18 ns each is rounded to
    // a multiple of 256 ns, so a 1 ms wait reads as aiperf reads it, within a microsecond.
    const first = JSON.parse(GENERATED[1]).metadata;
    expect(parse(GENERATED[1])).toBe(
      (Number(BigInt(first.request_start_ns)) - Number(BASE + 1_000_000_000n)) / 1e6,
    );
    expect(parse(GENERATED[1])).toBeCloseTo(1, 3);
    expect(parse(GENERATED[11])).toBeCloseTo(2.5, 3);
    expect(parse(GENERATED[12])).toBeNull();
    expect(parse(GENERATED[13])).toBe(0);
    // The parse thread's block carries the same column (NaN: not measured).
    const block = parseRecordBlock(GENERATED.join("\n"));
    const waits = [...block.queueWaitMs.subarray(0, block.records)];
    expect(waits.map((w) => Math.round(w * 1000) / 1000)).toEqual([
      900,
      1,
      2,
      3,
      4,
      5,
      6,
      7,
      8,
      9,
      10,
      2.5,
      NaN,
      0,
    ]);
    expect(waits[1]).toBe(parse(GENERATED[1]));
  });

  it("run info: p50/p90/p99/max over the profiling records, how many waited, how many lack the stamp", async () => {
    const file = path.join(tmp, "profile_export.jsonl");
    fs.writeFileSync(file, GENERATED.join("\n") + "\n");
    const { result, handle } = await analyze([diskFile(file)]);
    await handle.close();
    // 12 profiling waits: 0, 1..10 and the error's 2.5; numpy's linear percentiles: p50 between
    // 4 and 5, p90 at rank 9.9 (8.9), p99 at rank 10.89 (9.89). Within a microsecond (float64 stamps).
    const info = result.info!;
    for (const [k, v] of [
      ["queueWaitP50Ms", 4.5],
      ["queueWaitP90Ms", 8.9],
      ["queueWaitP99Ms", 9.89],
      ["queueWaitMaxMs", 10],
    ] as const)
      expect(info[k], k).toBeCloseTo(v, 3);
    expect(info).toMatchObject({
      queueWaitCount: 12,
      // Judged against their own TTFT (the error has none): 5..10 ms are ≥ 10% of 50 ms.
      queueWaitJudged: 11,
      queueWaited: 6,
      queueWaitMissing: 1,
      queueWaitSource: RECORDS_QUEUE_WAIT_SOURCE,
    });
  });

  it("the summary's credit_to_start_latency comes first; records fill in where it has none", () => {
    const records = { queueWaitP50Ms: 3, queueWaitJudged: 10, queueWaited: 2, queueWaitSource: "r" };
    expect(
      queueWaitInfo(
        { credit_to_start_latency: { unit: "ms", p50: 1, p90: 2, p99: 5, max: 9, count: 10 } },
        records,
      ),
    ).toEqual({
      queueWaitP50Ms: 1,
      queueWaitP90Ms: 2,
      queueWaitP99Ms: 5,
      queueWaitMaxMs: 9,
      queueWaitCount: 10,
      queueWaitJudged: 10,
      queueWaited: 2,
      queueWaitSource: SUMMARY_QUEUE_WAIT_WORDS,
    });
    // credit_drop_latency (the worker's part of the wait only) yields to the records' full wait.
    expect(queueWaitInfo({ credit_drop_latency: { unit: "ms", p50: 0.5 } }, records)).toBe(records);
    expect(queueWaitInfo({}, {})).toEqual({});
  });
});

/** A DoctorRun of an analyzed aiperf run */
function doctorRun(result: Awaited<ReturnType<typeof analyze>>["result"], concurrency: number): DoctorRun {
  return {
    facts: {
      ...EMPTY_FACTS,
      concurrency: { value: concurrency, source: "aiperf input_config", edited: false },
    },
    requests: result.requests,
    info: result.info,
  };
}

describe("the real aiperf 0.6.0 run (test/fixtures/aiperf-real-c4)", () => {
  const REAL = path.resolve(__dirname, "../fixtures/aiperf-real-c4");
  it("its 200 profiling records: p50 2.81 ms, p90 5.30 ms, p99 51.7 ms, max 71.6 ms; 19 of 198 waited; no saturation", async () => {
    // The 0.6.0 summary has no credit_to_start_latency: the figures are the records'.
    const summary = JSON.parse(fs.readFileSync(path.join(REAL, "profile_export_aiperf.json"), "utf8"));
    expect(summary.credit_to_start_latency).toBeUndefined();
    const { result, handle } = await analyze([
      diskFile(path.join(REAL, "profile_export.jsonl"), "profile_export.jsonl", 0),
      diskFile(path.join(REAL, "profile_export_aiperf.json"), "profile_export_aiperf.json", 1),
    ]);
    await handle.close();
    const info = result.info!;
    expect(info.queueWaitSource).toBe(RECORDS_QUEUE_WAIT_SOURCE);
    expect(info.queueWaitCount).toBe(200);
    // Float64 stamps as aiperf subtracts them: multiples of 256 ns at this epoch.
    expect(info.queueWaitP50Ms).toBe(2.81408);
    expect(info.queueWaitP90Ms).toBeCloseTo(5.2992, 9);
    expect(info.queueWaitP99Ms).toBeCloseTo(51.6738304, 9);
    expect(info.queueWaitMaxMs).toBe(71.592704);
    // The two HTTP 500s have no TTFT: 198 judged, 19 of them waited ≥ 10% of their own TTFT.
    expect(info.queueWaitJudged).toBe(198);
    expect(info.queueWaited).toBe(19);
    expect(info.queueWaitMissing).toBeUndefined();
    // p50 2.81 ms against a TTFT p50 of 58 ms, p90 5.30 against 76: a load generator that kept up.
    const run = doctorRun(result, 4);
    const s = saturationOf(run);
    expect(s.saturated).toBe(false);
    // It also held 3.94 of its 4 requested (test/unit/held-concurrency-records.test.ts).
    expect(s.text).toBe(
      "concurrency 3.94 of 4 requested; queue wait p50 2.81 ms, p90 5.30 ms against TTFT p50 58.2 ms, p90 76.3 ms; p99 51.7 ms, max 71.6 ms; 19 of 198 requests (9.6%) waited ≥ 10% of their own TTFT",
    );
    expect(diagnose(run, run).reasons).toEqual([]);
  });

  it("against a run whose records show a saturated load generator: a saturation caveat, both sides' numbers and the field", async () => {
    // The same schema, every wait 40 ms against a 50 ms TTFT.
    const file = path.join(tmp, "saturated.jsonl");
    fs.writeFileSync(
      file,
      Array.from({ length: 30 }, (_, i) => line({ i, waitNs: 40_000_000n, ttftMs: 50, latencyMs: 500 })).join(
        "\n",
      ) + "\n",
    );
    const real = await analyze([diskFile(path.join(REAL, "profile_export.jsonl"))]);
    const saturated = await analyze([diskFile(file, "profile_export.jsonl")]);
    await real.handle.close();
    await saturated.handle.close();
    const reasons = diagnose(doctorRun(real.result, 4), doctorRun(saturated.result, 4)).reasons;
    const r = reasons.find((x) => x.name === "saturation")!;
    expect([r.name, r.severity]).toEqual(["saturation", "caveat"]);
    expect(r.a).toMatch(
      /^concurrency 3\.94 of 4 requested; queue wait p50 2\.81 ms, p90 5\.30 ms against TTFT p50 58\.2 ms/,
    );
    // One request a second, each 500 ms: it held about half a request of the 4 asked for, too.
    expect(r.b).toBe(
      "concurrency 0.51 of 4 requested; queue wait p50 40.0 ms, p90 40.0 ms against TTFT p50 50.0 ms, p90 50.0 ms; p99 40.0 ms, max 40.0 ms; 30 of 30 requests (100.0%) waited ≥ 10% of their own TTFT",
    );
    expect(r.evidence).toContain(
      `client-side queueing (${RECORDS_QUEUE_WAIT_SOURCE}, 30 requests) at p50 is at least 10% of the TTFT; 30 of 30 requests waited that long against their own: requests waited in the load generator before they were sent; the load generator (or the server's admission) did not hold the load, so the run measured a lighter one than it asked for`,
    );
  });
});

describeRealPublic("aiperf-0.8.0-sglang-glm5.1-agentic-conc16", () => {
  const folder = "aiperf-0.8.0-sglang-glm5.1-agentic-conc16";
  it("the records alone reproduce aiperf's own credit_to_start_latency exactly", async () => {
    const s = parseSummaryJson(realPublicJson(folder, "profile_export_aiperf.json"))!;
    const own = s.metrics.credit_to_start_latency!;
    const { result, handle } = await analyze([diskFile(realPublicFile(folder, "profile_export.jsonl"))]);
    await handle.close();
    expect(result.info).toMatchObject({
      queueWaitP50Ms: own.p50,
      queueWaitP90Ms: own.p90,
      queueWaitP99Ms: own.p99,
      queueWaitMaxMs: own.max,
      queueWaitCount: own.count,
      queueWaitSource: RECORDS_QUEUE_WAIT_SOURCE,
      queueWaitJudged: 87,
      queueWaited: 0,
    });
    expect(own).toMatchObject({ p50: 1.852928, max: 92.93056, count: 87 });
  });
});

describeRealPublic("aiperf-0.1.1-gptoss20b-cancellations", () => {
  it("records without credit_issued_ns: queue wait not measured, never 0", async () => {
    const folder = "aiperf-0.1.1-gptoss20b-cancellations";
    const { result, handle } = await analyze([diskFile(realPublicFile(folder, "profile_export.jsonl"))]);
    await handle.close();
    expect(result.info?.queueWaitP50Ms).toBeUndefined();
    expect(result.info?.queueWaitMissing).toBe(100);
    const s = saturationOf(doctorRun(result, 10));
    expect(s).toEqual({
      saturated: false,
      text: "concurrency not measured (100 profiling records without request_start_ns and request_end_ns); queue wait not measured (100 profiling records without credit_issued_ns)",
      evidence: [],
    });
  });
});
