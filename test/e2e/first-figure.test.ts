/**
 * The Latency view's first figures are in the run page's HTML, drawn by the server
 * (lib/runs/first-figures.ts): before the page's scripts have loaded and hydrated it, the reader
 * sees the histogram and the CDF of the stored distribution; once hydrated, Recharts draws the
 * charts in the same boxes and the server's drawings go. The run is the example aiperf run at
 * concurrency 4 (lib/examples/files/aiperf-vllm-c4).
 *
 * "Before hydration" is a page whose script files are never served: the HTML's own inline
 * scripts run (the theme, and React's placing of the view's streamed part, which arrives in the
 * same response as a hidden segment), React never starts. With JavaScript off altogether that
 * segment stays hidden and the panel shows the view's preview from the summary, with these same
 * drawings (components/run/view-preview.tsx, test/e2e/no-javascript.test.ts).
 */
import path from "node:path";
import type { Browser, BrowserContextOptions } from "playwright-core";
import { describe, expect, it } from "vitest";
import { distributionPayloadSchema } from "@/lib/api/aiperf-charts";
import { AIPERF_CHARTS } from "@/lib/api/chart-catalog";
import { apiUpload, gotoHydrated, shot, useAppAndBrowser } from "./harness";

const C4 = path.resolve(__dirname, "../../lib/examples/files/aiperf-vllm-c4");
const HISTOGRAM = '[data-chart="latency-histogram"]';
const CDF = '[data-chart="latency-cdf"]';

/** A page that gets the HTML but none of the app's script files: it shows the page as sent. */
async function unhydratedPage(browser: Browser, options: BrowserContextOptions) {
  const context = await browser.newContext(options);
  await context.route("**/_next/static/**/*.js", (route) => route.abort());
  const page = await context.newPage();
  return { context, page };
}

describe("the Latency view's first figures before and after hydration", () => {
  const t = useAppAndBrowser();

  it("are drawn by the server, visible before hydration, and replaced by the charts in the same box", async () => {
    const { id } = await apiUpload(t.app.url, [
      { path: path.join(C4, "profile_export.jsonl") },
      { path: path.join(C4, "profile_export_aiperf.json") },
    ]);
    const key = AIPERF_CHARTS.distribution.key;
    const payload = distributionPayloadSchema.parse(
      await (await fetch(`${t.app.url}/api/runs/${id}/charts/${key}`)).json(),
    );
    const ttft = payload.metrics.ttftMs!;
    const url = `${t.app.url}/runs/${id}?view=latency`;

    // The HTML as sent: one bar per bin, one step per CDF point.
    const html = await (await fetch(url)).text();
    expect(html).toContain(`data-first-figure="latency-histogram" data-bars="${ttft.bins.length}"`);
    expect(html).toContain(`data-first-figure="latency-cdf" data-points="${ttft.cdf.length}"`);

    // Before hydration: both drawings are on screen, in the charts' plot boxes.
    const { context: still, page: before } = await unhydratedPage(t.browser, {
      viewport: { width: 1440, height: 1000 },
    });
    await before.goto(url);
    const histogram = before.locator(`${HISTOGRAM} svg[data-first-figure]`);
    await expect.poll(() => histogram.isVisible()).toBe(true);
    expect(await before.locator(`${CDF} svg[data-first-figure]`).isVisible()).toBe(true);
    expect(await histogram.locator("rect").count()).toBe(ttft.bins.length);
    const texts = await histogram.locator("text").allTextContents();
    expect(texts).toEqual(expect.arrayContaining(["Time to first token (ms)", "requests", "p50", "p99"]));
    // Nothing of React or Recharts: the figure is the server's.
    expect(await before.locator("html[data-hydrated]").count()).toBe(0);
    expect(await before.locator(`${HISTOGRAM} .recharts-surface`).count()).toBe(0);
    const boxBefore = await before.locator(`${HISTOGRAM} [data-plot]`).boundingBox();
    const figureBefore = await before.locator(HISTOGRAM).boundingBox();
    await shot(before, "first-figure-unhydrated-light-1440.png");
    await still.close();

    // With JavaScript: Recharts draws in the same box and the server's drawing is gone.
    const live = await t.browser.newContext({ viewport: { width: 1440, height: 1000 } });
    const after = await live.newPage();
    await gotoHydrated(after, url);
    await after.locator(`${HISTOGRAM} .recharts-surface`).waitFor({ timeout: 30_000 });
    await after.locator(`${CDF} .recharts-surface`).waitFor({ timeout: 30_000 });
    await expect.poll(() => after.locator("svg[data-first-figure]").count()).toBe(0);
    const boxAfter = await after.locator(`${HISTOGRAM} [data-plot]`).boundingBox();
    const figureAfter = await after.locator(HISTOGRAM).boundingBox();
    expect(boxAfter?.height).toBe(boxBefore?.height);
    expect(boxAfter?.width).toBe(boxBefore?.width);
    expect(figureAfter?.height).toBe(figureBefore?.height);
    await shot(after, "first-figure-js-1440.png");
    await live.close();
  });

  it("draws the phone's ticks and the dark theme before hydration", async () => {
    const { id } = await apiUpload(t.app.url, [
      { path: path.join(C4, "profile_export.jsonl") },
      { path: path.join(C4, "profile_export_aiperf.json") },
    ]);
    const url = `${t.app.url}/runs/${id}?view=latency`;
    for (const [colorScheme, width] of [
      ["light", 390],
      ["dark", 390],
      ["dark", 1440],
    ] as const) {
      const { context, page } = await unhydratedPage(t.browser, {
        colorScheme,
        viewport: { width, height: 900 },
      });
      await page.goto(url);
      const figure = page.locator(`${HISTOGRAM} svg[data-first-figure]`);
      await expect.poll(() => figure.isVisible()).toBe(true);
      // One set of x ticks shows: the phone's across a phone, the wide one otherwise.
      const wide = await figure.locator(".first-figure-wide").isVisible();
      const narrow = await figure.locator(".first-figure-narrow").isVisible();
      expect([wide, narrow]).toEqual(width < 640 ? [false, true] : [true, false]);
      await shot(page, `first-figure-unhydrated-${colorScheme}-${width}.png`);
      await context.close();
    }
  });
});
