/** Numbers for people: never scientific notation (docs/style.md, "What a chart owes its reader"). */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  byteRateUnit,
  bytesIn,
  formatFigure,
  formatFixed,
  formatMs,
  formatNumber,
  ordinal,
  plural,
  properPlurals,
  timeUnitFor,
} from "@/lib/format-number";
import { requestTiles } from "@/components/run-views/overview-request-tiles";
import type { RunSummary } from "@/lib/api/schemas";
import { valueTextAlike } from "@/lib/metrics/bar-labels";
import { segmentStatsFigure } from "@/lib/metrics/figures/segments";
import { figureProps } from "@/components/charts/figure-props";
import { reportFigure } from "@/lib/runs/report/figure-kit";
import { renderPlot } from "@/lib/runs/report/svg-plot";
import { barsStillSvg } from "@/lib/runs/first-figures";

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

describe("formatMs", () => {
  it("a negative duration takes the typographic minus, with the precision of its size", () => {
    expect(formatMs(-0.687)).toBe("−0.687 ms");
    expect(formatMs(-687.349)).toBe("−687.3 ms");
    expect(formatMs(-12_345)).toBe("−12.35 s");
    expect(formatMs(0.687)).toBe("0.687 ms");
    expect(formatMs(12_345)).toBe("12.35 s");
    // A negative that rounds to zero is zero, not "−0 ms".
    expect(formatMs(-0.0001)).toBe("0 ms");
    expect(formatMs(null)).toBe("not recorded");
  });
});

describe("plurals, ordinals and one time unit per table", () => {
  it("a count and its noun, singular for exactly one", () => {
    expect(plural(1, "request")).toBe("1 request");
    expect(plural(0, "request")).toBe("0 requests");
    expect(plural(2000, "transfer")).toBe("2,000 transfers");
    expect(plural(1, "entry", "entries")).toBe("1 entry");
    expect(plural(3, "entry", "entries")).toBe("3 entries");
  });
  it("ordinals, the teens included", () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 1002].map(ordinal)).toEqual([
      "1st",
      "2nd",
      "3rd",
      "4th",
      "11th",
      "12th",
      "13th",
      "21st",
      "22nd",
      "23rd",
      "101st",
      "111th",
      "1,002nd",
    ]);
  });
  it("one unit for a set of durations, chosen by the largest", () => {
    const mixed = timeUnitFor([6726.7, 12_050, 19_160]);
    expect(mixed.unit).toBe("s");
    expect([6726.7, 12_050, 19_160].map(mixed.format)).toEqual(["6.73 s", "12.05 s", "19.16 s"]);
    const small = timeUnitFor([36.2, 115.6, null]);
    expect(small.unit).toBe("ms");
    expect(small.format(1234.56)).toBe("1,234.6 ms");
    expect(small.value(null)).toBe("not recorded");
  });
  it("one precision for a column of durations: decimals chosen for the set, not per value", () => {
    // The Breakdown view's stack table at p50: 0.8 ms beside 2 ms and 15.25 ms.
    const column = timeUnitFor([0.8, 2, 15.25, null]);
    expect([0.8, 2, 15.25].map(column.format)).toEqual(["0.8 ms", "2.0 ms", "15.3 ms"]);
    const fine = timeUnitFor([0.25, 2, 4.5]);
    expect([0.25, 2, 4.5].map(fine.value)).toEqual(["0.250", "2.000", "4.500"]);
    const seconds = timeUnitFor([1000, 12_000]);
    expect([1000, 12_000].map(seconds.format)).toEqual(["1.00 s", "12.00 s"]);
  });
});

describe("properPlurals", () => {
  it("writes 'n thing(s)' as English, for the warnings stored before every writer counted", () => {
    for (const [stored, shown] of [
      ["1 request(s) had an end before the start", "1 request had an end before the start"],
      [
        "3 aggregated worker record(s) in a disaggregated run",
        "3 aggregated worker records in a disaggregated run",
      ],
      [
        "GPU telemetry reports 1 GPU(s) through more than one exporter",
        "GPU telemetry reports 1 GPU through more than one exporter",
      ],
      ["Σ max_total_num_tokens over 2 DP rank(s)", "Σ max_total_num_tokens over 2 DP ranks"],
      ["1,200 file(s) outside the run folders", "1,200 files outside the run folders"],
      ["prefill and decode phase(s) without a server", "prefill and decode phases without a server"],
      ["nothing to change", "nothing to change"],
    ])
      expect(properPlurals(stored)).toBe(shown);
  });
});

describe("byteRateUnit", () => {
  it("one unit for an axis of byte rates, the largest in which its largest value is at least 1", () => {
    // Compare › Offload bandwidth: 5 MB/s beside 9.5 GB/s is read in GB/s; 5 MB/s alone in MB/s.
    expect(byteRateUnit(9.5e9)).toEqual({ unit: "GB/s", divisor: 1e9 });
    expect(byteRateUnit(5e6)).toEqual({ unit: "MB/s", divisor: 1e6 });
    expect(byteRateUnit(999)).toEqual({ unit: "B/s", divisor: 1 });
    expect(byteRateUnit(0)).toEqual({ unit: "B/s", divisor: 1 });
    expect(byteRateUnit(3e15)).toEqual({ unit: "TB/s", divisor: 1e12 });
  });
});

