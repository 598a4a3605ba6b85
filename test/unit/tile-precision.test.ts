/**
 * Figures said together in one Overview tile use one precision rule (issue 29): a p50 / p99 pair
 * in one unit and one number of decimals ("3,720.0 ms / 3,940.6 ms", was "3,720 ms / 3,940.6 ms"
 * where the p50 happened to end in 0), KV usage avg / max at one number of decimals.
 */
import { describe, expect, it } from "vitest";
import { formatMsAlike, formatRatesAlike, NOT_RECORDED } from "@/lib/format-number";
import { pair } from "@/components/run-views/overview-request-tiles";

/** The decimals each figure of "a / b" is written with. */
const decimals = (text: string) => text.split(" / ").map((x) => /\.(\d+)/.exec(x)?.[1].length ?? 0);

describe("one tile, one precision", () => {
  it("writes a p50 / p99 pair in one unit at one number of decimals", () => {
    expect(pair(3720, 3940.6)).toBe("3,720.0 ms / 3,940.6 ms");
    expect(pair(6478.6, 18_630)).toBe("6.48 s / 18.63 s");
    expect(pair(1.5, 9.876)).toBe("1.500 ms / 9.876 ms");
    expect(pair(12_000, 15_000)).toBe("12.00 s / 15.00 s");
    for (const [a, b] of [
      [3720, 3940.6],
      [100, 250.25],
      [0.5, 8],
      [9_999, 10_000],
    ])
      expect(new Set(decimals(pair(a, b))).size, pair(a, b)).toBe(1);
  });

  it("says not recorded for a figure it lacks, never 0", () => {
    expect(pair(null, 12.5)).toBe(`${NOT_RECORDED} / 12.5 ms`);
    expect(formatMsAlike([null, undefined])).toEqual([NOT_RECORDED, NOT_RECORDED]);
  });

  it("writes rates side by side at one number of decimals", () => {
    expect(formatRatesAlike([0.45, 0.8034]).join(" / ")).toBe("45.0% / 80.3%");
    expect(formatRatesAlike([null, 0.5])).toEqual(["—", "50.0%"]);
  });
});
