import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { decodePng, inkPixels } from "../helpers/png";
import { useAppAndBrowser } from "./harness";

const SHOTS = path.join(process.cwd(), "test-results", "screenshots");
const PAD = 16; // the figure's padding (components/charts/export-figure.ts)

async function download(page: Page, button: Locator): Promise<{ name: string; bytes: Buffer }> {
  const [dl] = await Promise.all([page.waitForEvent("download"), button.click()]);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "runlens-dl-")), dl.suggestedFilename());
  await dl.saveAs(file);
  return { name: dl.suggestedFilename(), bytes: fs.readFileSync(file) };
}

async function openChart(browser: Browser, url: string, chart: string, scheme: "light" | "dark") {
  const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await page.goto(url);
  const figure = page.locator(`figure[data-chart="${chart}"]`);
  const surface = figure.locator(".recharts-wrapper > svg.recharts-surface");
  await surface.waitFor();
  const box = await surface.boundingBox();
  if (!box) throw new Error(`${chart} has no plot`);
  return { context, page, figure, box };
}

const svgNumber = (svg: string, attr: string) =>
  Number(new RegExp(`<svg[^>]* ${attr}="([\\d.]+)"`).exec(svg)?.[1]);
const luma = (rgb: ArrayLike<number>) => 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2];

describe("chart export as a figure", () => {
  const t = useAppAndBrowser({ env: { RUNLENS_EXAMPLES: "on" } });

  async function exampleRun(name: RegExp): Promise<string> {
    const { runs } = (await (await fetch(`${t.app.url}/api/runs`)).json()) as {
      runs: Array<{ id: string; name: string }>;
    };
    const run = runs.find((r) => name.test(r.name));
    if (!run) throw new Error(`no example run ${name}`);
    return run.id;
  }

  for (const scheme of ["light", "dark"] as const)
    it(`saves the per-request breakdown as a 2x PNG and an SVG with title, run and segment legend (${scheme})`, async () => {
      const id = await exampleRun(/disaggregated perf metrics/);
      const url = `${t.app.url}/runs/${id}?view=breakdown`;
      const { context, page, figure, box } = await openChart(t.browser, url, "per-request-breakdown", scheme);
      const stem = "tensorrt-llm-disaggregated-perf-metrics-per-request-breakdown";

      const svgFile = await download(page, figure.getByRole("button", { name: "SVG", exact: true }));
      expect(svgFile.name).toBe(`${stem}.svg`);
      const svg = svgFile.bytes.toString("utf8");
      expect(svg).toContain(">Per-request breakdown</text>");
      expect(svg).toContain(">TensorRT-LLM · disaggregated perf metrics</text>");
      // The stacked bars' segments, named in the legend though the page hides its legend for room,
      // in words as the view's segment table names them, never by the upstream key.
      for (const segment of ["context queue", "generation KV transfer", "decode"])
        expect(svg).toContain(`>${segment}</text>`);
      expect(svg).not.toMatch(/>(ctx|gen|disagg)_[a-z_]+</);
      expect(svg).toContain("time (ms)"); // the y axis title with its unit
      expect(svg).toMatch(/@font-face\{font-family:"[^"]*Geist[^"]*";src:url\(data:font\/woff2;base64,/i);

      const pngFile = await download(page, figure.getByRole("button", { name: "PNG", exact: true }));
      expect(pngFile.name).toBe(`${stem}.png`);
      const png = decodePng(pngFile.bytes);
      const [width, height] = [svgNumber(svg, "width"), svgNumber(svg, "height")];
      const [chartTop, legendTop] = [svgNumber(svg, "data-chart-top"), svgNumber(svg, "data-legend-top")];
      // Twice the figure, which is the plot's box plus padding, with title and run name above it
      // and the legend below.
      expect([png.width, png.height]).toEqual([2 * width, 2 * height]);
      expect(width).toBeGreaterThanOrEqual(Math.floor(box.width) + 2 * PAD);
      expect(chartTop).toBeGreaterThanOrEqual(PAD + 22 + 17);
      expect(legendTop - chartTop).toBeGreaterThan(0.8 * box.height);
      expect(height - PAD - legendTop).toBeGreaterThanOrEqual(18);

      const background = Array.from(png.rgba.subarray(0, 3));
      expect(luma(background) > 128).toBe(scheme === "light");
      // Swatches and names in the legend band, and nothing drawn in the bottom padding.
      expect(inkPixels(png, 2 * legendTop, 2 * (height - PAD), background)).toBeGreaterThan(2000);
      expect(inkPixels(png, 2 * height - 8, 2 * height, background)).toBe(0);
      fs.mkdirSync(SHOTS, { recursive: true });
      fs.writeFileSync(path.join(SHOTS, `export-per-request-breakdown-${scheme}.png`), pngFile.bytes);
      await context.close();
    });

  it("names each GPU and its exporter in a GPU chart's legend", async () => {
    // The example whose telemetry overlaps its profiling window (the Qwen sweep's samples all
    // precede its first request, so its GPU view draws no chart).
    const id = await exampleRun(/vLLM-style servers · concurrency 4/);
    const { context, page, figure } = await openChart(
      t.browser,
      `${t.app.url}/runs/${id}?view=gpu`,
      "gpu-powerW",
      "light",
    );
    const svg = await download(page, figure.getByRole("button", { name: "SVG", exact: true }));
    // `<run>-<chart>`: the example's run name, slugged.
    expect(svg.name).toMatch(/^aiperf-[a-z0-9-]*concurrency-4[a-z0-9-]*-gpu-powerW\.svg$/);
    const text = svg.bytes.toString("utf8");
    expect(text).toContain(">GPU power</text>");
    expect(text).toMatch(/>localhost:\d+ · GPU 0 \([^)]*\)<\/text>/);
    expect(text).toContain("power (W)");
    await context.close();
  });
});
