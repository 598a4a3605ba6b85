/**
 * The bench's agentic run and its readiness columns: the run has exactly the requested number of
 * requests in conversations of 1–20 turns, and "summary ready" / "drill-down ready" come from the
 * run GET's instants when it sends them, polled while drill-down is pending, and are null (printed
 * "—") when it does not.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
// @ts-expect-error: a plain ES module of the bench, without types
import { agenticTurns, DEFAULT_KINDS } from "../bench/inputs.mjs";
// @ts-expect-error: a plain ES module of the bench, without types
import { readyTimes } from "../bench/measure.mjs";

describe("the agentic run", () => {
  it.each([300_000, 20_000, 600_000, 401, 7])(
    "has exactly %i requests in conversations of 1–20 turns",
    (n) => {
      const turns: number[] = agenticTurns(n);
      expect(turns.reduce((a, b) => a + b, 0)).toBe(n);
      expect(Math.min(...turns)).toBeGreaterThanOrEqual(1);
      expect(Math.max(...turns)).toBeLessThanOrEqual(20);
    },
  );

  it("uses every length of 1–20 turns about equally often", () => {
    const turns: number[] = agenticTurns(300_000);
    const counts = new Map<number, number>();
    for (const t of turns) counts.set(t, (counts.get(t) ?? 0) + 1);
    expect([...counts.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const ones = counts.get(1)!;
    for (let t = 2; t < 20; t++) expect(Math.abs(counts.get(t)! - ones)).toBeLessThanOrEqual(1);
  });

  it("is measured only when asked for", () => {
    expect(DEFAULT_KINDS).not.toContain("agentic");
  });
});

describe("readiness seconds", () => {
  afterEach(() => vi.unstubAllGlobals());
  const answer = (bodies: object[]) => {
    let i = 0;
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => new Response(JSON.stringify(bodies[Math.min(i++, bodies.length - 1)]))),
    );
  };

  it("are null when the run GET does not say them", async () => {
    answer([{ id: "r" }]);
    expect(await readyTimes("http://x", "r", 1_000)).toEqual({
      summaryReadySeconds: null,
      drilldownReadySeconds: null,
    });
  });

  it("count from the upload's start, and wait for a pending drill-down", async () => {
    answer([
      { summaryReadyAt: 3_500, drilldownReadyAt: null },
      { summaryReadyAt: 3_500, drilldownReadyAt: null },
      { summaryReadyAt: new Date(3_500).toISOString(), drilldownReadyAt: 9_000 },
    ]);
    expect(await readyTimes("http://x", "r", 1_000, { everyMs: 1 })).toEqual({
      summaryReadySeconds: 2.5,
      drilldownReadySeconds: 8,
    });
  });
});
