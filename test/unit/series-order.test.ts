/**
 * A series' order key (docs/metrics.md §Regressions): numbers, semantic versions (semver.org
 * §11 precedence) and ISO dates, and the order a series' runs take from them.
 */
import { describe, expect, it } from "vitest";
import { compareOrderKeys, orderSchema, parseOrderKey, sortSeriesRuns } from "@/lib/api/series-order";

const sorted = (texts: string[]) =>
  [...texts].sort((a, b) => compareOrderKeys(parseOrderKey(a)!, parseOrderKey(b)!));

describe("series order keys", () => {
  it("reads numbers, versions and dates, and refuses anything else", () => {
    expect(parseOrderKey("1234")).toEqual({ kind: "number", value: 1234 });
    expect(parseOrderKey("12.5")).toEqual({ kind: "number", value: 12.5 });
    expect(parseOrderKey("v1.2.3")?.version).toEqual({ core: [1, 2, 3], pre: [] });
    expect(parseOrderKey("1.2.3-rc.1+build.7")?.version).toEqual({ core: [1, 2, 3], pre: ["rc", 1] });
    expect(parseOrderKey("2026-12-01")).toEqual({ kind: "date", value: Date.UTC(2026, 11, 1) });
    expect(parseOrderKey("2026-12-01T03:00:00+01:00")).toEqual({
      kind: "date",
      value: Date.UTC(2026, 11, 1, 2),
    });
    for (const bad of ["abc1234", "1.2.x", "01.2.3", "2026-02-30", "2026-12-01T03:00", "v1", ""])
      expect(parseOrderKey(bad), bad).toBeNull();
    // "1.2" is a number, not a two-part version.
    expect(orderSchema.safeParse("1.2").success).toBe(true);
    expect(orderSchema.safeParse("nightly").error?.issues[0].message).toMatch(
      /a number .* a version .* ISO date/,
    );
  });

  it("orders numbers numerically, not as text", () => {
    expect(sorted(["10", "9", "100", "-1"])).toEqual(["-1", "9", "10", "100"]);
  });

  it("orders versions by semantic-versioning precedence", () => {
    // semver.org §11's own example chain, shuffled.
    const chain = [
      "1.0.0-alpha",
      "1.0.0-alpha.1",
      "1.0.0-alpha.beta",
      "1.0.0-beta",
      "1.0.0-beta.2",
      "1.0.0-beta.11",
      "1.0.0-rc.1",
      "1.0.0",
    ];
    expect(sorted([...chain].reverse())).toEqual(chain);
    expect(sorted(["v0.10.0", "v0.9.1", "v0.9.0"])).toEqual(["v0.9.0", "v0.9.1", "v0.10.0"]);
  });

  it("orders a series by its keys, runs without one by upload time among dates, ties by upload time", () => {
    const day = (d: number) => Date.UTC(2026, 11, d);
    const runs = [
      { id: "a", order: "2026-12-03", createdAt: day(9) },
      { id: "b", order: null, createdAt: day(2) + 3_600_000 },
      { id: "c", order: "2026-12-01", createdAt: day(10) },
      { id: "d", order: "2026-12-03", createdAt: day(4) },
      { id: "e", order: "7", createdAt: day(11) },
    ];
    // Numbers first (a series should use one kind), then dates with the unkeyed run among them.
    expect(sortSeriesRuns(runs, (r) => r).map((r) => r.id)).toEqual(["e", "c", "b", "d", "a"]);
  });
});
