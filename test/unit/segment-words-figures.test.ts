/**
 * The Breakdown view's segment figures name each segment in words (lib/metrics/segment-words.ts),
 * as the view's segment table and Compare do: in the legend and tooltip the page draws, in the
 * server's first figure and in the offline report's SVG. The upstream span name stays the series'
 * key and, in the table of the stack of statistics, a column of its own after the words.
 */
import { describe, expect, it } from "vitest";
import { figureProps } from "@/components/charts/figure-props";
import { requestBreakdownFigure } from "@/lib/metrics/figures/breakdown";
import { segmentShareFigure, segmentStatsFigure } from "@/lib/metrics/figures/segments";
import { barsStillSvg } from "@/lib/runs/first-figures";
import { reportFigure } from "@/lib/runs/report/figure-kit";
import { renderPlot } from "@/lib/runs/report/svg-plot";
import { breakdownTables } from "@/lib/runs/report/run-sections";
import type { RunSummary } from "@/lib/api/schemas";
import type { FigureDescription } from "@/lib/api/figure";

const KEYS = ["ctx_queue", "ctx_processing", "gen_kv_transfer", "decode"];
const WORDS = ["context queue", "context processing", "generation KV transfer", "decode"];
/** A snake_case segment key anywhere in a text. */
const RAW = /\b(ctx|gen|disagg|kv)_[a-z_]+/;

const stats = {
  mode: "disaggregated",
  requestCount: 3,
  segments: KEYS.map((name, i) => {
    // gen_kv_transfer is recorded by no request: named among the missing, in words.
    const v = name === "gen_kv_transfer" ? null : (i + 1) * 10;
    return {
      name,
      label: `what ${name} measures`,
      count: v === null ? 0 : 3,
      notRecorded: v === null ? 3 : 0,
      excluded: 0,
      clamped: 0,
      meanMs: v,
      p50Ms: v,
      p75Ms: v,
      p90Ms: v,
      p99Ms: v,
    };
  }),
} as unknown as Parameters<typeof segmentStatsFigure>[0];

const share = {
  segmentNames: KEYS,
  bucketMs: 1000,
  buckets: [0, 1000, 2000].map((startMs) => ({ startMs, requests: 2, meanMs: [1, 2, 3, 40] })),
} as Parameters<typeof segmentShareFigure>[0];

const sample = {
  mode: "disaggregated",
  total: 2,
  segmentNames: KEYS,
  requests: [
    { idx: 0, requestId: "a", ttftMs: 6, e2eMs: 46, segments: [1, 2, 3, 40] },
    { idx: 1, requestId: "b", ttftMs: 3, e2eMs: 43, segments: [1, 2, null, 40] },
  ],
} as unknown as Parameters<typeof requestBreakdownFigure>[0];

/** Everything a reader sees of a figure on the page: legend and tooltip names, description. */
function pageText(f: FigureDescription): string {
  const props = figureProps(f);
  const series = Object.values(props.series as Record<string, { label?: string }>).map((s) => s.label ?? "");
  const notRecorded = (props.data as Array<Record<string, unknown>>).flatMap(
    (r) => (r.notRecorded as string[] | undefined) ?? [],
  );
  return [f.title, f.description, ...f.series.map((s) => s.name), ...series, ...notRecorded].join("\n");
}

describe("segment figures name segments in words", () => {
  const figures = [
    segmentStatsFigure(stats, ["p50", "p99"], "all"),
    segmentStatsFigure(stats, ["p50"], "ttft"),
    segmentShareFigure(share, "all"),
    requestBreakdownFigure(sample, "all"),
  ];

  it("legend, tooltip and description in words; the upstream name stays the series' key", () => {
    for (const f of figures) {
      expect(pageText(f), f.id).not.toMatch(RAW);
      for (const s of f.series) expect(s.name).toBe(WORDS[KEYS.indexOf(s.key)]);
    }
    expect(figures[0].description).toContain("not recorded in this run: generation KV transfer");
  });

  it("the offline report's SVG (legend, band titles) and the server's first figure say the words", () => {
    for (const f of figures) {
      const svg = renderPlot(reportFigure(f).plot, f.title);
      expect(svg, f.id).not.toMatch(RAW);
      expect(svg).toContain("context queue");
    }
    expect(barsStillSvg(figures[0])).not.toMatch(RAW);
  });

  it("the stack of statistics' table writes the upstream name after the words, as the view's table does", () => {
    const t = reportFigure(figures[0]).table;
    expect(t.columns).toEqual(["segment", "p50 (ms)", "p99 (ms)", "requests recorded", "upstream name"]);
    expect(t.rows.map((r) => [r[0], r[r.length - 1]])).toEqual(KEYS.map((k, i) => [WORDS[i], k]));
  });

  it("the per-request columns name each request in words: the page's categories, the report's band titles and table", () => {
    const f = requestBreakdownFigure(sample, "all");
    expect(f.categories).toEqual(["request id a", "request id b"]);
    const r = reportFigure(f);
    const svg = renderPlot(r.plot, f.title);
    const text = [...(f.categories ?? []), svg, ...r.table.rows.map((row) => row[0])].join("\n");
    expect(text).not.toMatch(/request_id/);
    expect(svg).toContain("<title>request id b · context queue: 1 ms</title>");
  });
});

describe("the report's segment table", () => {
  it("names each segment in words, as the Breakdown view's table does, the upstream name a column of its own", () => {
    const run = { timeBreakdown: { ...stats, kvCacheHitRate: null } } as unknown as RunSummary;
    const [block] = breakdownTables(run);
    if (block?.kind !== "table") throw new Error("no segment table");
    expect(block.table.columns[0]).toBe("segment");
    expect(block.table.columns.at(-1)).toBe("upstream name");
    expect(block.table.rows.map((r) => r[0])).toEqual(WORDS);
    expect(block.table.rows.map((r) => r.at(-1))).toEqual(KEYS);
  });
});
