import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { generateTrtllmRun } from "../generators/trtllm.mjs";
import { apiUpload, useAppAndBrowser } from "./harness";

// The generated run follows TensorRT-LLM's perf-metrics records (test/generators/trtllm.mjs names
// the producer source); 300 requests × 14 segments is past the chart kit's dense threshold.

const CHART = '[data-chart="per-request-breakdown"]';
const statButton = (page: Page, s: string) =>
  page.getByRole("group", { name: "statistic" }).getByRole("button", { name: s, exact: true });
const sortButton = (page: Page, s: string) =>
  page.getByRole("group", { name: "sort requests by" }).getByRole("button", { name: s, exact: true });
const firstTableRequest = async (page: Page) =>
  (await page.locator(`${CHART} [data-testid="chart-table"] tbody tr`).first().innerText()).split("\t")[0];

describe("dense charts: a canvas layer that keeps the chart's function", () => {
  const t = useAppAndBrowser();
  let runUrl = "";

  beforeAll(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-e2e-dense-"));
    const gen = generateTrtllmRun({ dir, mode: "disaggregated", requests: 300, seed: 7 });
    const run = await apiUpload(
      t.app.url,
      gen.files.map((p) => ({ path: p })),
      { name: "e2e dense" },
    );
    runUrl = `${t.app.url}/runs/${run.id}`;
  });

  it("draws the per-request bars on a named canvas, with tooltip and table fallback", async () => {
    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${runUrl}?view=breakdown`);
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

    await canvas.scrollIntoViewIfNeeded();
    const box = (await canvas.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.4, box.y + box.height * 0.95);
    const tip = page.locator(`${CHART} .recharts-tooltip-wrapper`);
    await expect.poll(() => tip.innerText()).toMatch(/^request .*decode/s);

    await page.locator(CHART).getByRole("button", { name: "View as table" }).click();
    expect(await page.locator(`${CHART} [data-testid="chart-table"] tbody tr`).count()).toBe(300);
    await page.close();
  });

  it("toggles still change the charts: the statistic, and the sort of the bars", async () => {
    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${runUrl}?view=breakdown`);
    await page.locator(`${CHART} canvas`).waitFor({ timeout: 30_000 });
    for (const s of ["mean", "p90", "p99"]) {
      await statButton(page, s).click();
      await page.getByText(`Where the time goes (${s})`).waitFor();
      expect(await statButton(page, s).getAttribute("aria-pressed")).toBe("true");
      expect(page.url()).toContain(`stat=${s}`);
    }
    await page.locator(CHART).getByRole("button", { name: "View as table" }).click();
    const byTtft = await firstTableRequest(page);
    await sortButton(page, "end to end").click();
    expect(await sortButton(page, "end to end").getAttribute("aria-pressed")).toBe("true");
    await expect.poll(() => firstTableRequest(page), { timeout: 30_000 }).not.toBe(byTtft);
    expect(page.url()).toContain("sort=e2e");
    await page.close();
  });

  it("opening a request shows its frame at once, then its waterfall", async () => {
    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${runUrl}?view=breakdown`);
    const canvas = page.locator(`${CHART} canvas`);
    await canvas.waitFor({ timeout: 30_000 });
    await canvas.scrollIntoViewIfNeeded();
    const box = (await canvas.boundingBox())!;
    await page.mouse.click(box.x + box.width * 0.5, box.y + box.height * 0.95);
    const region = page.getByRole("region", { name: "request waterfall" });
    await region.getByText("Request detail").waitFor({ timeout: 30_000 });
    expect(page.url()).toMatch(/req=\d+/);
    await region.getByText("waterfall").first().waitFor({ timeout: 30_000 });
    await page.close();
  });
});