describe("formatFixed", () => {
  it("one precision for a column: the slowest requests' start reads 0.000 s beside 3.786 s, not 0.000398 s", () => {
    expect([0.000398, 3.786, 12.5].map((s) => formatFixed(s, 3))).toEqual(["0.000", "3.786", "12.500"]);
    expect(formatFixed(1234.5678, 1)).toBe("1,234.6");
    expect(formatFixed(-0.0001, 3)).toBe("0.000");
    expect(formatFixed(null, 3)).toBe("—");
  });
});

describe("bytesIn", () => {
  it("one unit for a column of bytes from its largest value: 10 MB and 5 MB, never 0.01 GB and 0.005 GB", () => {
    const col = bytesIn([10e6, 5e6, null]);
    expect(col.unit).toBe("MB");
    expect([10e6, 5e6, null].map(col.value)).toEqual(["10", "5", "—"]);
    expect(bytesIn([9.5e9, 5e6]).unit).toBe("GB");
    expect(bytesIn([]).unit).toBe("B");
  });
});

describe("no writer leaves a count's plural to the reader", () => {
  it("no source writes '${n} thing(s)': every counted noun goes through plural()", () => {
    const root = path.resolve(__dirname, "../..");
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (/\.(ts|tsx|mjs)$/.test(e.name)) {
          fs.readFileSync(p, "utf8")
            .split("\n")
            .forEach((line, i) => {
              // A template slot, then up to three words, then "(s)": "${n} worker record(s)".
              if (/\$\{[^}]+\}(?:\s+[A-Za-z][\w-]*){1,3}\(s\)/.test(line))
                offenders.push(`${path.relative(root, p)}:${i + 1}`);
            });
        }
      }
    };
    for (const d of ["lib", "components", "app", "bin"]) walk(path.join(root, d));
    expect(offenders).toEqual([]);
  });
});

describe("figures said together, one precision", () => {
  it("a throughput at exactly its figure's decimals: 194.50 beside 194.51, 0.500 requests/s, never 194.5 or 0.5", () => {
    expect(["194.5", "194.5123", "200"].map((v) => formatFigure(Number(v), "tok/s"))).toEqual([
      "194.50",
      "194.51",
      "200.00",
    ]);
    expect(formatFigure(0.5, "requests/s")).toBe("0.500");
    expect(formatFigure(1234.5, "tok/s/GPU")).toBe("1,234.50");
    // A unit without a rule keeps its own precision.
    expect(formatFigure(1.5, "W", 3)).toBe("1.5");
    expect(formatFigure(null, "tok/s")).toBe("—");
    // The Overview throughput tile and its hint line: the figure and the rate under it.
    const run = {
      info: {},
      requests: {
        source: "records",
        count: 10,
        errorCount: 0,
        warmupCount: 0,
        ttftMs: null,
        e2eMs: null,
        itlMs: null,
        outputTokenThroughputPerS: 194.5,
        requestThroughputPerS: 0.5,
      },
    } as unknown as RunSummary;
    const tile = requestTiles(run).find((t) => t.testId === "tile-output-throughput")!;
    expect(tile.value).toBe("194.50 tok/s");
    expect(tile.hint).toBe("0.500 requests/s");
  });

  it("a stack's totals in one unit and one precision on the page, in the server's figure and in the report: Σ 1.500 ms beside Σ 1.250 ms", () => {
    const at = valueTextAlike("ms", [1.5, 1.25, null]);
    expect([1.5, 1.25].map(at)).toEqual(["1.500 ms", "1.250 ms"]);
    expect([900, 12_500].map(valueTextAlike("ms", [900, 12_500]))).toEqual(["0.90 s", "12.50 s"]);
    // The Breakdown view's stack of statistics: p50 totals 1.5 ms, p99 1.25 + … ms.
    const stats = {
      mode: "aggregated",
      requestCount: 3,
      segments: [
        { name: "ctx_queue", v: [0.5, 0.25] },
        { name: "ctx_processing", v: [1, 1] },
      ].map(({ name, v }) => ({
        name,
        label: name,
        count: 3,
        notRecorded: 0,
        excluded: 0,
        clamped: 0,
        meanMs: v[0],
        p50Ms: v[0],
        p75Ms: v[0],
        p90Ms: v[1],
        p99Ms: v[1],
      })),
    } as unknown as Parameters<typeof segmentStatsFigure>[0];
    const f = segmentStatsFigure(stats, ["p50", "p99"], "ttft");
    expect(f.stackTotal).toBeTruthy();
    // The server's figure writes its spaces unbreakable (&#160;).
    const said = (text: string) =>
      [...text.replace(/&#160;/g, " ").matchAll(/Σ ([\d.,]+ m?s)/g)].map((m) => m[1]);
    const report = renderPlot(reportFigure(f).plot, f.title);
    expect(said(report)).toEqual(["1.500 ms", "1.250 ms"]);
    expect(said(barsStillSvg(f))).toEqual(["1.500 ms", "1.250 ms"]);
    const page = figureProps(f) as unknown as {
      data: Array<Record<string, unknown>>;
      series: Record<string, { format?: (v: number) => string; stackEnd?: boolean }>;
    };
    const end = Object.values(page.series).find((s) => s.stackEnd)!;
    expect(page.data.map((r) => end.format!(r.stackTotal as number))).toEqual(["Σ 1.500 ms", "Σ 1.250 ms"]);
  });
});
