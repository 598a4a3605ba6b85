/**
 * With JavaScript off, every view of every example run shows what the server knows in the page's
 * own HTML (components/run/view-preview.tsx): the view's headline numbers, the tables the summary
 * holds and the figures the server drew, never a bare "Loading this view…". Pinned numbers: the
 * Latency view's statistics are the summary's, its distribution is the server's SVG, and the
 * Breakdown view lists every segment. Screenshots go to RUNLENS_SCREENSHOT_DIR.
 */
import { describe, expect, it } from "vitest";
import { RUN_VIEWS } from "@/lib/api/run-views";
import { runSummarySchema, type RunSummary } from "@/lib/api/schemas";
import { shot, useAppAndBrowser } from "./harness";

describe("run views with JavaScript off", () => {
  const t = useAppAndBrowser({ env: { RUNLENS_EXAMPLES: "on" } });

  async function exampleRuns(): Promise<RunSummary[]> {
    const { runs } = (await (await fetch(`${t.app.url}/api/runs`)).json()) as { runs: Array<{ id: string }> };
    const out: RunSummary[] = [];
    for (const r of runs) {
      let run: RunSummary | null = null;
      await expect
        .poll(
          async () => {
            run = runSummarySchema.parse(await (await fetch(`${t.app.url}/api/runs/${r.id}`)).json());
            return run.status;
          },
          { timeout: 120_000 },
        )
        .toBe("ready");
      out.push(run!);
    }
    return out;
  }

  // Each test loads dozens of server-rendered pages in turn: on a loaded machine that takes minutes.
  it("every view of every example shows its figures, not a loading line", async () => {
    const runs = await exampleRuns();
    expect(runs.length).toBeGreaterThan(5);
    const context = await t.browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 1440, height: 900 },
    });
    const page = await context.newPage();
    let checked = 0;
    for (const run of runs)
      for (const view of RUN_VIEWS) {
        if (!view.hasData(run)) continue;
        await page.goto(`${t.app.url}/runs/${run.id}?view=${view.id}`);
        const panel = page.locator("#run-view-panel");
        // The preview the panel shows without JavaScript, the live view's part hidden.
        const preview = panel.locator('[data-testid="view-preview"]:visible');
        expect(await preview.count(), `${run.name} · ${view.label}`).toBe(1);
        expect(await panel.getByTestId("no-javascript").isVisible()).toBe(true);
        const text = (await panel.innerText()).trim();
        expect(text, `${run.name} · ${view.label}`).not.toContain("Loading this view");
        // Real content: at least one figure with a digit in a tile or a table cell.
        const figures = await preview.locator("[data-testid=preview-tiles] .text-lg, td").allInnerTexts();
        expect(
          figures.some((f) => /\d/.test(f)),
          `${run.name} · ${view.label}: ${text.slice(0, 200)}`,
        ).toBe(true);
        checked++;
      }
    expect(checked).toBeGreaterThan(20);
    await context.close();
  }, 600_000);

  it("follows the system's light or dark preference from the stylesheet alone", async () => {
    const runs = await exampleRuns();
    // The tokens of app/globals.css: the page's background and the bars' colour in each theme.
    const expected = {
      light: { bg: "rgb(248, 250, 252)", bar: "rgb(79, 70, 229)", scheme: "light" },
      dark: { bg: "rgb(11, 17, 32)", bar: "rgb(129, 140, 248)", scheme: "dark" },
    };
    const aiperf = runs.find((r) => r.name.includes("mock-llama-8b"))!;
    for (const scheme of ["dark", "light"] as const) {
      const context = await t.browser.newContext({
        javaScriptEnabled: false,
        viewport: { width: 1440, height: 900 },
        colorScheme: scheme,
      });
      const page = await context.newPage();
      for (const url of ["/", `/runs/${aiperf.id}?view=latency`]) {
        await page.goto(`${t.app.url}${url}`);
        // No script ran: nothing set the theme on <html>.
        expect(await page.locator("html").getAttribute("data-theme")).toBeNull();
        const seen = await page.evaluate(() => ({
          bg: getComputedStyle(document.body).backgroundColor,
          scheme: getComputedStyle(document.documentElement).colorScheme,
        }));
        expect(seen, `${scheme} ${url}`).toEqual({
          bg: expected[scheme].bg,
          scheme: expected[scheme].scheme,
        });
      }
      const bar = page.locator('[data-still="latency-histogram/ttftMs"] svg[data-first-figure] rect').first();
      expect(await bar.evaluate((e) => getComputedStyle(e).fill)).toBe(expected[scheme].bar);
      await context.close();
    }
  });

  it("the Latency and Breakdown views carry the summary's statistics, the server's drawing and every segment", async () => {
    const runs = await exampleRuns();
    const aiperf = runs.find((r) => r.name.includes("mock-llama-8b"))!;
    const trtllm = runs.find((r) => r.name.includes("300 requests (synthetic)"))!;
    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ])
      for (const scheme of ["light", "dark"] as const) {
        const context = await t.browser.newContext({
          javaScriptEnabled: false,
          viewport: { width, height },
          colorScheme: scheme,
        });
        const page = await context.newPage();
        await page.goto(`${t.app.url}/runs/${aiperf.id}?view=latency`);
        const preview = page.locator('#run-view-panel [data-testid="view-preview"]:visible');
        expect(await preview.locator('[data-stat="ttftMs-count"]').innerText()).toBe(
          aiperf.requests!.ttftMs!.count.toLocaleString("en-US"),
        );
        // The server's drawing of the distribution: bars in an SVG, visible without the chart library.
        const still = preview.locator('[data-still="latency-histogram/ttftMs"] svg[data-first-figure]');
        expect(await still.isVisible()).toBe(true);
        expect(await still.locator("rect, path").count()).toBeGreaterThan(5);
        await shot(page, `nojs-latency-${scheme}-${width}.png`);

        await page.goto(`${t.app.url}/runs/${trtllm.id}?view=latency`);
        const trt = page.locator('#run-view-panel [data-testid="view-preview"]:visible');
        expect(await trt.locator('[data-stat="ttftMs-count"]').innerText()).toBe("300");
        // A TensorRT-LLM run's distribution is drawn by the server as aiperf's is.
        const trtStill = trt.locator('[data-still="latency-histogram/ttftMs"] svg[data-first-figure]');
        expect(await trtStill.isVisible()).toBe(true);
        expect(await trtStill.locator("rect").count()).toBeGreaterThan(5);
        await shot(page, `nojs-trtllm-latency-${scheme}-${width}.png`);

        await page.goto(`${t.app.url}/runs/${trtllm.id}?view=breakdown`);
        const rows = page
          .locator('#run-view-panel [data-testid="preview-segments"]:visible')
          .locator("tbody tr");
        expect(await rows.count()).toBe(trtllm.timeBreakdown!.segments.length);
        expect(await rows.first().isVisible()).toBe(true);
        await shot(page, `nojs-breakdown-${scheme}-${width}.png`);
        await context.close();
      }
  }, 600_000);
});
