/** Two TensorRT-LLM runs compare on their server TTFT, E2E and TPOT; an aiperf run's TTFT stays its own row. */
import { describe, expect, it } from "vitest";
import type { TimeBreakdownBlock } from "@/lib/api/schemas";
import { compareRuns } from "@/lib/metrics/compare";
import { stats, summary, timeBreakdown } from "./compare-helpers";

const breakdown = (ttft: number, e2e: number, tpot: number | null): TimeBreakdownBlock =>
  timeBreakdown("disaggregated", 10, {
    ttftMs: stats(ttft),
    e2eMs: stats(e2e),
    tpotMs: tpot === null ? null : stats(tpot),
    tokPerUser: null,
    tokensKnown: tpot === null ? 0 : 10,
    tokensFromIterations: 0,
    oneResponse: 0,
  });

describe("compare rows from TensorRT-LLM latency", () => {
  it("gives two TensorRT-LLM runs server TTFT, E2E and TPOT rows with deltas at the chosen statistic", () => {
    const a = summary("a", { timeBreakdown: breakdown(100, 1000, 9) });
    const b = summary("b", { timeBreakdown: breakdown(150, 900, null) });
    const rows = compareRuns([a, b], "a", "p99");
    const row = (key: string) => rows.find((r) => r.key === key)!;
    expect(row("trtllmTtft").label).toBe("Server TTFT p99");
    // stats(p50) puts p99 at 2 × p50.
    expect(row("trtllmTtft").cells.map((c) => c.value)).toEqual([200, 300]);
    expect(row("trtllmTtft").cells[1]).toMatchObject({ absolute: 100, percent: 0.5, verdict: "worse" });
    expect(row("trtllmE2e").cells[1]).toMatchObject({ absolute: -200, verdict: "better" });
    // Run b has no TPOT: missing, not 0, and no delta.
    expect(row("trtllmTpot").cells.map((c) => c.value)).toEqual([18, null]);
    expect(row("trtllmTpot").cells[1].verdict).not.toBe("better");
    // No aiperf records in either run: the client TTFT row is not there.
    expect(rows.find((r) => r.key === "ttft")).toBeUndefined();
  });
});
