/**
 * Goodput under SLOs (docs/metrics.md §Goodput) against a hand-computed case, and the `slo` URL
 * parameter's encoding.
 */
import { describe, expect, it } from "vitest";
import { formatSlos, parseSlos } from "@/lib/api/slo";
import { computeGoodput, type GoodputRow } from "@/lib/metrics/goodput";

const row = (
  ok: boolean,
  ttftMs: number | null,
  tpotMs: number | null,
  e2eMs: number | null,
  outputTokens: number | null,
): GoodputRow => ({ ok, ttftMs, tpotMs, e2eMs, outputTokens });

// Six requests over 10 s, SLOs TTFT ≤ 200 ms and TPOT ≤ 20 ms per request.
const ROWS = [
  row(true, 100, 10, 1000, 50), // meets both
  row(true, 300, 10, 2000, 60), // TTFT too slow
  row(true, null, 15, 1500, 40), // no TTFT recorded: misses the TTFT SLO
  row(true, 150, 25, 1200, 70), // TPOT too slow
  row(false, null, null, null, null), // failed: meets nothing
  row(true, 180, 20, 900, 30), // meets both (thresholds are inclusive)
];
const PER_REQUEST = parseSlos("ttft:req:200,tpot:req:20")!;

describe("goodput", () => {
  it("counts the requests meeting every per-request SLO; a request without TTFT misses a TTFT SLO", () => {
    const g = computeGoodput(ROWS, PER_REQUEST, 10);
    expect(g.requests).toBe(6);
    expect(g.meeting).toBe(2);
    expect(g.share).toBeCloseTo(2 / 6, 15);
    expect(g.goodputReqPerS).toEqual({ value: 0.2, reason: null });
    // (50 + 30) good output tokens over 10 s.
    expect(g.goodputTokPerS).toEqual({ value: 8, reason: null });
    expect(g.checks.map((c) => [c.slo.metric, c.missed, c.met])).toEqual([
      ["ttft", 3, false],
      ["tpot", 2, false],
    ]);
  });

  it("gates the run on a percentile SLO over successful requests", () => {
    // Successful E2E sorted: 900, 1000, 1200, 1500, 2000. p90: rank 3.6 → 1500 + 0.6 × 500 = 1800.
    const failing = computeGoodput(ROWS, [...PER_REQUEST, ...parseSlos("e2e:p90:1500")!], 10);
    expect(failing.checks[2]).toMatchObject({ observedMs: 1800, met: false });
    expect(failing.meeting).toBe(0);
    expect(failing.goodputReqPerS.value).toBe(0);
    // p50 = 1200 ≤ 1500: the per-request SLOs decide.
    const passing = computeGoodput(ROWS, [...PER_REQUEST, ...parseSlos("e2e:p50:1500")!], 10);
    expect(passing.checks[2]).toMatchObject({ observedMs: 1200, met: true });
    expect(passing.meeting).toBe(2);
  });

  it("says what is missing instead of a zero", () => {
    expect(computeGoodput([], PER_REQUEST, 10).goodputReqPerS).toEqual({
      value: null,
      reason: "no per-request rows",
    });
    expect(computeGoodput(ROWS, PER_REQUEST, null).goodputReqPerS.value).toBeNull();
    const noTokens = computeGoodput([row(true, 1, 1, 1, null)], PER_REQUEST, 1);
    expect(noTokens.goodputReqPerS.value).toBe(1);
    expect(noTokens.goodputTokPerS.value).toBeNull();
  });

  it("reads and writes the slo parameter", () => {
    expect(parseSlos("ttft:p99:200,itl:req:20,e2e:p90:5000")).toEqual([
      { metric: "ttft", mode: "p99", thresholdMs: 200 },
      { metric: "tpot", mode: "req", thresholdMs: 20 },
      { metric: "e2e", mode: "p90", thresholdMs: 5000 },
    ]);
    expect(formatSlos(parseSlos("ttft:p99:200,tpot:req:20")!)).toBe("ttft:p99:200,tpot:req:20");
    expect(parseSlos("")).toEqual([]);
    for (const bad of [
      "ttft:p98:200",
      "ttft:req:-1",
      "ttft:req",
      "x:req:1",
      "ttft:req:1,ttft:p99:2",
      "ttft:req:1:2",
    ])
      expect(parseSlos(bad), bad).toBeNull();
  });
});
