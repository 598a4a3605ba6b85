/**
 * The Latency view's first figures drawn on the server (lib/runs/first-figures.ts), for the
 * example aiperf run at concurrency 4 (lib/examples/files/aiperf-vllm-c4): what the run page's
 * server render puts in its HTML is a drawing of the stored distribution, one bar per bin and one
 * step per CDF point, with the axis titles of the interactive charts; a run without records
 * gets none.
 */
import path from "node:path";
import { QueryClient } from "@tanstack/react-query";
import { describe, expect, it } from "vitest";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { GET as chart } from "@/app/api/runs/[id]/charts/[key]/route";
import { distributionPayloadSchema, type Distribution } from "@/lib/api/aiperf-charts";
import { AIPERF_CHARTS, SM_CHARTS } from "@/lib/api/chart-catalog";
import { runSummarySchema, type RunSummary } from "@/lib/api/schemas";
import {
  cacheFirstFigures,
  kvFirstFigures,
  latencyCdfSvg,
  latencyFirstFigures,
  latencyHistogramSvg,
  offloadFirstFigures,
} from "@/lib/runs/first-figures";
import { endpointHitRateFigure } from "@/lib/metrics/figures/endpoints";
import { endpointHitRateMissing } from "@/lib/metrics/server-metrics/cache-facts";
import { valueText as barValueFormat } from "@/lib/metrics/bar-labels";
import { prefetchRunView } from "@/lib/runs/prefetch-first-chart";
import { idParams, uploadRun, useTestApp } from "../helpers/test-app";

const C4 = path.resolve(__dirname, "../../lib/examples/files/aiperf-vllm-c4");
const WINDOW = { from: null, to: null, lanes: null };

async function runOf(id: string): Promise<RunSummary> {
  const res = await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id));
  return runSummarySchema.parse(await res.json());
}

async function distribution(id: string) {
  const key = AIPERF_CHARTS.distribution.key;
  const res = await chart(new Request(`http://localhost/api/runs/${id}/charts/${key}`), {
    params: Promise.resolve({ id, key }),
  });
  expect(res.status).toBe(200);
  return distributionPayloadSchema.parse(await res.json());
}

/**
 * A drawing of horizontal bars in its two layouts (first-figures.ts sideBarsStillSvg): the
 * laptop's (names down the left) and the phone's (names above the bars), each its own markup.
 */
function layouts(svg: string): { laptop: string; phone: string } {
  const at = svg.indexOf('<g class="first-figure-phone">');
  expect(at).toBeGreaterThan(0);
  return { laptop: svg.slice(0, at), phone: svg.slice(at) };
}

/** What one figure's markup draws: its bars, the steps of its line, its texts. */
function read(svg: string) {
  const path = /<path d="([^"]*)"/.exec(svg)?.[1] ?? "";
  return {
    bars: (svg.match(/<rect /g) ?? []).length,
    // A step line through n points: a move to the first, then one step (H…V…) to each other.
    points: path ? 1 + (path.match(/H/g) ?? []).length : 0,
    texts: [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]),
  };
}

