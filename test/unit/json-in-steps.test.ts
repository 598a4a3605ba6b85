/**
 * JSON written in steps (lib/metrics/json-in-steps.ts) is JSON.stringify's text byte for byte:
 * long arrays at any depth, of numbers, strings, nulls, holes and objects, beside short ones.
 */
import { describe, expect, it, vi } from "vitest";
import { parseJsonInSteps, stringifyInSteps } from "@/lib/metrics/json-in-steps";
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

/**
 * JSON parsed in steps (issue 31): the value JSON.parse gives, while no JSON.parse call of its
 * own reads much more than a piece of the text; a long text takes one step per piece or so.
 */
describe("parseJsonInSteps", () => {
  const steps = <T>(g: Generator<void, T, void>) => {
    let n = 0;
    for (;;) {
      const r = g.next();
      if (r.done) return { value: r.value, steps: n };
      n++;
    }
  };
  const numbers = Array.from({ length: 30_001 }, (_, i) => (i % 7 === 0 ? -i / 3 : i * 1e-7));
  const texts: Array<[string, string]> = [
    [
      "a timeline-like window",
      JSON.stringify({ bars: { id: numbers, lane: numbers.map(Math.round) }, parts: { seg: numbers } }),
    ],
    [
      "requests with their spans",
      JSON.stringify({
        withoutId: [{ file: "a", requests: 3 }],
        requests: Array.from({ length: 3000 }, (_, i) => ({
          traceId: `t"${i}\\`,
          xRequestId: i % 5 ? `req-${i}` : null,
          spans: Array.from({ length: 4 }, (_, j) => ({
            name: `s{${j}]`,
            startMs: i + j / 10,
            parent: j ? 0 : null,
          })),
        })),
      }),
    ],
    [
      "a long array alone, with white space",
      JSON.stringify(
        numbers.map((n) => [n, { n }]),
        null,
        2,
      ),
    ],
    ["a long string", JSON.stringify({ s: 'x\\"\\\\'.repeat(100_000), t: ["\u2028", "é"] })],
    [
      "__proto__ and repeated keys",
      `{"__proto__": {"a": 1}, "k": ${JSON.stringify(numbers)}, "k": [1], "z": true}`,
    ],
    ["short", `{"a": [1, 2, {"b": null}]}`],
  ];

  it.each(texts)("gives JSON.parse's value: %s", (_name, text) => {
    const piece = 4096;
    const spy = vi.spyOn(JSON, "parse");
    let longest = 0;
    try {
      const r = steps(parseJsonInSteps(text, piece));
      for (const [arg] of spy.mock.calls) longest = Math.max(longest, String(arg).length);
      spy.mockRestore();
      expect(r.value).toStrictEqual(JSON.parse(text));
      // One long string is one value: JSON.parse reads it whole, in one step.
      if (text.length > piece && !_name.includes("string")) {
        expect(r.steps).toBeGreaterThanOrEqual(Math.floor(text.length / piece / 2));
        expect(longest).toBeLessThanOrEqual(2 * piece + 2);
      }
    } finally {
      spy.mockRestore();
    }
  });

  it("keeps JSON.parse's own __proto__ key", () => {
    const v = atOnce(
      parseJsonInSteps(`{"__proto__": {"polluted": 1}, "a": ${JSON.stringify(numbers)}}`, 4096),
    );
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v as object)).toEqual(["__proto__", "a"]);
  });

  it("throws a SyntaxError where JSON.parse does", () => {
    const long = JSON.stringify({ a: numbers, b: numbers.map(String) });
    const bad = [
      long.slice(0, -1),
      `${long} x`,
      long.replace('"b":', '"b"'),
      long.replace(",", ",,"),
      long.replace("]", "}"),
      `[${JSON.stringify(numbers).slice(1, -1)} 1]`,
      `{"a": ${JSON.stringify(numbers)}, }`,
      `{a: ${JSON.stringify(numbers)}}`,
    ];
    for (const text of bad) {
      expect(() => JSON.parse(text)).toThrow(SyntaxError);
      expect(() => atOnce(parseJsonInSteps(text, 4096)), text.slice(0, 40)).toThrow(SyntaxError);
    }
  });
});
