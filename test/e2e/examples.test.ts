import { describe, expect, it } from "vitest";
import { useAppAndBrowser } from "./harness";

/** The seeded real aiperf example, opened as a newcomer would: its Throughput and Latency views. */
describe("the real aiperf example", () => {
  const env = useAppAndBrowser({ env: { RUNLENS_EXAMPLES: "on" } });

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
    expect(labels).toEqual(
      expect.arrayContaining([
        "time from the first request (s)",
        "output tokens (tok/s)",
        "requests (req/s)",
      ]),
    );
    // Nice ticks on the token axis: evenly spaced round numbers with thousands separators, no
    // scientific notation.
    const ticks = await chart
      .locator(".recharts-yAxis-tick-labels")
      .first()
      .locator(".recharts-cartesian-axis-tick-value")
      .allTextContents();
    expect(ticks.length).toBeGreaterThan(2);
    expect(ticks.every((t) => /^\d{1,3}(,\d{3})*$/.test(t))).toBe(true);
    const values = ticks.map((t) => Number(t.replace(/,/g, "")));
    const steps = values.slice(1).map((v, i) => v - values[i]);
    expect(new Set(steps).size).toBe(1);
    await page.close();
  });

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
      expect(await page.locator('[data-stat="summary-ttftMs-count"]').textContent()).toBe("64");
    }
    await page.close();
  });
});
