import { describe, expect, it } from "vitest";
import type { Locator } from "playwright-core";
import { MIN_BAR_PX } from "@/lib/metrics/bar-labels";
import { forEachLook, shot, useAppAndBrowser, gotoHydrated } from "./harness";

const DECODE = '[fill="var(--seg-decode)"]';

/**
 * The segment stack of a statistic as drawn: its bands' left and right edges, the value axis's
 * line (the plot's ends), its ticks (value and x) and the stack's total, from its "Σ" label; x
 * in CSS px.
 */
async function drawnStack(chart: Locator) {
  return chart.evaluate((fig) => {
    const box = (e: Element) => e.getBoundingClientRect();
    const number = (t: string) => Number(t.replace(/[^\d.]/g, ""));
    const bands = [...fig.querySelectorAll(".recharts-bar-rectangle path")]
      .map((p) => box(p))
      .filter((b) => b.width > 0)
      .map((b) => ({ left: b.left, right: b.right, width: b.width }));
    // The plot's box is the rectangle the chart clips its marks to; a tick sits at its text's x
    // (the library writes each tick label at its tick's coordinate, in the drawing's own px).
    const svg = fig.querySelector(".recharts-wrapper > svg.recharts-surface")!;
    const origin = box(svg).left;
    const clip = svg.querySelector("defs clipPath rect")!;
    const plotLeft = origin + Number(clip.getAttribute("x"));
    const line = { left: plotLeft, right: plotLeft + Number(clip.getAttribute("width")) };
    const texts = [
      ...svg.querySelectorAll(".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value"),
    ].filter((t) => (t.textContent ?? "").trim() !== "");
    const ticks = texts.map((t) => ({
      value: number(t.textContent ?? ""),
      unit: /\bs$/.test((t.textContent ?? "").trim()) ? "s" : "ms",
      x: origin + Number(t.getAttribute("x")),
    }));
    const sigma = [...fig.querySelectorAll(".chart-value-label")].map((l) => l.textContent ?? "");
    return { bands, axis: { left: line.left, right: line.right }, ticks, sigma };
  });
}

/** The columns of a chart's "View as table" fallback (the per-request bars are on a canvas). */
async function tableColumns(chart: import("playwright-core").Locator): Promise<string[]> {
  await chart.getByRole("button", { name: "View as table" }).click();
  const headers = chart.locator("table th");
  await headers.first().waitFor();
  const names = (await headers.allTextContents()).map((s) => s.trim());
  await chart.getByRole("button", { name: "View as chart" }).click();
  await chart.locator("canvas[data-canvas-marks]").waitFor();
  return names;
}

