import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Locator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AIPERF_CHARTS, SM_CHARTS, TRTLLM_CHARTS } from "@/lib/api/chart-catalog";
import { formatCount } from "@/lib/format-number";
import { MIN_BAR_PX } from "@/lib/metrics/bar-labels";
import {
  endpointCapacityFigure,
  endpointHitRateFigure,
  endpointOffloadFigure,
} from "@/lib/metrics/figures/endpoints";
import { generateMultiTurnRun } from "../generators/aiperf-multiturn.mjs";
import { dynamoRequestTrace } from "../generators/dynamo-request-trace.mjs";
import { apiUpload, gotoHydrated, lookPages, shot, useAppAndBrowser } from "./harness";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bar-labels-e2e-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
  height: number;
}

/** A chart's bars and its value labels, as the browser laid them out. */
async function barsAndLabels(
  chart: Locator,
): Promise<{ bars: Box[]; labels: Array<{ t: string; r: Box }>; frame: Box }> {
  return chart.evaluate((fig) => {
    const box = (e: Element) => {
      const r = e.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height };
    };
    const svg = fig.querySelector(".recharts-wrapper > svg.recharts-surface")!;
    return {
      frame: box(svg),
      bars: [...svg.querySelectorAll(".recharts-bar-rectangle path, .recharts-bar-rectangle rect")]
        .map(box)
        .filter((r) => r.width > 0 && r.height > 0),
      labels: [...svg.querySelectorAll(".recharts-label-list text")]
        .filter((t) => (t.textContent ?? "").trim() !== "")
        .map((t) => ({ t: (t.textContent ?? "").replace(/\u00a0/g, " ").trim(), r: box(t) })),
    };
  });
}

const overlap = (a: Box, b: Box, inset = 1) =>
  a.left + inset < b.right - inset &&
  b.left + inset < a.right - inset &&
  a.top + inset < b.bottom - inset &&
  b.top + inset < a.bottom - inset;

/**
 * A labelled bar chart as laid out: the bars drawn (a stack's bands, and a waterfall's invisible
 * offsets left out) grouped into the bars a reader sees (a stack is one), each with exactly one
 * value label past its end (right of a sideways bar, above a column), no label on a bar or on
 * another label, every label inside the drawing. Returns the labels' texts.
 */
async function expectOneLabelPerBar(chart: Locator, where: string, horizontal: boolean): Promise<string[]> {
  // In view first: a chart below the fold is drawn once it is near the screen.
  await chart.waitFor({ timeout: 60_000 });
  await chart.scrollIntoViewIfNeeded();
  await chart.locator(".recharts-bar-rectangle").first().waitFor({ timeout: 60_000 });
  const { bars, labels, frame } = await chart.evaluate((fig) => {
    const box = (e: Element) => {
      const r = e.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height };
    };
    const svg = fig.querySelector(".recharts-wrapper > svg.recharts-surface")!;
    const marks = [...svg.querySelectorAll(".recharts-bar-rectangle path, .recharts-bar-rectangle rect")]
      .filter((e) => e.getAttribute("fill") !== "transparent")
      .map(box)
      .filter((r) => r.width > 0 && r.height > 0);
    return {
      frame: box(svg),
      bars: marks,
      labels: [...svg.querySelectorAll(".recharts-label-list text")]
        .filter((t) => (t.textContent ?? "").trim() !== "")
        // Labels are written with no-break spaces (never wrapped): read as plain spaces.
        .map((t) => ({ t: (t.textContent ?? "").replace(/\u00a0/g, " ").trim(), r: box(t) })),
    };
  });
  expect(bars.length, `${where}: bars drawn`).toBeGreaterThan(0);
  // A bar as read: the bands of one stack share their band across the categories' axis.
  const bands: Box[] = [];
  for (const b of bars) {
    const same = bands.find((g) =>
      horizontal
        ? Math.abs(g.top - b.top) < 0.5 && Math.abs(g.bottom - b.bottom) < 0.5
        : Math.abs(g.left - b.left) < 0.5 && Math.abs(g.right - b.right) < 0.5,
    );
    if (!same) bands.push({ ...b });
    else {
      same.left = Math.min(same.left, b.left);
      same.right = Math.max(same.right, b.right);
      same.top = Math.min(same.top, b.top);
      same.bottom = Math.max(same.bottom, b.bottom);
    }
  }
  const texts = labels.map((l) => l.t);
  expect(labels.length, `${where}: one label per bar: ${texts.join(" | ")}`).toBe(bands.length);
  for (const g of bands) {
    // Its label level with it and past its end.
    const own = labels.filter(({ r }) =>
      horizontal
        ? (r.top + r.bottom) / 2 >= g.top - 1 &&
          (r.top + r.bottom) / 2 <= g.bottom + 1 &&
          r.left >= g.right - 1
        : (r.left + r.right) / 2 >= g.left - 1 &&
          (r.left + r.right) / 2 <= g.right + 1 &&
          r.bottom <= g.top + 1,
    );
    expect(own.length, `${where}: the bar at ${Math.round(g.top)},${Math.round(g.left)} has one label`).toBe(
      1,
    );
  }
  for (const l of labels) {
    for (const b of bars) expect(overlap(l.r, b), `${where}: "${l.t}" on a bar`).toBe(false);
    expect(
      l.r.left >= frame.left - 0.5 &&
        l.r.right <= frame.right + 0.5 &&
        l.r.top >= frame.top - 0.5 &&
        l.r.bottom <= frame.bottom + 0.5,
      `${where}: "${l.t}" leaves the drawing`,
    ).toBe(true);
  }
  for (let i = 0; i < labels.length; i++)
    for (let j = i + 1; j < labels.length; j++)
      expect(overlap(labels[i].r, labels[j].r), `${where}: "${labels[i].t}" on "${labels[j].t}"`).toBe(false);
  return texts;
}

