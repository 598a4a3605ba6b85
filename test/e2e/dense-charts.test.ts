import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";

import { apiUpload, gotoHydrated, uploadGeneratedTrtllm, useAppAndBrowser } from "./harness";
import { settleView } from "./view-checks";

// The generated runs follow TensorRT-LLM's perf-metrics records and aiperf's profile_export.jsonl
// (test/generators/trtllm.mjs and aiperf.mjs name the producer sources); 300 requests × 14
// segments, and 1,500 request points, are past the chart kit's dense threshold.

const CHART = '[data-chart="per-request-breakdown"]';
const statButton = (page: Page, s: string) =>
  page.getByRole("group", { name: "statistic" }).getByRole("button", { name: s, exact: true });
const sortButton = (page: Page, s: string) =>
  page.getByRole("group", { name: "sort requests by" }).getByRole("button", { name: s, exact: true });
/** What the per-request tooltip starts with: the request's id, then its segments down to decode. */
const TIP_OF_A_REQUEST = /^(disagg request id|ctx request id|request id|request) \S+.*decode/s;
/**
 * Rests the pointer on the per-request bars at `across` of the canvas's width and near its
 * bottom (every stack starts at 0 there), and returns what the tooltip says ("" while none).
 */
async function hoverBar(page: Page, across: number): Promise<string> {
  const canvas = page.locator(`${CHART} canvas`);
  await canvas.scrollIntoViewIfNeeded();
  const box = (await canvas.boundingBox())!;
  await page.mouse.move(box.x + box.width * across, box.y + box.height * 0.95);
  const tip = page.locator(`${CHART} .recharts-tooltip-wrapper`);
  return (await tip.count()) === 0 ? "" : tip.innerText();
}
const firstTableRequest = async (page: Page) =>
  (await page.locator(`${CHART} [data-testid="chart-table"] tbody tr`).first().innerText()).split("\t")[0];

