/**
 * The Overview's one chart: the Latency view's TTFT histogram (the same figure description), drawn
 * by the server in the page's HTML before hydration (lib/runs/first-figures.ts), replaced by the
 * interactive chart, at 1440 and 390 px in light and dark, across the view's width with a link to
 * the Latency view below it; a run without per-request latency says in a line what is missing (no
 * frame, no 0).
 */
import type { Browser, BrowserContextOptions } from "playwright-core";
import { describe, expect, it } from "vitest";
import { distributionPayloadSchema } from "@/lib/api/aiperf-charts";
import { AIPERF_CHARTS, TRTLLM_CHARTS } from "@/lib/api/chart-catalog";
import { expectFitsEachLook, forEachLook, gotoHydrated, shot, useAppAndBrowser } from "./harness";

const CHART = '[data-testid="overview-chart"]';
const HISTOGRAM = `${CHART} [data-chart="latency-histogram"]`;

async function exampleId(url: string, includes: string): Promise<string> {
  const { runs } = (await (await fetch(`${url}/api/runs`)).json()) as {
    runs: Array<{ id: string; name: string }>;
  };
  const run = runs.find((r) => r.name.includes(includes));
  if (!run) throw new Error(`no example run named like "${includes}"`);
  return run.id;
}

/** A page that gets the HTML but none of the app's script files: it shows the page as sent. */
async function unhydratedPage(browser: Browser, options: BrowserContextOptions) {
  const context = await browser.newContext(options);
  await context.route("**/_next/static/**/*.js", (route) => route.abort());
  return { context, page: await context.newPage() };
}

describe("the Overview's latency chart", () => {
  const env = useAppAndBrowser({ env: { RUNLENS_EXAMPLES: "on" } });

  it("is the TTFT histogram of every aiperf record, drawn before hydration and then by the chart library", async () => {
    const id = await exampleId(env.app.url, "mock-llama-8b");
    const payload = distributionPayloadSchema.parse(
      await (await fetch(`${env.app.url}/api/runs/${id}/charts/${AIPERF_CHARTS.distribution.key}`)).json(),
    );
    const ttft = payload.metrics.ttftMs!;
    const url = `${env.app.url}/runs/${id}`;
    const html = await (await fetch(url)).text();
    expect(html).toContain(`data-first-figure="latency-histogram" data-bars="${ttft.bins.length}"`);
    // Only the histogram: the Overview has one chart.
    expect(html).not.toContain('data-first-figure="latency-cdf"');

    const { context, page: before } = await unhydratedPage(env.browser, {
      viewport: { width: 1440, height: 1000 },
    });
    await before.goto(url);
    const still = before.locator("svg[data-first-figure]");
    await expect.poll(() => still.first().isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await still.locator("rect").count()).toBe(ttft.bins.length);
    expect(await still.locator("text").allTextContents()).toEqual(
      expect.arrayContaining(["Time to first token (ms)", "requests", "p50", "p99"]),
    );
    await shot(before, "overview-chart-unhydrated-light-1440.png");
    await context.close();

    // Without JavaScript the Overview's preview carries the same drawing (components/run/view-preview.tsx).
    const nojs = await env.browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 390, height: 900 },
    });
    const plain = await nojs.newPage();
    await plain.goto(url);
    const preview = plain.locator('#run-view-panel [data-testid="view-preview"]:visible');
    const drawn = preview.locator('[data-still="latency-histogram/ttftMs"] svg[data-first-figure]');
    expect(await drawn.isVisible()).toBe(true);
    expect(await drawn.locator("rect").count()).toBe(ttft.bins.length);
    await nojs.close();

    await forEachLook(env.browser, url, async (page, look) => {
      const figure = page.locator(HISTOGRAM);
      await figure.locator(".recharts-surface").waitFor({ timeout: 30_000 });
      await expect.poll(() => page.locator("svg[data-first-figure]").count()).toBe(0);
      // Every record of the run (no sample): no sample note.
      expect(await page.getByTestId("overview-chart-sample").count()).toBe(0);
      const fits = await page
        .locator(CHART)
        .evaluate(
          (e) => e.scrollWidth <= e.clientWidth && e.getBoundingClientRect().right <= window.innerWidth,
        );
      expect(fits, `fits at ${look.width} px, ${look.scheme}`).toBe(true);
      // The chart spans the view's width, what it is drawn from and the link below it: beside
      // it, at 1440 px the chart had half the width and the text a column of its own.
      const layout = await page.locator(CHART).evaluate((section) => {
        const box = (e: Element | null) => e?.getBoundingClientRect() ?? null;
        return {
          section: box(section)!,
          figure: box(section.querySelector('[data-chart="latency-histogram"]'))!,
          link: box(section.querySelector('[data-testid="overview-chart-link"]')),
        };
      });
      expect(layout.figure.width, `chart width at ${look.width} px`).toBeGreaterThanOrEqual(
        layout.section.width - 1,
      );
      expect(layout.link, "the link to the Latency view").not.toBeNull();
      expect(layout.link!.top, `link below the chart at ${look.width} px`).toBeGreaterThanOrEqual(
        layout.figure.bottom,
      );
      await shot(page, `overview-chart-${look.scheme}-${look.width}.png`);
    });
  });

  it("opens the Latency view from its link", async () => {
    const id = await exampleId(env.app.url, "mock-llama-8b");
    const page = await env.browser.newPage();
    await gotoHydrated(page, `${env.app.url}/runs/${id}`);
    await page.getByTestId("overview-chart-link").click();
    await page.waitForURL(/view=latency/, { timeout: 30_000 });
    await page.locator('[data-chart="latency-cdf"]').waitFor({ timeout: 30_000 });
    expect(await page.getByRole("tab", { name: "Latency" }).getAttribute("aria-selected")).toBe("true");
    await page.close();
  });

  it("draws a TensorRT-LLM run's TTFT from its perf metrics", async () => {
    const id = await exampleId(env.app.url, "300 requests (synthetic)");
    const payload = distributionPayloadSchema.parse(
      await (
        await fetch(`${env.app.url}/api/runs/${id}/charts/${TRTLLM_CHARTS.latencyDistribution.key}`)
      ).json(),
    );
    const html = await (await fetch(`${env.app.url}/runs/${id}`)).text();
    expect(html).toContain(
      `data-first-figure="latency-histogram" data-bars="${payload.metrics.ttftMs!.bins.length}"`,
    );
    const page = await env.browser.newPage({ viewport: { width: 390, height: 900 } });
    await gotoHydrated(page, `${env.app.url}/runs/${id}`);
    await page.locator(`${HISTOGRAM} .recharts-surface`).waitFor({ timeout: 30_000 });
    await expectFitsEachLook(page, page.locator(CHART), "overview-chart-trtllm");
    await page.close();
  });

  it("says what is missing for a run without per-request latency, with no frame and no 0", async () => {
    const id = await exampleId(env.app.url, "CPU and fs tiers");
    const page = await env.browser.newPage();
    await gotoHydrated(page, `${env.app.url}/runs/${id}`);
    const missing = page.getByTestId("overview-chart-missing");
    await missing.waitFor({ timeout: 30_000 });
    const text = (await missing.textContent()) ?? "";
    expect(text).toContain("No latency distribution for this run");
    expect(text).toContain("profile_export.jsonl");
    expect(text).not.toMatch(/\b0\b/);
    expect(await page.locator(`${CHART} [data-chart]`).count()).toBe(0);
    expect(await page.locator(`${CHART} svg`).count()).toBe(0);
    await expectFitsEachLook(page, page.locator(CHART), "overview-chart-missing");
    await page.close();
  });
});