describe("breakdown: TTFT segments only, on the TensorRT-LLM example runs", () => {
  const t = useAppAndBrowser({ env: { RUNLENS_EXAMPLES: "on" } });

  it("hides decode in the per-request and share charts, keeps it in the URL, and Back restores it", async () => {
    const { runs } = (await (await fetch(`${t.app.url}/api/runs`)).json()) as {
      runs: Array<{ id: string; kinds: string[]; requestCount: number | null }>;
    };
    // The largest TensorRT-LLM example: its per-request chart has hundreds of bars.
    const run = runs
      .filter((r) => r.kinds.includes("trtllm-perf-metrics"))
      .sort((a, b) => (b.requestCount ?? 0) - (a.requestCount ?? 0))[0];
    expect(run).toBeDefined();
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/runs/${run!.id}?view=breakdown&sort=ttft`);
    const perRequest = page.locator('[data-chart="per-request-breakdown"]');
    const share = page.locator('[data-chart="segment-share-over-time"]');
    await perRequest.locator("canvas[data-canvas-marks]").waitFor({ timeout: 30_000 });
    await share.locator(".recharts-area").first().waitFor({ timeout: 30_000 });
    // The table is the figure's: a column per segment, its unit in the header.
    expect(await tableColumns(perRequest)).toContain("decode (ms)");
    expect(await share.locator(`.recharts-area path${DECODE}`).count()).toBeGreaterThan(0);
    const before = await page.evaluate(() => history.length);

    await perRequest
      .getByRole("group", { name: "segments shown" })
      .getByRole("button", { name: "TTFT segments only" })
      .click();
    await page.waitForURL(/segments=ttft/);
    await perRequest.getByText("decode left out").first().waitFor();
    expect(await share.locator(`${DECODE}`).count()).toBe(0);
    // The headline bar follows: its TTFT segments fill the bar instead of 1–5 px beside decode.
    const headline = page.locator('[data-chart="time-breakdown-ttft-p50"]');
    await headline.getByText("Where the time to first token goes (p50)").waitFor();
    expect(
      await headline.locator(`.recharts-bar-rectangle path${DECODE}, .recharts-bar ${DECODE}`).count(),
    ).toBe(0);
    expect(await headline.locator(".recharts-bar-rectangle").count()).toBeGreaterThan(2);
    expect(
      await headline
        .getByRole("group", { name: "segments shown" })
        .getByRole("button", { name: "TTFT segments only" })
        .getAttribute("aria-pressed"),
    ).toBe("true");
    expect(await page.evaluate(() => history.length)).toBe(before + 1);
    const ttftColumns = await tableColumns(perRequest);
    expect(ttftColumns).not.toContain("decode (ms)");
    expect(ttftColumns.length).toBeGreaterThan(4);

    // The tooltip lists the shown segments in pipeline order, without decode.
    const chart = perRequest.locator("svg.recharts-surface").first();
    const box = (await chart.boundingBox())!;
    await chart.hover({ position: { x: box.width * 0.2, y: box.height * 0.85 } });
    const tip = perRequest.locator(".recharts-tooltip-wrapper li");
    await tip.first().waitFor();
    const names = (await tip.allTextContents()).map((s) =>
      s.replace(/[\d.,]+\s*(ms|s)$|not recorded$/, "").trim(),
    );
    expect(names).not.toContain("decode");
    // In words, as the segment table names them (disagg_preprocessing, ctx_preprocessing).
    expect(names[0]).toMatch(/^(disagg preprocessing|context preprocessing)/);

    // The log axis is a URL step too.
    await perRequest.getByRole("group", { name: "time axis" }).getByRole("button", { name: "log" }).click();
    await page.waitForURL(/scale=log/);
    await perRequest.locator("canvas[data-canvas-marks]").waitFor();

    // A reload keeps the state; Back steps out of the log axis, then out of TTFT-only.
    await page.reload();
    await perRequest.getByText("decode left out").first().waitFor({ timeout: 30_000 });
    await page.goBack();
    await page.waitForURL((u) => !u.search.includes("scale=log"));
    await page.goBack();
    await page.waitForURL((u) => !u.search.includes("segments=ttft"));
    const fullBar = page.locator('[data-chart="time-breakdown-p50"]');
    await fullBar.getByText("Where the time goes (p50)").waitFor();
    expect(await fullBar.locator(`.recharts-bar ${DECODE}`).count()).toBeGreaterThan(0);
    await perRequest.locator("canvas[data-canvas-marks]").waitFor({ timeout: 30_000 });
    expect(await tableColumns(perRequest)).toContain("decode (ms)");
    await page.close();
  });

  it("draws each segment stack no longer than its total, the axis ending on the round tick above it, at 390 and 1440 px", async () => {
    const { runs } = (await (await fetch(`${t.app.url}/api/runs`)).json()) as {
      runs: Array<{ id: string; name: string; kinds: string[] }>;
    };
    const examples = runs.filter((r) => r.kinds.includes("trtllm-perf-metrics"));
    expect(examples.length).toBeGreaterThan(0);
    for (const run of examples)
      await forEachLook(t.browser, `${t.app.url}/runs/${run.id}?view=breakdown`, async (page, look) => {
        const where = `${run.name} at ${look.width} px, ${look.scheme}`;
        const chart = page.locator('figure[data-chart="time-breakdown-p50"]');
        await chart.locator(".recharts-bar-rectangle path").first().waitFor({ timeout: 60_000 });
        const { bands, axis, ticks, sigma } = await drawnStack(chart);
        await shot(chart, `breakdown-stack-${run.id}-${look.scheme}-${look.width}.png`, { fullPage: false });
        expect(sigma, where).toHaveLength(1);
        const total = Number(sigma[0].replace(/[^\d.]/g, "")) * (/ s$/.test(sigma[0]) ? 1000 : 1);
        const scale = ticks[0].unit === "s" ? 1000 : 1;
        const last = ticks.at(-1)!;
        // The axis ends on its last tick, the first round one at or past the stack's total:
        // the scale is not stretched past it for the bands' minimum length.
        expect(Math.abs(axis.right - last.x), where).toBeLessThan(1);
        expect(last.value * scale, where).toBeGreaterThanOrEqual(total);
        expect(ticks.at(-2)!.value * scale, where).toBeLessThan(total);
        // The stack ends where its total is on that axis, never past it, and not short of it.
        const px = (v: number) => ticks[0].x + ((last.x - ticks[0].x) * v) / (last.value * scale);
        const right = Math.max(...bands.map((b) => b.right));
        expect(right, where).toBeLessThanOrEqual(px(total) + 1);
        expect(right, where).toBeGreaterThanOrEqual(px(total) - 1);
        expect(right, where).toBeLessThanOrEqual(axis.right + 0.5);
        // Every segment recorded is still a visible band.
        expect(bands.length, where).toBeGreaterThan(2);
        for (const b of bands) expect(b.width, where).toBeGreaterThanOrEqual(MIN_BAR_PX - 0.5);
      });
    // The report draws the same stacks by the same rule: a look at its stacked rows.
    const report = await (await fetch(`${t.app.url}/api/runs/${examples[0].id}/report.html`)).text();
    for (const [width, height] of [
      [1440, 1100],
      [390, 900],
    ])
      for (const scheme of ["light", "dark"] as const) {
        const context = await t.browser.newContext({ viewport: { width, height }, colorScheme: scheme });
        const page = await context.newPage();
        await page.setContent(report);
        const rows = page.locator('figure[data-chart="trtllm-segments"]').first();
        // Each band stays visible on the phone too: the SVG shrinks to the page's width, and its
        // minimum band, 4 units of 720, was 1.9 px at 390 px.
        const widths = await rows
          .locator("rect.mark")
          .evaluateAll((rs) => rs.map((r) => r.getBoundingClientRect().width));
        expect(widths.length).toBeGreaterThan(2);
        for (const w of widths) expect(w, `report at ${width} px`).toBeGreaterThanOrEqual(MIN_BAR_PX - 0.05);
        await shot(rows, `report-stacked-rows-${scheme}-${width}.png`, { fullPage: false });
        await context.close();
      }
  }, 600_000);
});