describe("dense charts: a canvas layer that keeps the chart's function", () => {
  const t = useAppAndBrowser();
  let runUrl = "";
  let aiperfUrl = "";
  /**
   * The generated run's Breakdown view, loaded once for the three tests that want it: each test
   * puts back what it changed (the statistic, the sort, the table, the open request) before it
   * returns.
   */
  let breakdown: Promise<Page> | undefined;
  const breakdownPage = () =>
    (breakdown ??= (async () => {
      const page = await t.browser.newPage({ viewport: { width: 1400, height: 1000 } });
      await gotoHydrated(page, `${runUrl}?view=breakdown`);
      // Done drawing and standing still: the bars are pointed at where they stay.
      await settleView(page);
      return page;
    })());
  afterAll(async () => (await breakdown)?.close());

  beforeAll(async () => {
    const run = await uploadGeneratedTrtllm(
      t.app.url,
      { mode: "disaggregated", requests: 300, seed: 7 },
      { name: "e2e dense" },
    );
    runUrl = `${t.app.url}/runs/${run.id}`;
    const aiperfDir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-e2e-dense-aiperf-"));
    const ai = await generateAiperfRun(aiperfDir, { records: 1500, seed: 3 });
    const records = await apiUpload(t.app.url, [{ path: ai.jsonlPath }], { name: "e2e dense aiperf" });
    aiperfUrl = `${t.app.url}/runs/${records.id}`;
  });

  it("draws the per-request bars on a named canvas, with tooltip and table fallback", async () => {
    const page = await breakdownPage();
    const canvas = page.locator(`${CHART} canvas[data-canvas-marks="bar"]`);
    await canvas.waitFor({ timeout: 30_000 });
    expect(await canvas.getAttribute("role")).toBe("img");
    expect(await canvas.getAttribute("aria-label")).toMatch(/^Per-request breakdown: 300 bars/);
    // No SVG node per bar: the axes, grid and tooltip stay SVG.
    expect(await page.locator(`${CHART} .recharts-bar-rectangle`).count()).toBe(0);
    expect(await page.locator(`${CHART} .recharts-cartesian-axis`).count()).toBeGreaterThan(0);
    const painted = await canvas.evaluate((c: HTMLCanvasElement) => {
      const px = c.getContext("2d")!.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 3; i < px.length; i += 4) if (px[i] > 0) n++;
      return n / (c.width * c.height);
    });
    expect(painted).toBeGreaterThan(0.05);

    await expect.poll(() => hoverBar(page, 0.4)).toMatch(TIP_OF_A_REQUEST);

    await page.locator(CHART).getByRole("button", { name: "View as table" }).click();
    expect(await page.locator(`${CHART} [data-testid="chart-table"] tbody tr`).count()).toBe(300);
    // The chart again, as the page was loaded.
    await page.locator(CHART).getByRole("button", { name: "View as chart" }).click();
    await canvas.waitFor({ timeout: 30_000 });
  });

  it("toggles still change the charts: the statistic, and the sort of the bars", async () => {
    const page = await breakdownPage();
    await page.locator(`${CHART} canvas`).waitFor({ timeout: 30_000 });
    for (const s of ["mean", "p90", "p99"]) {
      await statButton(page, s).click();
      await page.getByText(`Where the time goes (${s})`).waitFor();
      expect(await statButton(page, s).getAttribute("aria-pressed")).toBe("true");
      // The URL is written after the chart renders (the state map updates it asynchronously).
      await expect.poll(() => page.url()).toContain(`stat=${s}`);
    }
    await page.locator(CHART).getByRole("button", { name: "View as table" }).click();
    const byTtft = await firstTableRequest(page);
    await sortButton(page, "end to end").click();
    expect(await sortButton(page, "end to end").getAttribute("aria-pressed")).toBe("true");
    await expect.poll(() => firstTableRequest(page), { timeout: 30_000 }).not.toBe(byTtft);
    await expect.poll(() => page.url()).toContain("sort=e2e");
    // Back to the page as it was loaded: p50, sorted by TTFT, the chart drawn.
    await sortButton(page, "TTFT").click();
    await expect.poll(() => firstTableRequest(page), { timeout: 30_000 }).toBe(byTtft);
    await page.locator(CHART).getByRole("button", { name: "View as chart" }).click();
    await statButton(page, "p50").click();
    await page.getByText("Where the time goes (p50)").waitFor();
    await expect.poll(() => page.url()).not.toMatch(/stat=(?!p50)|sort=(?!ttft)/);
    await page.locator(`${CHART} canvas`).waitFor({ timeout: 30_000 });
  });

  it("opening a request shows its frame at once, then its waterfall", async () => {
    const page = await breakdownPage();
    // The chart opens the bar its tooltip is on: on the settled view (breakdownPage), the pointer
    // rests on a bar until the tooltip names its request, then clicks there (a position measured
    // while the view was still drawing could land off the bars, and the click then opened nothing).
    let named = "";
    await expect.poll(async () => (named = await hoverBar(page, 0.5))).toMatch(TIP_OF_A_REQUEST);
    await page.mouse.down();
    await page.mouse.up();
    const region = page.getByRole("region", { name: "request waterfall" });
    await region
      .getByText("Request detail")
      .waitFor({ timeout: 30_000 })
      .catch(async (e: unknown) => {
        throw new Error(
          `no request frame 30 s after a click on the bar the tooltip named ("${named.split("\n")[0]}"); the page is at ${page.url()}`,
          { cause: e },
        );
      });
    await expect.poll(() => page.url()).toMatch(/[?&]rid=\d+/);
    await region.getByText("waterfall").first().waitFor({ timeout: 30_000 });
    // Closed again, as the page was loaded.
    await region.getByRole("button", { name: "Close", exact: true }).click();
    await expect.poll(() => page.url()).not.toMatch(/[?&]rid=/);
  });

  it("draws a dense scatter on a named canvas that still reads out the hovered point", async () => {
    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await gotoHydrated(page, `${aiperfUrl}?view=latency`);
    const chart = page.locator('[data-chart="latency-over-time"]');
    const canvas = chart.locator('canvas[data-canvas-marks="scatter"]');
    await canvas.waitFor({ timeout: 30_000 });
    expect(await canvas.getAttribute("aria-label")).toMatch(/over time: 1,500 points/);
    expect(await chart.locator(".recharts-symbols").count()).toBe(0);
    await canvas.scrollIntoViewIfNeeded();
    // Sweep the plot until the pointer is over a point: its coordinates appear beside it.
    const box = (await canvas.boundingBox())!;
    const readout = chart.locator("[data-point-readout]");
    for (let i = 0; i < 40 && (await readout.count()) === 0; i++)
      await page.mouse.move(
        box.x + box.width * (0.2 + i * 0.015),
        box.y + box.height * (0.5 + (i % 8) * 0.06),
      );
    expect(await readout.locator("foreignObject > div").innerText()).toMatch(
      /^request start: .* s\n.*ttft: .*ms$/is,
    );

    await chart.getByRole("button", { name: "View as table" }).click();
    expect(await chart.locator('[data-testid="chart-table"] tbody tr').count()).toBe(1500);
    await page.close();
  });
});
