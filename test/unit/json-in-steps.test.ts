/**
 * JSON written in steps (lib/metrics/json-in-steps.ts) is JSON.stringify's text byte for byte:
 * long arrays at any depth, of numbers, strings, nulls, holes and objects, beside short ones.
 */
import { describe, expect, it } from "vitest";
import { stringifyInSteps } from "@/lib/metrics/json-in-steps";
import { atOnce } from "@/lib/metrics/steps";

const count = (steps: Generator<void, string, void>) => {
  let n = 0;
  for (;;) {
    const r = steps.next();
    if (r.done) return { text: r.value, steps: n };
    n++;
  }
};

describe("stringifyInSteps", () => {
  const numbers = Array.from({ length: 10_001 }, (_, i) => (i % 7 === 0 ? -i / 3 : i * 1e-7));
  const cases: Array<[string, unknown]> = [
    ["a short value", { a: 1, b: [1, 2, "x"], c: null, d: undefined }],
    ["a long array alone", numbers],
    [
      "long arrays at several depths",
      {
        bars: { id: numbers, lane: numbers.map((n) => Math.round(n)), note: 'quote " and \\u0000' },
        parts: { seg: numbers.map((_, i) => i % 5), gapMs: [NaN, Infinity, -0, ...numbers] },
        mixed: numbers.map((n, i) => (i % 3 === 0 ? { n, s: `"${i}"` } : i % 3 === 1 ? null : undefined)),
        nested: [numbers, [numbers]],
        empty: [],
      },
    ],
    ["a string that looks like a mark", { s: "\u0000runlens-json-array:0", a: numbers }],
    ["a key that looks like a mark", { "\u0000runlens-json-array:0": 1, a: numbers }],
  ];

  it.each(cases)("%s: the same text as JSON.stringify", (_name, value) => {
    expect(atOnce(stringifyInSteps(value, 1000))).toBe(JSON.stringify(value));
    expect(atOnce(stringifyInSteps(value))).toBe(JSON.stringify(value));
  });

  it("writes a long array a slice a step", () => {
    expect(count(stringifyInSteps({ a: numbers }, 1000)).steps).toBeGreaterThanOrEqual(10);
    expect(count(stringifyInSteps({ a: [1, 2] }, 1000)).steps).toBe(0);
  });
});