describe("bar charts: value labels and a visible bar for every value above 0", () => {
  const t = useAppAndBrowser({ env: { RUNLENS_EXAMPLES: "on" } });
  // Each page loaded once, in every look (light and dark, 1440 and 390 px) by every test that wants it.
  const looks = lookPages(() => t.browser);
  afterAll(() => looks.close());

  /**
   * The 1 prefill + 3 decode example with one decode endpoint's pool 5,000 times larger
   * (10,000,000 blocks, 1,280,000,000 tokens): its KV capacities span more than four decades.
   * Uploaded once, for the tests that want it.
   */
  let wideUpload: ReturnType<typeof apiUpload> | undefined;
  const wideRun = () =>
    (wideUpload ??= (async () => {
      const example = JSON.parse(
        fs.readFileSync("lib/examples/files/trtllm-1p3d-server-metrics/server_metrics_export.json", "utf8"),
      ) as {
        metrics: Record<string, { series: Array<{ endpoint_url: string; stats: Record<string, number> }> }>;
      };
      for (const s of example.metrics.trtllm_kv_cache_max_blocks.series)
        if (s.endpoint_url === "10.1.0.4:8000") s.stats = { avg: 1e7, min: 1e7, max: 1e7 };
      fs.mkdirSync(path.join(dir, "wide"), { recursive: true });
      const file = path.join(dir, "wide", "server_metrics_export.json");
      fs.writeFileSync(file, JSON.stringify(example));
      return apiUpload(t.app.url, [{ path: file }], { name: "bar labels endpoints spanning decades" });
    })());

  /**
   * The generated multi-turn runs (every conversation `maxTurns` turns long) and the generated
   * Dynamo request trace, each uploaded once, for the tests that want them.
   */
  const turnsUploads = new Map<5 | 20, ReturnType<typeof apiUpload>>();
  const turnsRun = (maxTurns: 5 | 20) => {
    let run = turnsUploads.get(maxTurns);
    if (!run) {
      const gen = generateMultiTurnRun(path.join(dir, `turns-${maxTurns}`), {
        conversations: 160,
        maxTurns,
        minTurns: maxTurns,
        seed: 5,
        errorEvery: 17,
        cancelEvery: 29,
      });
      run = apiUpload(t.app.url, [{ path: gen.jsonlPath }, { path: gen.summaryPath }], {
        name: `bar labels turns ${maxTurns}`,
      });
      turnsUploads.set(maxTurns, run);
    }
    return run;
  };
  let sessionsUpload: ReturnType<typeof apiUpload> | undefined;
  const sessionsRun = () =>
    (sessionsUpload ??= (async () => {
      const trace = dynamoRequestTrace({ requests: 30, turns: 5, subagentEvery: 3, seed: 11 });
      fs.writeFileSync(path.join(dir, "dynamo-request-trace.jsonl"), trace.text);
      return apiUpload(t.app.url, [{ path: path.join(dir, "dynamo-request-trace.jsonl") }], {
        name: "bar labels sessions",
      });
    })());
  // Every upload starts at once: each ingests while the tests before the one wanting it run.
  beforeAll(() => {
    for (const run of [wideRun(), turnsRun(5), turnsRun(20), sessionsRun()]) run.catch(() => {});
  });

  /** A run's Breakdown view with its 8th request open (`req=7`): one page for every test wanting the view. */
  const breakdownOfRequest7 = (runId: string) => `${t.app.url}/runs/${runId}?view=breakdown&req=7`;

  /** Clicks the value axis's `scale` button of `chart` and waits until it is pressed. */
  const pickScale = async (chart: Locator, scale: "linear" | "log") => {
    const button = chart.getByRole("group", { name: "value axis" }).getByRole("button", { name: scale });
    await button.click();
    await expect.poll(() => button.getAttribute("aria-pressed")).toBe("true");
  };

  async function runsByName() {
    const { runs } = (await (await fetch(`${t.app.url}/api/runs`)).json()) as {
      runs: Array<{ id: string; name: string; kinds: string[]; requestCount: number | null }>;
    };
    return runs;
  }

  it("Compare › Offload bandwidth: 5 MB/s beside 9.5 GB/s is a bar with its label, at 1440 and 390 px, light and dark", async () => {
    const runs = await runsByName();
    const small = runs.find((r) => r.name === "vLLM · KV offload to CPU");
    const big = runs.find((r) => r.name.startsWith("vLLM · KV offload, CPU and fs tiers"));
    expect(small && big).toBeTruthy();
    await looks.forEachLook(`${t.app.url}/compare?runs=${big!.id},${small!.id}`, async (page, look) => {
      const chart = page.locator('figure[data-chart="compare-offload-bandwidth"]');
      await chart.locator(".recharts-bar-rectangle").first().waitFor({ timeout: 60_000 });
      await chart.scrollIntoViewIfNeeded();
      const { bars, labels, frame } = await barsAndLabels(chart);
      const where = `${look.width} ${look.scheme}`;
      await shot(chart, `compare-offload-bandwidth-${look.scheme}-${look.width}.png`);
      // Every bar drawn is at least MIN_BAR_PX long (they run sideways: their length is the width).
      expect(bars.length, where).toBeGreaterThanOrEqual(3);
      for (const b of bars)
        expect(
          Math.max(b.width, b.height) >= MIN_BAR_PX - 0.5 && Math.min(b.width, b.height) > 2,
          where,
        ).toBe(true);
      const shortest = Math.min(...bars.map((b) => b.width));
      expect(shortest, where).toBeGreaterThanOrEqual(MIN_BAR_PX - 0.5);
      // Both values written, each in its own unit.
      const texts = labels.map((l) => l.t);
      expect(
        texts.some((s) => /^\d+(\.\d+)? MB\/s$/.test(s)),
        `${where}: ${texts.join(" | ")}`,
      ).toBe(true);
      expect(
        texts.some((s) => /^9\.\d+ GB\/s$/.test(s)),
        `${where}: ${texts.join(" | ")}`,
      ).toBe(true);
      // No label on a bar, on another label, or outside the drawing.
      for (const l of labels) {
        for (const b of bars) expect(overlap(l.r, b), `${where}: "${l.t}" on a bar`).toBe(false);
        expect(
          l.r.left >= frame.left - 0.5 && l.r.right <= frame.right + 0.5,
          `${where}: "${l.t}" leaves the drawing`,
        ).toBe(true);
      }
      for (let i = 0; i < labels.length; i++)
        for (let j = i + 1; j < labels.length; j++)
          expect(overlap(labels[i].r, labels[j].r), `${where}: "${labels[i].t}" on "${labels[j].t}"`).toBe(
            false,
          );
      // Values spanning three decades: a log axis on offer.
      await chart.getByRole("group", { name: "value axis" }).getByRole("button", { name: "log" }).waitFor();
    });
  }, 600_000);

  it("run › Offload: each endpoint's bar has its value written beside it", async () => {
    const runs = await runsByName();
    const small = runs.find((r) => r.name === "vLLM · KV offload to CPU")!;
    const page = await t.browser.newPage({ viewport: { width: 390, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/runs/${small.id}?view=offload`);
    const chart = page.locator('figure[data-chart="endpoint-offload-gpuToCpu"]');
    await chart.locator(".recharts-bar-rectangle").first().waitFor({ timeout: 60_000 });
    const { bars, labels } = await barsAndLabels(chart);
    expect(bars.length).toBeGreaterThan(0);
    expect(labels.length).toBe(bars.length);
    for (const b of bars) expect(b.width).toBeGreaterThanOrEqual(MIN_BAR_PX - 0.5);
    expect(labels.every((l) => /\/s$/.test(l.t))).toBe(true);
    await page.close();
  }, 300_000);

  it("Breakdown › the headline bar: TTFT segments only fills it with the TTFT segments, and it has the log axis", async () => {
    const runs = await runsByName();
    const run = runs
      .filter((r) => r.kinds.includes("trtllm-perf-metrics"))
      .sort((a, b) => (b.requestCount ?? 0) - (a.requestCount ?? 0))[0];
    expect(run).toBeDefined();
    // The largest run's Breakdown view, as the waterfall tests below load it, at 1440 px.
    const page = await looks.page(breakdownOfRequest7(run!.id));
    const segments = async (name: string) => {
      const chart = page.locator(`figure[data-chart="${name}"]`);
      await chart.locator(".recharts-bar-rectangle").first().waitFor({ timeout: 60_000 });
      return chart.evaluate((fig) => {
        const plot = fig.querySelector(".recharts-cartesian-grid")!.getBoundingClientRect();
        const bands = [...fig.querySelectorAll(".recharts-bar-rectangle path")].map((p) => ({
          decode: p.getAttribute("fill") === "var(--seg-decode)",
          width: p.getBoundingClientRect().width,
        }));
        return { plotWidth: plot.width, bands };
      });
    };
    const all = await segments("time-breakdown-p50");
    const ttftOfAll = all.bands.filter((b) => !b.decode).reduce((s, b) => s + b.width, 0);
    // Decode is most of the bar: the TTFT segments share a sliver.
    expect(ttftOfAll).toBeLessThan(0.5 * all.plotWidth);
    const headline = page.locator('figure[data-chart="time-breakdown-p50"]');
    await headline
      .getByRole("group", { name: "segments shown" })
      .getByRole("button", { name: "TTFT segments only" })
      .click();
    await page.waitForURL(/segments=ttft/);
    const ttft = await segments("time-breakdown-ttft-p50");
    expect(ttft.bands.some((b) => b.decode)).toBe(false);
    await shot(page.locator('figure[data-chart="time-breakdown-ttft-p50"]'), "headline-ttft.png");
    // The stack's total past its end, as a Σ: a sum of p50s is not the p50 of the total.
    const sums = await expectOneLabelPerBar(
      page.locator('figure[data-chart="time-breakdown-ttft-p50"]'),
      "headline",
      true,
    );
    expect(sums).toHaveLength(1);
    expect(sums[0]).toMatch(/^Σ [\d,.]+ (ms|s)$/);
    const ttftWidth = ttft.bands.reduce((s, b) => s + b.width, 0);
    // The TTFT segments now fill the bar: several times the room they had beside decode.
    expect(ttftWidth).toBeGreaterThan(0.8 * ttft.plotWidth);
    expect(ttftWidth).toBeGreaterThan(3 * ttftOfAll);
    // The same time-axis control as the per-request stacks (one URL parameter).
    const ttftHeadline = page.locator('figure[data-chart="time-breakdown-ttft-p50"]');
    await ttftHeadline.getByRole("group", { name: "time axis" }).getByRole("button", { name: "log" }).click();
    await page.waitForURL(/scale=log/);
    const log = await segments("time-breakdown-ttft-log-p50");
    await shot(page.locator('figure[data-chart="time-breakdown-ttft-log-p50"]'), "headline-ttft-log.png");
    // On the log axis, from the power of ten below the first band's end, every band is drawn and
    // the first ones (a fraction of a millisecond) open up.
    expect(log.bands.length).toBe(ttft.bands.length);
    expect(log.bands[0].width).toBeGreaterThan(ttft.bands[0].width);
    // Back to every segment on a linear axis, as the page was loaded.
    const logHeadline = page.locator('figure[data-chart="time-breakdown-ttft-log-p50"]');
    await logHeadline
      .getByRole("group", { name: "time axis" })
      .getByRole("button", { name: "linear" })
      .click();
    await expect.poll(() => page.url()).not.toMatch(/scale=log/);
    await page
      .locator('figure[data-chart="time-breakdown-ttft-p50"]')
      .getByRole("group", { name: "segments shown" })
      .getByRole("button", { name: "all segments" })
      .click();
    await expect.poll(() => page.url()).not.toMatch(/segments=ttft/);
    await page.locator('figure[data-chart="time-breakdown-p50"] .recharts-bar-rectangle').first().waitFor();
  }, 300_000);
  it("KV-cache hit rate by role and worker, a request's waterfall and Compare's segment stacks at 1440 and 390 px, light and dark: one label per bar", async () => {
    const runs = (await runsByName()).filter((r) => r.kinds.includes("trtllm-perf-metrics"));
    // The TensorRT-LLM examples whose records carry kv_cache_metrics.
    const withHitRate: string[] = [];
    for (const r of runs) {
      const res = await fetch(`${t.app.url}/api/runs/${r.id}/charts/${TRTLLM_CHARTS.kvHitRate.key}`);
      if (!res.ok) continue;
      const p = TRTLLM_CHARTS.kvHitRate.schema.parse(await res.json());
      if (p.byWorker.some((w) => w.hitRate !== null)) withHitRate.push(r.id);
    }
    expect(withHitRate.length).toBeGreaterThan(0);
    const run = runs.sort((a, b) => (b.requestCount ?? 0) - (a.requestCount ?? 0))[0];
    await looks.forEachLook(`${t.app.url}/runs/${withHitRate[0]}?view=breakdown`, async (page, look) => {
      const where = `kv hit rate ${look.width} ${look.scheme}`;
      const chart = page.locator('figure[data-chart="kv-hit-rate"]');
      const texts = await expectOneLabelPerBar(chart, where, true);
      expect(
        texts.every((x) => /^\d+(\.\d)?%$/.test(x)),
        `${where}: ${texts.join(" | ")}`,
      ).toBe(true);
      await shot(chart, `kv-hit-rate-${look.scheme}-${look.width}.png`);
    });
    await looks.forEachLook(breakdownOfRequest7(run.id), async (page, look) => {
      const where = `waterfall ${look.width} ${look.scheme}`;
      const chart = page.locator('figure[data-chart$="-waterfall"]');
      const texts = await expectOneLabelPerBar(chart, where, true);
      expect(
        texts.every((x) => /^([\d,.]+ (ms|s)|not recorded|excluded \(.+\))$/.test(x)),
        `${where}: ${texts.join(" | ")}`,
      ).toBe(true);
      await shot(chart, `waterfall-${look.scheme}-${look.width}.png`);
    });
    await looks.forEachLook(
      `${t.app.url}/compare?runs=${runs.map((r) => r.id).join(",")}`,
      async (page, look) => {
        const where = `compare segments ${look.width} ${look.scheme}`;
        const chart = page.locator('figure[data-chart^="compare-segments-"]');
        const texts = await expectOneLabelPerBar(chart, where, true);
        // One sum per run with a breakdown, said as a sum.
        expect(texts.length, where).toBe(runs.length);
        expect(
          texts.every((x) => /^Σ [\d,.]+ (ms|s)$/.test(x)),
          `${where}: ${texts.join(" | ")}`,
        ).toBe(true);
        await shot(chart, `compare-segments-${look.scheme}-${look.width}.png`);
      },
    );
  }, 900_000);

  it("Turns › requests by turn and Sessions › time per session: each bar's total past it, at 1440 and 390 px, light and dark", async () => {
    // Few turns: counts above the columns; twenty: the turns run down the side.
    for (const maxTurns of [5, 20] as const) {
      const run = await turnsRun(maxTurns);
      const turns = AIPERF_CHARTS.turns.schema.parse(
        await (await fetch(`${t.app.url}/api/runs/${run.id}/charts/${AIPERF_CHARTS.turns.key}`)).json(),
      );
      const counts = turns.rows.map((r) => r.requests);
      expect(counts).toHaveLength(maxTurns);
      await looks.forEachLook(`${t.app.url}/runs/${run.id}?view=turns`, async (page, look) => {
        const where = `turns ${maxTurns} ${look.width} ${look.scheme}`;
        const chart = page.locator('figure[data-chart="turns-requests"]');
        // Five turns' counts fit above their columns, twenty do not (lib/metrics/bar-labels.ts).
        const texts = await expectOneLabelPerBar(chart, where, maxTurns > 5);
        // Each turn's count of requests (successful, failed and cancelled), in turn order.
        expect(texts, where).toEqual(counts.map((n) => formatCount(n)));
        await shot(chart, `turns-requests-${maxTurns}-${look.scheme}-${look.width}.png`);
      });
    }
    const sessions = await sessionsRun();
    await looks.forEachLook(`${t.app.url}/runs/${sessions.id}?view=sessions`, async (page, look) => {
      const where = `sessions ${look.width} ${look.scheme}`;
      const chart = page.locator('figure[data-chart="session-tool-model-time"]');
      const texts = await expectOneLabelPerBar(chart, where, true);
      expect(
        texts.every((x) => /^[\d,.]+ s$/.test(x)),
        `${where}: ${texts.join(" | ")}`,
      ).toBe(true);
      await shot(chart, `session-time-${look.scheme}-${look.width}.png`);
    });
  }, 900_000);
  it("per-endpoint bars: a log value axis on offer where values span more than two decades, linear first, and it opens up the small bars", async () => {
    const views: Record<string, string> = {
      "endpoint-hit-rate": "cache",
      "endpoint-kv-capacity": "kv",
      "endpoint-offload-gpuToCpu": "offload",
      "endpoint-offload-cpuToGpu": "offload",
    };
    // The example with its KV capacities spanning more than four decades.
    const wide = await wideRun();
    // Every example's endpoint figures, as the page and the report build them.
    const offered: Array<{ run: string; chart: string }> = [];
    const linearOnly: Array<{ run: string; chart: string }> = [];
    for (const r of await runsByName()) {
      if (r.id === wide.id) continue;
      const res = await fetch(`${t.app.url}/api/runs/${r.id}/charts/${SM_CHARTS.endpoints.key}`);
      if (!res.ok) continue;
      const { rows } = SM_CHARTS.endpoints.schema.parse(await res.json());
      for (const f of [
        endpointHitRateFigure(rows),
        endpointCapacityFigure(rows),
        endpointOffloadFigure(rows, "gpuToCpu"),
        endpointOffloadFigure(rows, "cpuToGpu"),
      ]) {
        if (f.series[0].points.filter(([, v]) => v !== null && v > 0).length < 2) continue;
        (f.y.logOption ? offered : linearOnly).push({ run: r.id, chart: f.exportName });
      }
    }
    expect(linearOnly.length, "an example whose endpoint values do not span decades").toBeGreaterThan(0);
    const { rows } = SM_CHARTS.endpoints.schema.parse(
      await (await fetch(`${t.app.url}/api/runs/${wide.id}/charts/${SM_CHARTS.endpoints.key}`)).json(),
    );
    expect(endpointCapacityFigure(rows).y.logOption).toBe(true);
    offered.push({ run: wide.id, chart: "endpoint-kv-capacity" });
    const widths = async (chart: Locator) =>
      (await barsAndLabels(chart)).bars.filter((b) => b.width > 0).map((b) => b.width);
    // The axes' tick texts: the endpoints' names stay, the value axis's ticks change.
    const ticks = (chart: Locator) => chart.locator(".recharts-cartesian-axis-tick-value").allTextContents();
    const { run, chart: name } = offered[0];
    await looks.forEachLook(`${t.app.url}/runs/${run}?view=${views[name]}`, async (page, look) => {
      const where = `${name} ${look.width} ${look.scheme}`;
      const chart = page.locator(`figure[data-chart="${name}"]`);
      await expectOneLabelPerBar(chart, `${where} linear`, true);
      const axis = chart.getByRole("group", { name: "value axis" });
      // Linear first, as the report draws it, and the description says why log is there.
      expect(await axis.getByRole("button", { name: "linear" }).getAttribute("aria-pressed"), where).toBe(
        "true",
      );
      expect(await chart.locator("figcaption").textContent(), where).toMatch(
        /values span \d+ decades: try the log axis/,
      );
      const linear = await widths(chart);
      const linearTicks = await ticks(chart);
      await axis.getByRole("button", { name: "log" }).click();
      await expect
        .poll(() => axis.getByRole("button", { name: "log" }).getAttribute("aria-pressed"))
        .toBe("true");
      // The value axis is redrawn on a log scale (its ticks change), every bar still drawn and
      // none shorter than it was, nor than MIN_BAR_PX.
      await expect.poll(() => ticks(chart)).not.toEqual(linearTicks);
      const log = await widths(chart);
      expect(log.length, where).toBe(linear.length);
      expect(Math.min(...log), where).toBeGreaterThanOrEqual(
        Math.max(MIN_BAR_PX - 0.5, Math.min(...linear) - 0.5),
      );
      await expectOneLabelPerBar(chart, `${where} log`, true);
      await shot(chart, `${name}-log-${look.scheme}-${look.width}.png`);
      // Linear again for the next look, as the page was loaded.
      await pickScale(chart, "linear");
      await expect.poll(() => ticks(chart)).toEqual(linearTicks);
    });
    // Values within two decades: no toggle.
    const plain = linearOnly[0];
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/runs/${plain.run}?view=${views[plain.chart]}`);
    const chart = page.locator(`figure[data-chart="${plain.chart}"]`);
    await expectOneLabelPerBar(chart, plain.chart, true);
    expect(await chart.getByRole("group", { name: "value axis" }).count()).toBe(0);
    await page.close();
  }, 600_000);
  it("the Breakdown view's segment bar: every band at least MIN_BAR_PX long and the stack inside its axis, at 1440 and 390 px", async () => {
    const runs = (await runsByName()).filter((r) => r.kinds.includes("trtllm-perf-metrics"));
    const run = [...runs].sort((a, b) => (b.requestCount ?? 0) - (a.requestCount ?? 0))[0];
    await looks.forEachLook(`${t.app.url}/runs/${run.id}?view=breakdown`, async (page, look) => {
      const where = `breakdown segments ${look.width} ${look.scheme}`;
      const chart = page.locator('figure[data-chart="time-breakdown-p50"]');
      await chart.waitFor({ timeout: 60_000 });
      await chart.scrollIntoViewIfNeeded();
      await chart.locator(".recharts-bar-rectangle").first().waitFor({ timeout: 60_000 });
      const { plot, bands } = await chart.evaluate((fig) => {
        const svg = fig.querySelector(".recharts-wrapper > svg.recharts-surface")!;
        const clip = svg.querySelector("defs clipPath rect")!;
        const left = svg.getBoundingClientRect().left + Number(clip.getAttribute("x"));
        return {
          plot: { left, right: left + Number(clip.getAttribute("width")) },
          bands: [...svg.querySelectorAll(".recharts-bar-rectangle path")]
            .filter((p) => p.getAttribute("fill") !== "transparent")
            .map((p) => {
              const r = p.getBoundingClientRect();
              return { left: r.left, right: r.right, width: r.width };
            })
            .filter((r) => r.width > 0),
        };
      });
      // Every segment of the p50 bar is recorded above 0 in this run: none narrower than a band
      // one can point at (a 0.9 px band sat under the axis line), the stack inside the plot.
      expect(bands.length, where).toBeGreaterThan(3);
      const narrowest = Math.min(...bands.map((b) => b.width));
      expect(
        narrowest,
        `${where}: ${bands.map((b) => b.width.toFixed(1)).join(" | ")}`,
      ).toBeGreaterThanOrEqual(MIN_BAR_PX - 0.5);
      expect(Math.max(...bands.map((b) => b.right)), where).toBeLessThanOrEqual(plot.right + 0.5);
      await expectOneLabelPerBar(chart, where, true);
      await shot(chart, `breakdown-segments-${look.scheme}-${look.width}.png`);
    });
  }, 600_000);

  it("two-axis charts on a phone (throughput over time, latency per timeslice): compact ticks without the unit, which the axis title names once, and at least half the width for the plot", async () => {
    const aiperf = (await runsByName()).find((r) =>
      r.name.startsWith("aiperf · mock-llama-8b on 2 vLLM-style servers"),
    );
    // Its records, and aiperf's timeslice export.
    expect(aiperf, "the aiperf example on two vLLM-style servers").toBeDefined();
    for (const [view, name] of [
      ["throughput", "throughput-over-time"],
      ["latency", "latency-timeslices"],
    ] as const)
      await looks.forEachLook(`${t.app.url}/runs/${aiperf!.id}?view=${view}`, async (page, look) => {
        const where = `${name} ${look.width} ${look.scheme}`;
        const chart = page.locator(`figure[data-chart="${name}"]`);
        await chart.waitFor({ timeout: 60_000 });
        await chart.scrollIntoViewIfNeeded();
        await chart.locator(".recharts-line-curve").first().waitFor({ timeout: 60_000 });
        const l = await chart.evaluate((fig) => {
          const svg = fig.querySelector(".recharts-wrapper > svg.recharts-surface")!;
          const clip = svg.querySelector("defs clipPath rect")!;
          const texts = (sel: string) =>
            [...svg.querySelectorAll(sel)].map((t) => (t.textContent ?? "").replace(/\u00a0/g, " ").trim());
          return {
            frame: svg.getBoundingClientRect().width,
            plot: Number(clip.getAttribute("width")),
            ticks: texts(".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value"),
            // The value axes' titles run up their sides.
            titles: [...svg.querySelectorAll("text.recharts-label")]
              .filter((t) => /rotate/.test(t.getAttribute("transform") ?? ""))
              .map((t) => (t.textContent ?? "").trim()),
          };
        });
        const say = `${l.ticks.join(" | ")}; titles ${l.titles.join(" | ")}`;
        expect(l.titles.length, `${where}: both axes titled (${say})`).toBe(2);
        // Each title names its unit once, in brackets.
        for (const title of l.titles) expect(title, where).toMatch(/\(.+\)$/);
        if (look.width < 640) {
          // A tick is a number alone ("2.5 K", "1,200"): the unit is the title's.
          for (const tick of l.ticks) expect(tick, `${where}: ${say}`).toMatch(/^-?[\d,.]+( [KMBT])?$/);
          expect(
            l.plot,
            `${where}: plot ${Math.round(l.plot)} of ${Math.round(l.frame)} px`,
          ).toBeGreaterThanOrEqual(0.5 * l.frame);
        }
        await shot(chart, `two-axis-${name}-${look.scheme}-${look.width}.png`);
      });
  }, 600_000);

  it("on a phone, the waterfall, Compare's segment stacks and the KV capacity per endpoint (linear and log) keep their ticks apart, their labels inside and at least half the width for the plot", async () => {
    const all = await runsByName();
    const trt = all.filter((r) => r.kinds.includes("trtllm-perf-metrics"));
    // Largest first, as the hit-rate test above lists them: the same waterfall and compare pages.
    const bySize = [...trt].sort((a, b) => (b.requestCount ?? 0) - (a.requestCount ?? 0));
    const biggest = bySize[0];
    // The example endpoints with a KV capacity each, and the same with one pool 5,000 times
    // larger (1,280,000,000 tokens, wideRun): its capacities span decades and a log axis is on offer.
    let capacityRun: string | undefined;
    for (const r of all) {
      const res = await fetch(`${t.app.url}/api/runs/${r.id}/charts/${SM_CHARTS.endpoints.key}`);
      if (!res.ok) continue;
      const { rows } = SM_CHARTS.endpoints.schema.parse(await res.json());
      if (endpointCapacityFigure(rows).series[0].points.filter(([, v]) => v !== null).length >= 2) {
        capacityRun = r.id;
        break;
      }
    }
    expect(capacityRun).toBeDefined();
    const wide = await wideRun();

    /** The plot, the value axis's ticks, the categories' names and the bars and labels, as laid out. */
    const layout = (chart: Locator) =>
      chart.evaluate((fig) => {
        const box = (e: Element) => {
          const r = e.getBoundingClientRect();
          return {
            left: r.left,
            right: r.right,
            top: r.top,
            bottom: r.bottom,
            width: r.width,
            height: r.height,
          };
        };
        const svg = fig.querySelector(".recharts-wrapper > svg.recharts-surface")!;
        // The plot's box: the rectangle the chart clips its marks to.
        const clip = svg.querySelector("defs clipPath rect");
        const origin = svg.getBoundingClientRect();
        const texts = (sel: string) =>
          [...svg.querySelectorAll(sel)]
            .filter((t) => (t.textContent ?? "").trim() !== "")
            .map((t) => ({ t: (t.textContent ?? "").replace(/\u00a0/g, " ").trim(), r: box(t) }));
        return {
          frame: box(svg),
          plot: clip
            ? {
                left: origin.left + Number(clip.getAttribute("x")),
                width: Number(clip.getAttribute("width")),
              }
            : null,
          ticks: texts(".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value"),
          names: texts(".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value"),
          labels: texts(".recharts-label-list text"),
          bars: [...svg.querySelectorAll(".recharts-bar-rectangle path, .recharts-bar-rectangle rect")]
            .filter((e) => e.getAttribute("fill") !== "transparent")
            .map(box)
            .filter((r) => r.width > 0 && r.height > 0),
        };
      });
    const inside = (r: Box, frame: Box) =>
      r.left >= frame.left - 0.5 &&
      r.right <= frame.right + 0.5 &&
      r.top >= frame.top - 0.5 &&
      r.bottom <= frame.bottom + 0.5;

    async function readable(chart: Locator, where: string, narrow: boolean) {
      await chart.waitFor({ timeout: 60_000 });
      await chart.scrollIntoViewIfNeeded();
      await chart.locator(".recharts-bar-rectangle").first().waitFor({ timeout: 60_000 });
      const l = await layout(chart);
      const say = (x: { t: string }[]) => x.map((v) => v.t).join(" | ");
      // Ticks on the value axis, each clear of the next by 2 px, inside the drawing.
      expect(l.ticks.length, `${where}: ticks ${say(l.ticks)}`).toBeGreaterThanOrEqual(1);
      const ticks = [...l.ticks].sort((a, b) => a.r.left - b.r.left);
      for (let i = 1; i < ticks.length; i++)
        expect(
          ticks[i].r.left - ticks[i - 1].r.right,
          `${where}: tick "${ticks[i - 1].t}" and "${ticks[i].t}" touch (${say(ticks)})`,
        ).toBeGreaterThanOrEqual(2);
      for (const x of [...l.ticks, ...l.labels, ...l.names])
        expect(inside(x.r, l.frame), `${where}: "${x.t}" leaves the drawing`).toBe(true);
      // A name is on no bar and on no other name.
      for (const n of l.names)
        for (const b of l.bars) expect(overlap(n.r, b), `${where}: name "${n.t}" on a bar`).toBe(false);
      for (let i = 0; i < l.names.length; i++)
        for (let j = i + 1; j < l.names.length; j++)
          expect(
            overlap(l.names[i].r, l.names[j].r),
            `${where}: "${l.names[i].t}" on "${l.names[j].t}"`,
          ).toBe(false);
      // The plot at least half the drawing's width.
      expect(l.plot, where).not.toBeNull();
      if (narrow)
        expect(
          l.plot!.width,
          `${where}: plot ${Math.round(l.plot!.width)} of ${Math.round(l.frame.width)} px`,
        ).toBeGreaterThanOrEqual(0.5 * l.frame.width);
      return l;
    }

    await looks.forEachLook(breakdownOfRequest7(biggest.id), async (page, look) => {
      const where = `waterfall ${look.width} ${look.scheme}`;
      const chart = page.locator('figure[data-chart$="-waterfall"]');
      await expectOneLabelPerBar(chart, where, true);
      await readable(chart, where, look.width < 640);
      await shot(chart, `phone-waterfall-${look.scheme}-${look.width}.png`);
    });
    await looks.forEachLook(
      `${t.app.url}/compare?runs=${bySize.map((r) => r.id).join(",")}`,
      async (page, look) => {
        const where = `compare segments ${look.width} ${look.scheme}`;
        const chart = page.locator('figure[data-chart^="compare-segments-"]');
        const sums = await expectOneLabelPerBar(chart, where, true);
        // On a phone the runs are named above their stacks, as on the waterfall: beside them they
        // took most of the width and left the 14 bands a 90 px plot.
        const l = await readable(chart, where, look.width < 640);
        // The scale ends on the first round tick at or past the longest stack's Σ (it ran to
        // 2,000 ms for a 991.5 ms stack when the bands' minimum length had 90 px to fit in).
        const ms = (t: string) => {
          const [n, unit] = t.replace(/^Σ /, "").split(" ");
          return Number(n.replace(/,/g, "")) * (unit === "s" ? 1000 : 1);
        };
        const longest = Math.max(...sums.map(ms));
        const ticks = l.ticks.map((x) => ms(x.t)).sort((a, b) => a - b);
        const step = ticks[ticks.length - 1] - ticks[ticks.length - 2];
        expect(
          ticks[ticks.length - 1],
          `${where}: ${l.ticks.map((x) => x.t).join(" | ")}`,
        ).toBeGreaterThanOrEqual(longest);
        expect(
          ticks[ticks.length - 1] - step,
          `${where}: ${l.ticks.map((x) => x.t).join(" | ")} for Σ ${longest} ms`,
        ).toBeLessThan(longest);
        if (look.width < 640) expect(l.names.length, `${where}: a name above each stack`).toBe(sums.length);
        await shot(chart, `phone-compare-segments-${look.scheme}-${look.width}.png`);
      },
    );
    await looks.forEachLook(`${t.app.url}/runs/${capacityRun}?view=kv`, async (page, look) => {
      const where = `kv capacity ${look.width} ${look.scheme}`;
      const chart = page.locator('figure[data-chart="endpoint-kv-capacity"]');
      await expectOneLabelPerBar(chart, where, true);
      await readable(chart, where, look.width < 640);
      await shot(chart, `phone-kv-capacity-${look.scheme}-${look.width}.png`);
    });
    await looks.forEachLook(`${t.app.url}/runs/${wide.id}?view=kv`, async (page, look) => {
      const chart = page.locator('figure[data-chart="endpoint-kv-capacity"]');
      for (const scale of ["linear", "log"] as const) {
        const where = `kv capacity spanning decades, ${scale}, ${look.width} ${look.scheme}`;
        if (scale === "log") await pickScale(chart, "log");
        const texts = await expectOneLabelPerBar(chart, where, true);
        const l = await readable(chart, where, look.width < 640);
        // On a phone the largest reads "1.28 B tokens"; wide, the exact count.
        expect(texts, where).toContain(look.width < 640 ? "1.28 B tokens" : "1,280,000,000 tokens");
        expect(l.names.length, where).toBe(l.bars.length);
        await shot(chart, `phone-kv-capacity-decades-${scale}-${look.scheme}-${look.width}.png`);
      }
      // Linear again for the next look, as the page was loaded.
      await pickScale(chart, "linear");
    });
  }, 900_000);
});
