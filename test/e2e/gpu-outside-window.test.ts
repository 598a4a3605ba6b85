/**
 * A run with GPU telemetry but no sample in its profiling window (the seeded aiperf Qwen runs:
 * their samples were all scraped before the first request) shows one notice on its GPU view that
 * says why, with the samples' count and time range against the window, and no chart frames: it
 * showed three cards, each saying there was nothing to draw (issue 29).
 */
import { describe, expect, it } from "vitest";
import { AIPERF_CHARTS } from "@/lib/api/chart-catalog";
import { gpuPayloadSchema } from "@/lib/api/aiperf-charts";
import { gotoHydrated, seededExampleRuns, useAppAndBrowser, type ListedRun } from "./harness";

describe("GPU view of a run whose telemetry lies outside its window", () => {
  const t = useAppAndBrowser({ env: { RUNLENS_EXAMPLES: "on" } });

  it("shows one notice with the samples' count and span, and no empty chart", async () => {
    const runs = await seededExampleRuns(t.app.url);
    const outside: Array<{ run: ListedRun; samples: number }> = [];
    for (const run of runs.filter((r) => /aiperf/.test(r.name))) {
      const res = await fetch(`${t.app.url}/api/runs/${run.id}/charts/${AIPERF_CHARTS.gpu.key}`);
      if (!res.ok) continue;
      const gpu = gpuPayloadSchema.parse(await res.json());
      if (gpu.window && gpu.window.samples > 0 && gpu.window.outside === gpu.window.samples)
        outside.push({ run, samples: gpu.window.samples });
    }
    // The premise: the seeded Qwen runs' telemetry all precedes them.
    expect(outside.length, runs.map((r) => r.name).join(", ")).toBeGreaterThan(0);
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    for (const { run, samples } of outside) {
      await gotoHydrated(page, `${t.app.url}/runs/${run.id}?view=gpu`);
      const notice = page.getByTestId("gpu-outside-window");
      await notice.waitFor({ timeout: 60_000 });
      const text = await notice.innerText();
      expect(text, run.name).toContain(`${samples} GPU telemetry samples`);
      expect(text).toMatch(/taken from −?[\d,.]+ s to −?[\d,.]+ s, all before the first profiling request/);
      expect(text).toMatch(/the window runs from 0 s to [\d,.]+ s/);
      // One answer: no chart frames, no energy line that repeats the reason.
      const panel = page.getByRole("tabpanel");
      await page.waitForLoadState("networkidle", { timeout: 60_000 });
      expect(await panel.locator("figure[data-chart]").count(), run.name).toBe(0);
      expect(await panel.getByTestId("gpu-energy").count()).toBe(0);
      expect(await panel.getByText(/nothing to draw|none is drawn|Every telemetry sample/i).count()).toBe(0);
    }
    await page.close();
  }, 600_000);
});
