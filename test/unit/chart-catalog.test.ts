/**
 * One definition per chart (lib/api/chart-catalog.ts): every stored chart's key string lives in
 * the catalog alone, and a chart built from the catalog alone is fetched, cached and read by its
 * object (docs/architecture.md §A new chart).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  ALL_CHARTS,
  AIPERF_CHARTS,
  chartByKey,
  defineChart,
  SM_SERIES,
  type ChartPayload,
  upgradeStoredPayload,
} from "@/lib/api/chart-catalog";
import { KINDS } from "@/lib/api/kinds";
import { runChartQueryOptions } from "@/lib/api/query-options";
import { RUN_VIEWS } from "@/lib/api/run-views";
import { payloadsFrom } from "@/lib/runs/report/figure-kit";

const ROOT = path.resolve(__dirname, "../..");
const CATALOG = path.join("lib", "api", "chart-catalog.ts");

/** The key as a whole string literal, or as the head of a template ("aiperf-gpu-${…}"). */
const literal = (key: string) => new RegExp(`["'\`]${key}(["'\`]|\\$\\{)`);

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = path.join(dir, name);
    if (statSync(path.join(ROOT, rel)).isDirectory()) return sourceFiles(rel);
    return /\.(ts|tsx|mts|mjs|js)$/.test(name) ? [rel] : [];
  });
}

describe("chart catalog", () => {
  it("holds every chart key once, well formed", () => {
    const keys = ALL_CHARTS.map((c) => c.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const c of ALL_CHARTS) expect(chartByKey(c.key)).toBe(c);
    expect(chartByKey("sm-series-ep-3")?.schema).toBe(SM_SERIES.all().schema);
    expect(chartByKey("no-such-chart")).toBeUndefined();
    // Every view's first chart is a catalog chart, so the prefetch and the hook agree on it.
    for (const v of RUN_VIEWS)
      if (v.firstChart && typeof v.firstChart !== "function")
        expect(chartByKey(v.firstChart.key)).toBe(v.firstChart);
  });

  it("no chart key string appears in the source outside the catalog", () => {
    // A file kind may share a chart's name ("router-log" is both an upload's kind and its chart):
    // that vocabulary is lib/api/kinds.ts's, so those keys are looked for only where a chart is read.
    const kinds = new Set<string>(KINDS);
    const patterns = [
      ...ALL_CHARTS.map((c) => ({ key: c.key, re: literal(c.key), onlyCharts: kinds.has(c.key) })),
      // The series family's prefix, whole or at the head of any string ("sm-series-ep-${i}").
      { key: SM_SERIES.prefix, re: new RegExp(`["'\`]${SM_SERIES.prefix}`), onlyCharts: false },
    ];
    const chartUse = /useRunChart|runChartQueryOptions|getChartData|charts\[|chartPayloads|\.get\(/;
    const offenders: string[] = [];
    for (const file of ["lib", "components", "app", "bin"].flatMap(sourceFiles)) {
      if (file === CATALOG) continue;
      // A test id names an element for the browser tests, not a payload.
      const text = readFileSync(path.join(ROOT, file), "utf8").replace(
        /(data-testid|testId)=\{?"[^"]*"/g,
        "",
      );
      for (const { key, re, onlyCharts } of patterns)
        for (const line of text.split("\n"))
          if (re.test(line) && (!onlyCharts || chartUse.test(line))) offenders.push(`${file}: ${key}`);
    }
    expect(offenders).toEqual([]);
  });

  it("refuses a malformed key or version", () => {
    const schema = z.object({});
    expect(() => defineChart({ key: "Toy Chart", schema, version: 1, title: "t" })).toThrow(/lower-case/);
    expect(() => defineChart({ key: "toy", schema, version: 0, title: "t" })).toThrow(/version/);
    // A version past the first reads the payloads stored before it: it says how.
    expect(() => defineChart({ key: "toy", schema, version: 2, title: "t" })).toThrow(/needs an upgrade/);
  });

  describe("a toy chart built from the catalog alone", () => {
    const toy = defineChart({
      key: "toy-latency",
      schema: z.object({ p50Ms: z.number().nullable(), points: z.array(z.tuple([z.number(), z.number()])) }),
      version: 2,
      title: "Toy latency",
      // Version 1 kept the p50 in seconds; one stored without it cannot be given it.
      upgrade: (old) =>
        typeof old.p50S === "number" || old.p50S === null
          ? { payload: { p50Ms: old.p50S === null ? null : old.p50S * 1000, points: old.points } }
          : { recompute: "stored without its p50" },
    });
    afterEach(() => vi.unstubAllGlobals());

    it("is fetched from the chart route and parsed with its schema, cached under key and version", async () => {
      const payload: ChartPayload<typeof toy> = { p50Ms: 12.5, points: [[0, 10]] };
      const fetch = vi.fn(async () => Response.json(payload));
      vi.stubGlobal("fetch", fetch);
      const options = runChartQueryOptions("run 1", toy, "v9");
      expect(options.queryKey).toEqual(["run", "run 1", "chart", "toy-latency", 2, "v9"]);
      const data = await options.queryFn!({} as never);
      expect(data).toEqual(payload);
      expect(String((fetch.mock.calls[0] as unknown[])[0])).toBe("/api/runs/run%201/charts/toy-latency?v=v9");
    });

    it("refuses a payload of another shape", async () => {
      vi.stubGlobal("fetch", async () => Response.json({ p50Ms: "fast" }));
      await expect(runChartQueryOptions("r", toy).queryFn!({} as never)).rejects.toThrow();
    });

    it("reads a payload stored at an older version through its upgrade, the current one as it is", () => {
      const current = { p50Ms: 12.5, points: [[0, 10]] };
      expect(upgradeStoredPayload(toy, current, 2)).toEqual({ payload: current });
      expect(upgradeStoredPayload(toy, { p50S: 0.0125, points: [[0, 10]] }, 1)).toEqual({ payload: current });
      expect(upgradeStoredPayload(toy, { points: [] }, 1)).toEqual({ recompute: "stored without its p50" });
      // An upgrade that does not give the current shape is the server's fault, never served.
      expect(() => upgradeStoredPayload(toy, { p50S: 1, points: "none" }, 1)).toThrow(/not its shape/);
    });

    it("is read by the offline report with the same object, absent or misshapen as null", () => {
      const stored = new Map([
        [toy.key, JSON.stringify({ p50Ms: null, points: [] })],
        [AIPERF_CHARTS.errors.key, JSON.stringify({ nonsense: true })],
      ]);
      const p = payloadsFrom(stored);
      expect(p.get(toy)).toEqual({ p50Ms: null, points: [] });
      expect(p.get(AIPERF_CHARTS.errors)).toBeNull();
      expect(p.get(AIPERF_CHARTS.gpu)).toBeNull();
    });
  });
});
