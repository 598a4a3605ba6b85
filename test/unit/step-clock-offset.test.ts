import { describe, expect, it } from "vitest";
import { clockOffset } from "@/components/breakdown/step-stats-table";

describe("step clock offsets", () => {
  it("read in the unit that fits: seconds, minutes, hours or days", () => {
    expect(clockOffset(0.0123)).toBe("0.012 s");
    expect(clockOffset(-42.5)).toBe("-42.5 s");
    expect(clockOffset(150)).toBe("2.5 min");
    expect(clockOffset(7200)).toBe("2 h");
    // A worker clock 294,065.965 s from the request stamps, as one example run has.
    expect(clockOffset(294_065.965)).toBe("3.4 days");
  });
});