describe("the Latency view's first figures, drawn on the server", () => {
  it("draws the c4 example run's stored TTFT distribution: a bar per bin, a step per CDF point", async () => {
    const { app, cleanup } = await useTestApp();
    try {
      const id = await uploadRun(
        ["profile_export.jsonl", "profile_export_aiperf.json"].map((name) => ({
          name,
          path: path.join(C4, name),
        })),
      );
      const run = await runOf(id);
      const queryClient = new QueryClient();
      await prefetchRunView(queryClient, app.store.db, run, "latency", WINDOW);
      const figures = latencyFirstFigures(queryClient, run, "ttftMs", "Time to first token");
      expect(Object.keys(figures).sort()).toEqual(["latency-cdf/ttftMs", "latency-histogram/ttftMs"]);

      const ttft = (await distribution(id)).metrics.ttftMs as Distribution;
      // 200 requests, 2 of them failed (the example's comment): 198 TTFTs.
      expect(ttft.count).toBe(198);
      const histogram = read(figures["latency-histogram/ttftMs"]);
      expect(histogram.bars).toBe(ttft.bins.length);
      expect(histogram.bars).toBeGreaterThan(5);
      expect(figures["latency-histogram/ttftMs"]).toContain(`data-bars="${ttft.bins.length}"`);
      // Axis titles as the interactive chart writes them (plot-parts.tsx: title, then unit).
      expect(histogram.texts).toEqual(expect.arrayContaining(["Time to first token (ms)", "requests"]));
      expect(histogram.texts).toEqual(expect.arrayContaining(["p50", "p75", "p90", "p99"]));

      const cdf = read(figures["latency-cdf/ttftMs"]);
      expect(cdf.points).toBe(ttft.cdf.length);
      expect(cdf.bars).toBe(0);
      expect(cdf.texts).toEqual(
        expect.arrayContaining(["Time to first token (ms)", "requests at or below (%)", "0%", "100%"]),
      );
      // Colours are the theme's variables, never a fixed colour, so it reads light and dark.
      for (const svg of Object.values(figures)) expect(svg).not.toMatch(/#[0-9a-f]{3,6}\b/i);

      // Another metric is drawn for its own link (?metric=e2eMs).
      const e2e = latencyFirstFigures(queryClient, run, "e2eMs", "End-to-end latency");
      expect(read(e2e["latency-histogram/e2eMs"]).texts).toContain("End-to-end latency (ms)");
    } finally {
      await cleanup();
    }
  });

  it("draws nothing for a run with only aiperf's summary (no distribution stored)", async () => {
    const { app, cleanup } = await useTestApp();
    try {
      const id = await uploadRun([
        { name: "profile_export_aiperf.json", path: path.join(C4, "profile_export_aiperf.json") },
      ]);
      const run = await runOf(id);
      const queryClient = new QueryClient();
      await prefetchRunView(queryClient, app.store.db, run, "latency", WINDOW);
      expect(latencyFirstFigures(queryClient, run, "ttftMs", "Time to first token")).toEqual({});
    } finally {
      await cleanup();
    }
  });
});

describe("the Cache view's first figure, drawn on the server", () => {
  const P1D3 = path.resolve(__dirname, "../../lib/examples/files/trtllm-1p3d-server-metrics");
  const TIERED = path.resolve(__dirname, "../../lib/examples/files/vllm-offload-tiered");

  it("draws the hit rate per endpoint of the examples whose first chart view it is, as the page's figure", async () => {
    const { app, cleanup } = await useTestApp();
    try {
      for (const dir of [P1D3, TIERED]) {
        const id = await uploadRun([
          { name: "server_metrics_export.json", path: path.join(dir, "server_metrics_export.json") },
        ]);
        const run = await runOf(id);
        const queryClient = new QueryClient();
        await prefetchRunView(queryClient, app.store.db, run, "cache", WINDOW);
        const { figures, frames } = cacheFirstFigures(queryClient, run);
        const key = SM_CHARTS.endpoints.key;
        const res = await chart(new Request(`http://localhost/api/runs/${id}/charts/${key}`), {
          params: Promise.resolve({ id, key }),
        });
        const { rows } = SM_CHARTS.endpoints.schema.parse(await res.json());
        // The figure the Cache view draws from the same payload (components/run-views/cache-view.tsx).
        const figure = endpointHitRateFigure(rows, endpointHitRateMissing(run.serverMetrics?.cache ?? null));
        const values = figure.series[0].points.flatMap(([, v]) => (v === null ? [] : [v]));
        expect(values.length, dir).toBeGreaterThan(0);
        const svg = figures["endpoint-hit-rate"];
        expect(svg, dir).toBeDefined();
        expect(frames["endpoint-hit-rate"].title).toBe(figure.title);
        // One bar per endpoint with a hit rate, in its role's colour, its value written past it:
        // in the laptop's layout and in the phone's, each shown at its width.
        const { laptop, phone } = layouts(svg);
        for (const layer of [laptop, phone]) {
          expect(read(layer).bars).toBe(values.length);
          const colours = [...layer.matchAll(/data-colour="([^"]+)"/g)].map((m) => m[1]);
          expect(colours).toEqual(
            figure.categoryColours!.filter((_, i) => figure.series[0].points[i][1] !== null),
          );
        }
        // On a phone each endpoint is named above its bar, from the plot's left edge, as the
        // page's chart names it there (chart-container.tsx namesAbove); the box a line a row taller.
        const above = phone.match(/<text x="0" y="[\d.-]+" text-anchor="start"[^>]*><title>/g) ?? [];
        expect(above.length, dir).toBe(figure.categories!.length);
        expect(laptop).not.toMatch(/<text x="0" y="[\d.-]+" text-anchor="start"/);
        expect(frames["endpoint-hit-rate"].phoneHeight).toBe(
          frames["endpoint-hit-rate"].height + 16 * figure.categories!.length,
        );
        const texts = read(svg).texts.map((t) => t.replace(/&#160;/g, " "));
        for (const v of values.filter((v) => v > 0))
          expect(texts, dir).toContain(barValueFormat(figure.y.unit)(v));
        // A bar of no length (a decode endpoint's, "n/a (decode)") writes no value beside it.
        if (values.includes(0)) expect(texts).not.toContain(barValueFormat(figure.y.unit)(0));
        expect(texts).toContain("hit rate (%)");
        // The wide ticks with the unit, the phone's without it (the title names it).
        expect(texts).toEqual(expect.arrayContaining(["0%", "100%", "0", "100"]));
        expect(svg).not.toMatch(/#[0-9a-f]{3,6}\b/i);
      }
    } finally {
      await cleanup();
    }
  });
});

describe("the KV and Offload views' first figures, drawn on the server", () => {
  const EXAMPLES = path.resolve(__dirname, "../../lib/examples/files");
  /** The tick texts of one of a drawing's tick sets. */
  const ticks = (svg: string, set: "first-figure-wide" | "first-figure-narrow") =>
    read(/<g class="[^"]*">/.test(svg) ? svg.split(`<g class="${set}">`)[1].split("</g>")[0] : "").texts.map(
      (t) => t.replace(/&#160;/g, " "),
    );

  it("draws the KV capacity and the offload bandwidth (and the hit rate) per endpoint with the ticks the page's charts draw at 1440 and 390 px", async () => {
    const { app, cleanup } = await useTestApp();
    // The ticks the page's charts drew at 1440 and 390 px (Recharts, after hydration).
    const expected: Record<string, Record<string, [string[], string[]]>> = {
      "vllm-offload-tiered": {
        "endpoint-kv-capacity": [
          ["0 tokens", "500,000 tokens", "1,000,000 tokens", "1,500,000 tokens"],
          ["0", "500 K", "1 M", "1.5 M"],
        ],
        "endpoint-offload-gpuToCpu": [
          ["0 GB/s", "5 GB/s", "10 GB/s", "15 GB/s"],
          ["0", "5", "10", "15"],
        ],
        "endpoint-offload-cpuToGpu": [
          ["0 GB/s", "10 GB/s", "20 GB/s", "30 GB/s"],
          ["0", "10", "20", "30"],
        ],
      },
      "trtllm-1p3d-server-metrics": {
        "endpoint-hit-rate": [
          ["0%", "20%", "40%", "60%", "80%", "100%"],
          ["0", "25", "50", "75", "100"],
        ],
        "endpoint-kv-capacity": [
          ["0 tokens", "100,000 tokens", "200,000 tokens", "300,000 tokens"],
          ["0", "100 K", "200 K", "300 K"],
        ],
      },
      "vllm-kv-offload": {
        "endpoint-offload-gpuToCpu": [
          ["0 MB/s", "1 MB/s", "2 MB/s", "3 MB/s", "4 MB/s", "5 MB/s"],
          ["0", "2", "4", "6"],
        ],
        "endpoint-offload-cpuToGpu": [
          ["0 MB/s", "2.5 MB/s", "5 MB/s", "7.5 MB/s", "10 MB/s"],
          ["0", "2.5", "5", "7.5", "10"],
        ],
      },
    };
    try {
      for (const [dir, charts] of Object.entries(expected)) {
        const id = await uploadRun([
          {
            name: "server_metrics_export.json",
            path: path.join(EXAMPLES, dir, "server_metrics_export.json"),
          },
        ]);
        const run = await runOf(id);
        const kv = new QueryClient();
        await prefetchRunView(kv, app.store.db, run, "kv", WINDOW);
        const offload = new QueryClient();
        await prefetchRunView(offload, app.store.db, run, "offload", WINDOW);
        const cache = new QueryClient();
        await prefetchRunView(cache, app.store.db, run, "cache", WINDOW);
        // The Cache view's too, where its hit rate is listed.
        const drawn = {
          ...("endpoint-hit-rate" in charts ? cacheFirstFigures(cache, run).figures : {}),
          ...kvFirstFigures(kv, run).figures,
          ...offloadFirstFigures(offload, run).figures,
        };
        expect(Object.keys(drawn).sort(), dir).toEqual(Object.keys(charts).sort());
        for (const [name, [wide, narrow]] of Object.entries(charts)) {
          expect(ticks(drawn[name], "first-figure-wide"), `${dir} ${name} 1440`).toEqual(wide);
          expect(ticks(drawn[name], "first-figure-narrow"), `${dir} ${name} 390`).toEqual(narrow);
        }
      }
    } finally {
      await cleanup();
    }
  });
});

describe("the drawing's text", () => {
  const dist: Distribution = {
    count: 4,
    min: 9_000,
    max: 30_000,
    p50: 12_000,
    p75: 20_000,
    p90: 28_000,
    p99: 29_900,
    bins: [
      { start: 0, end: 10_000, count: 1 },
      { start: 10_000, end: 20_000, count: 2 },
      { start: 20_000, end: 30_000, count: 1 },
    ],
    cdf: [
      { value: 9_000, fraction: 0.25 },
      { value: 12_000, fraction: 0.75 },
      { value: 30_000, fraction: 1 },
    ],
  };

  it("is escaped, and a millisecond axis reaching 10,000 ms is written in seconds", () => {
    const svg = latencyHistogramSvg(dist, `TPOT <script>alert("x")</script> & co`);
    expect(svg).not.toContain("<script>");
    expect(read(svg).texts).toContain("TPOT &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co (s)");
    expect(read(svg).texts).toEqual(expect.arrayContaining(["0 s", "10 s", "30 s"]));
    expect(read(latencyCdfSvg(dist, "E2E")).points).toBe(3);
  });
});
