/**
 * Issue 31, "No read blocks the server": the first `Intl.NumberFormat` of a process loads ICU's
 * number data (435 ms at load 35–47, on a trace export's first request). The formatters of
 * lib/format-number.ts are made once per options, and `warmIntl` (called when the server starts,
 * instrumentation.ts) makes the ones a request's first count needs, so no request makes one.
 * Counted, not timed: the constructor is spied on.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { formatCount, formatNumber, warmIntl } from "@/lib/format-number";

afterEach(() => vi.restoreAllMocks());

/** Spies on an Intl constructor, each call still making a real one. */
function counted<K extends "NumberFormat" | "Collator">(name: K) {
  const Real = Intl[name] as unknown as new (...a: unknown[]) => object;
  return vi.spyOn(Intl, name).mockImplementation(function (...a: unknown[]) {
    return new Real(...a);
  } as never);
}

describe("number formatters", () => {
  it("are made at most once per options, however many numbers are formatted", async () => {
    // A fresh copy of the module, its formatters not made yet: the unit files share a worker, and
    // one before this file may have formatted numbers already.
    vi.resetModules();
    const { formatCount, formatFixed, formatMs, formatNumber } = await import("@/lib/format-number");
    const made = counted("NumberFormat");
    for (let i = 0; i < 5000; i++) {
      formatCount(i * 7919);
      formatNumber(i / 3, 2);
      formatFixed(i / 7, 3);
      formatMs(i * 1.5);
    }
    const once = made.mock.calls.length;
    // count, 2 decimals, 3 significant digits (never reached here: no value below 0.01 but 0),
    // 3 fixed decimals, and formatMs' fraction digits (1, 2, 3: 2 is formatNumber's).
    expect(once).toBeGreaterThan(0);
    expect(once).toBeLessThanOrEqual(6);
    const keys = new Set(made.mock.calls.map((c) => JSON.stringify(c)));
    expect(keys.size).toBe(once);
    for (let i = 0; i < 5000; i++) {
      formatCount(i);
      formatNumber(i / 3, 2);
      formatFixed(i / 7, 3);
      formatMs(i * 1.5);
    }
    expect(made.mock.calls.length).toBe(once);
    // Each formats as toLocaleString does.
    expect(formatCount(1234567)).toBe((1234567).toLocaleString("en-US"));
    expect(formatNumber(1234.5678, 2)).toBe(
      (1234.5678).toLocaleString("en-US", { maximumFractionDigits: 2 }),
    );
  });

  it("a count after warmIntl makes no formatter: the server's start made it", () => {
    warmIntl();
    const made = counted("NumberFormat");
    const collators = counted("Collator");
    expect(formatCount(200_000)).toBe("200,000");
    expect(formatNumber(12.345, 2)).toBe("12.35");
    expect(made).not.toHaveBeenCalled();
    expect(collators).not.toHaveBeenCalled();
  });
});
