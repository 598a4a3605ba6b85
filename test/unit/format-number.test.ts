/** Numbers for people: never scientific notation (docs/style.md, "What a chart owes its reader"). */
import { describe, expect, it } from "vitest";
import { formatNumber } from "@/lib/format-number";

describe("formatNumber", () => {
  it("writes small numbers with three significant digits, not 1.5e-3", () => {
    expect(formatNumber(0.0015)).toBe("0.0015");
    expect(formatNumber(0.000123456)).toBe("0.000123");
    expect(formatNumber(-0.00042)).toBe("-0.00042");
  });

  it("writes large numbers with thousands separators, not 1.23e+7", () => {
    expect(formatNumber(12_345_678.9)).toBe("12,345,678.9");
    expect(formatNumber(10_485_760_000)).toBe("10,485,760,000");
  });

  it("keeps the digits asked for, 0 as 0, and a dash for not recorded", () => {
    expect(formatNumber(2.345)).toBe("2.35");
    expect(formatNumber(2.345, 1)).toBe("2.3");
    expect(formatNumber(0)).toBe("0");
    expect(formatNumber(null)).toBe("—");
    expect(formatNumber(Number.NaN)).toBe("—");
  });
});
