import { afterAll, describe, expect, it } from "vitest";
import { lookPages, shot, useAppAndBrowser } from "./harness";

/** The seeded real aiperf example, opened as a newcomer would: its Throughput and Latency views. */
describe("the real aiperf example", () => {
  const env = useAppAndBrowser({ env: { RUNLENS_EXAMPLES: "on" } });
  // Each view loaded once and looked at in every look (light and dark, 1440 and 390 px).
  const looks = lookPages(() => env.browser);
  afterAll(() => looks.close());

  async function exampleId(): Promise<string> {
    const res = await fetch(`${env.app.url}/api/runs?label=aiperf`);
    const { runs } = (await res.json()) as { runs: Array<{ id: string; name: string }> };
    // The real aiperf 0.6.0 run with every request (not the qwen sweep's c4, whose records are a sample).
    return runs.find((r) => r.name.includes("mock-llama-8b"))!.id;
  }

  it("titles both throughput axes with their units", async () => {
    const page = await env.browser.newPage();
    await page.goto(`${env.app.url}/runs/${await exampleId()}?view=throughput`);
    const chart = page.locator('[data-chart="throughput-over-time"]');
    await chart.locator(".recharts-label").first().waitFor({ timeout: 15_000 });
    const labels = await chart.locator(".recharts-label").allTextContents();
    // The metric catalog's words (lib/api/metric-catalog.ts), as the report writes them.
    expect(labels).toEqual(
      expect.arrayContaining([
        "time from the first request (s)",
        "Output token throughput (tok/s)",
        "Request throughput (req/s)",
      ]),
    );
    // Nice ticks on each axis: evenly spaced round numbers with thousands separators and the
    // axis's unit, no scientific notation.
    for (const [i, unit] of [
      [0, "tok/s"],
      [1, "req/s"],
    ] as const) {
      const ticks = await chart
        .locator(".recharts-yAxis-tick-labels")
        .nth(i)
        .locator(".recharts-cartesian-axis-tick-value")
        .allTextContents();
      expect(ticks.length, unit).toBeGreaterThan(2);
      expect(
        ticks.every((t) => new RegExp(`^\\d{1,3}(,\\d{3})*(\\.\\d+)? ${unit}$`).test(t)),
        ticks.join(" | "),
      ).toBe(true);
      const values = ticks.map((t) => Number(t.replace(/,/g, "").split(" ")[0]));
      const steps = values.slice(1).map((v, k) => Number((v - values[k]).toFixed(6)));
      expect(new Set(steps).size, ticks.join(" | ")).toBe(1);
    }
    await page.close();
  });

  it("draws the throughput and the latency per timeslice with a whole right axis, at 1440 and 390 px, light and dark", async () => {
    const id = await exampleId();
    const charts = [
      ["throughput", "throughput-over-time", "Request throughput (req/s)"],
      ["latency", "latency-timeslices", "E2E latency (ms)"],
    ] as const;
    for (const [view, name, rightTitle] of charts)
      await looks.forEachLook(`${env.app.url}/runs/${id}?view=${view}`, async (page, look) => {
        const chart = page.locator(`[data-chart="${name}"]`);
        const title = chart.locator(".recharts-label", { hasText: rightTitle });
        await title.waitFor({ timeout: 30_000 });
        const where = `${name} at ${look.width} px, ${look.scheme}`;
        await chart.scrollIntoViewIfNeeded();
        await shot(chart, `${name}-${look.scheme}-${look.width}.png`, { settleMs: 600 });
        // The right axis's title and every tick inside the drawing, the title clear of the ticks.
        const boxes = await chart.evaluate((figure, text) => {
          // The plot's drawing (the legend's icons are small drawings of their own).
          const plot = figure.querySelector(".recharts-wrapper > svg.recharts-surface")!;
          const box = (e: Element) => {
            const r = e.getBoundingClientRect();
            return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
          };
          const label = [...figure.querySelectorAll(".recharts-label")].find((e) => e.textContent === text)!;
          const ticks = [...figure.querySelectorAll(".recharts-yAxis-tick-labels")][1];
          return {
            svg: box(plot),
            title: box(label),
            ticks: [...(ticks?.querySelectorAll("text") ?? [])].map(box),
          };
        }, rightTitle);
        expect(boxes.ticks.length, where).toBeGreaterThan(2);
        for (const b of [boxes.title, ...boxes.ticks]) {
          expect(b.left, where).toBeGreaterThanOrEqual(boxes.svg.left - 0.5);
          expect(b.right, where).toBeLessThanOrEqual(boxes.svg.right + 0.5);
          expect(b.top, where).toBeGreaterThanOrEqual(boxes.svg.top - 0.5);
          expect(b.bottom, where).toBeLessThanOrEqual(boxes.svg.bottom + 0.5);
        }
        for (const t of boxes.ticks) expect(t.right, where).toBeLessThanOrEqual(boxes.title.left + 0.5);
        // Two lines on the right axis are dashed, and their legend names say which axis.
        expect(
          await chart.locator(".recharts-legend-item-text", { hasText: "(right axis)" }).count(),
          where,
        ).toBe(2);
      });
    // Two page loads in four looks each, waiting for their charts: past 120 s on a loaded machine.
  }, 300_000);

  it("opens the Latency view without a disagreement with aiperf's summary", async () => {
    const page = await env.browser.newPage();
    await page.goto(`${env.app.url}/runs/${await exampleId()}?view=latency`);
    await page.locator('[data-chart="latency-histogram"]').waitFor({ timeout: 15_000 });
    await expect.poll(() => page.locator('[data-stat="ttftMs-count"]').textContent()).toBe("198");
    expect(await page.getByTestId("aiperf-disagreement").count()).toBe(0);
    await page.close();
  });

  it("opens the qwen sweep's Latency views with a sample note, not a disagreement", async () => {
    const res = await fetch(`${env.app.url}/api/runs?label=sweep`);
    const { runs } = (await res.json()) as { runs: Array<{ id: string; name: string }> };
    expect(runs).toHaveLength(3);
    const page = await env.browser.newPage();
    for (const run of runs) {
      await page.goto(`${env.app.url}/runs/${run.id}?view=latency`);
      // The records hold 10 of the 64 requests each summary describes.
      const note = page.getByTestId("aiperf-sample");
      await expect
        .poll(() => note.textContent(), { timeout: 15_000 })
        .toContain("sample of 10 of 64 requests");
      expect(await page.getByTestId("aiperf-disagreement").count(), run.name).toBe(0);
      // One table of the run's statistics, aiperf's summary of all 64: not a second copy "(summary)".
      expect(await page.locator('[data-stat="ttftMs-count"]').textContent()).toBe("64");
      expect(await page.getByTestId("aiperf-summary-stats").count(), run.name).toBe(0);
    }
    await page.close();
  });
});
