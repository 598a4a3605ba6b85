/**
 * One choice of whose aggregates describe an aiperf run (docs/metrics.md §Records or summary),
 * asked by the run's derived throughput and by its sweep points alike.
 */
import { describe, expect, it } from "vitest";
import { recordsOrSummary } from "@/lib/metrics/records-or-summary";

describe("records or summary", () => {
  it("takes the records when they hold every request the summary counts, or there is no summary", () => {
    expect(recordsOrSummary(200, 200, true)).toEqual({ from: "records", note: null });
    expect(recordsOrSummary(200, undefined, true)).toEqual({ from: "records", note: null });
    expect(recordsOrSummary(200, 64, false)).toEqual({ from: "records", note: null });
  });

  it("takes the summary, and says why, when the records are a sample or absent", () => {
    expect(recordsOrSummary(10, 64, true)).toEqual({
      from: "summary",
      note: "the records hold 10 of the 64 requests aiperf's summary counts: these aggregates are the summary's",
    });
    expect(recordsOrSummary(1200, 12000, true)?.note).toMatch(/1,200 of the 12,000/);
    expect(recordsOrSummary(null, 64, true)).toMatchObject({
      from: "summary",
      note: expect.stringMatching(/no per-request records/),
    });
    expect(recordsOrSummary(null, undefined, false)).toBeNull();
  });
});
