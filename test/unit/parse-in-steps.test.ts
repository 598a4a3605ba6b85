/**
 * The schema check in steps (lib/server/parse-in-steps.ts) passes and fails exactly as one zod
 * parse of the whole value does, naming the same place, and takes its long arrays a slice a step.
 */
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { JSON_PARSE_PIECE } from "@/lib/metrics/json-in-steps";
import { atOnce } from "@/lib/metrics/steps";
import { checkInSteps, parseInSteps } from "@/lib/server/parse-in-steps";

const schema = z.object({
  name: z.string(),
  cols: z.object({ id: z.array(z.number().int()), at: z.array(z.number()) }),
  tags: z.array(z.string()),
});
const N = 20_000;
const good = () => ({
  name: "w",
  cols: { id: Array.from({ length: N }, (_, i) => i), at: Array.from({ length: N }, (_, i) => i / 3) },
  tags: ["a"],
});

/** The issues one parse of the whole value gives, or null when it passes. */
const whole = (s: z.ZodType, v: unknown) => {
  const r = s.safeParse(v);
  return r.success ? null : r.error.issues;
};
const stepped = (s: z.ZodType, v: unknown) => {
  try {
    atOnce(checkInSteps(s, v));
    return null;
  } catch (e) {
    if (e instanceof z.ZodError) return e.issues;
    throw e;
  }
};

describe("checkInSteps", () => {
  it("takes a long array a slice a step and passes what one parse passes", async () => {
    const steps = checkInSteps(schema, good());
    let n = 0;
    while (!steps.next().done) n++;
    // 20,000 ids and 20,000 times, 8,192 a slice: 3 slices each
    expect(n).toBe(6);
    // The output is zod's, the long arrays put back in their places.
    await expect(parseInSteps(schema, JSON.stringify(good()))).resolves.toEqual(schema.parse(good()));
    const extra = { ...good(), more: 1, cols: { ...good().cols, more: 2 } };
    expect(atOnce(checkInSteps(schema, extra))).toEqual(schema.parse(extra));
    const list = z.array(z.number());
    expect(atOnce(checkInSteps(list, good().cols.at))).toEqual(good().cols.at);
  });

  it("parses the text a piece at a time: no JSON.parse of the whole (issue 31)", async () => {
    const n = 100_000;
    const big = {
      ...good(),
      cols: { id: Array.from({ length: n }, (_, i) => i), at: Array.from({ length: n }, (_, i) => i / 3) },
    };
    const text = JSON.stringify(big);
    expect(text.length).toBeGreaterThan(4 * JSON_PARSE_PIECE);
    const parse = vi.spyOn(JSON, "parse");
    try {
      expect(await parseInSteps(schema, text)).toEqual(big);
      const longest = Math.max(...parse.mock.calls.map(([t]) => String(t).length));
      expect(longest).toBeLessThanOrEqual(2 * JSON_PARSE_PIECE + 2);
    } finally {
      parse.mockRestore();
    }
  });

  it("fails where one parse fails, with the same issues", () => {
    const cases: Array<(v: ReturnType<typeof good>) => void> = [
      (v) => (v.cols.id[19_999] = 0.5),
      (v) => (v.cols.at[8_192] = "x" as unknown as number),
      (v) => (v.cols.id[0] = Number.NaN),
      (v) => (v.name = 3 as unknown as string),
      (v) => delete (v.cols as Partial<typeof v.cols>).at,
      (v) => (v.tags = "a" as unknown as string[]),
    ];
    for (const mutate of cases) {
      const v = good();
      mutate(v);
      const want = whole(schema, v);
      expect(want).not.toBeNull();
      expect(stepped(schema, v)).toEqual(want);
    }
  });

  it("checks at once what a rule on the whole array or object reads", () => {
    const short = z.object({ ids: z.array(z.number()).max(10_000) });
    const v = { ids: Array.from({ length: N }, () => 1) };
    expect(stepped(short, v)).toEqual(whole(short, v));
    const refined = z
      .object({ ids: z.array(z.number()) })
      .refine((o) => o.ids.length < 10_000, { message: "too many" });
    expect(stepped(refined, v)).toEqual(whole(refined, v));
  });
});
