/**
 * The run page's Trace and Report buttons, and the report opened from disk in headless Chromium
 * with every request aborted: it must need none, and it must draw every chart the run has.
 * The trace cannot be loaded into ui.perfetto.dev offline; it is checked against the trace event
 * schema here instead (test/helpers/chrome-trace-schema.ts).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { chartByKey } from "@/lib/api/chart-catalog";
import { expectNamedTracks, expectNestedTracks, traceFileSchema } from "../helpers/chrome-trace-schema";
import { gotoHydrated, openOffline, useAppAndBrowser, shot } from "./harness";

const REPORT_KEYS =
  /^(aiperf-(distribution|over-time|ttft-vs-input|timeline|gpu|timeslices)|trtllm-(?!slowest$)|sm-endpoints$|sm-series-all$)/;

describe("run exports", () => {
  const env = useAppAndBrowser({ env: { RUNLENS_EXAMPLES: "on" } });

  async function examples(): Promise<Array<{ id: string; name: string; labels: string[] }>> {
    const res = await fetch(`${env.app.url}/api/runs`);
    return ((await res.json()) as { runs: Array<{ id: string; name: string; labels: string[] }> }).runs;
  }

  async function storedKeys(id: string): Promise<string[]> {
    const res = await fetch(`${env.app.url}/api/compare?runs=${id}`);
    return ((await res.json()) as { chartKeys: Record<string, string[]> }).chartKeys[id];
  }

  it("the buttons download the trace and the report of an example run", async () => {
    const runs = await examples();
    const trtllm = runs.find((r) => r.labels.includes("trtllm") && r.labels.includes("synthetic"))!;
    const page = await env.browser.newPage({ acceptDownloads: true });
    await page.goto(`${env.app.url}/runs/${trtllm.id}`);
    const trace = page.getByTestId("export-trace");
    const report = page.getByTestId("export-report");
    await report.waitFor({ timeout: 15_000 });
    expect(await trace.getAttribute("href")).toBe(`/api/runs/${trtllm.id}/trace.json`);
    const [download] = await Promise.all([page.waitForEvent("download"), report.click()]);
    expect(download.suggestedFilename()).toMatch(/-report\.html$/);
    const saved = path.join(
      fs.mkdtempSync(path.join(os.tmpdir(), "runlens-dl-")),
      download.suggestedFilename(),
    );
    await download.saveAs(saved);
    expect(fs.readFileSync(saved, "utf8")).toMatch(/^<!doctype html>/);
    const [traceDownload] = await Promise.all([page.waitForEvent("download"), trace.click()]);
    expect(traceDownload.suggestedFilename()).toMatch(/-trace\.json$/);
    const tracePath = path.join(path.dirname(saved), traceDownload.suggestedFilename());
    await traceDownload.saveAs(tracePath);
    // In place of loading it into Perfetto: the file is a valid trace with named, nested tracks.
    const parsed = traceFileSchema.parse(JSON.parse(fs.readFileSync(tracePath, "utf8")));
    expect(parsed.traceEvents.filter((e) => e.ph === "X").length).toBeGreaterThan(0);
    expectNestedTracks(parsed.traceEvents);
    expectNamedTracks(parsed.traceEvents);
    await page.close();
  });

  it("every example's report opens from disk with no request and draws every chart the run has", async () => {
    const runs = await examples();
    expect(runs.length).toBeGreaterThan(2);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-report-e2e-"));
    for (const run of runs) {
      const res = await fetch(`${env.app.url}/api/runs/${run.id}/report.html`);
      expect(res.status).toBe(200);
      const file = path.join(dir, `${run.id}.html`);
      fs.writeFileSync(file, await res.text());
      const { context, page, attempted } = await openOffline(env.browser, file);
      expect(attempted, run.name).toEqual([]);

      const figures = page.locator("figure[data-chart]");
      const drawn = page.locator('figure[data-drawn="true"]');
      const drawnCount = await drawn.count();
      // One SVG per drawn chart, each with marks and a size; the others say what is missing.
      expect(await page.locator("svg").count(), run.name).toBe(drawnCount);
      expect(await page.locator('figure[data-drawn="true"] svg').count(), run.name).toBe(drawnCount);
      expect(await page.locator('figure[data-drawn="false"] [data-missing]').count()).toBe(
        (await figures.count()) - drawnCount,
      );
      for (let i = 0; i < drawnCount; i++) {
        const svg = drawn.nth(i).locator("svg");
        expect(await svg.locator(".mark").count()).toBeGreaterThan(0);
        const box = await svg.boundingBox();
        expect(box!.width).toBeGreaterThan(300);
        expect(box!.height).toBeGreaterThan(60);
      }
      // What the views read from request rows: a TensorRT-LLM run's per-request bars, an aiperf
      // run's summary check and slowest requests.
      if (await page.locator('figure[data-chart="trtllm-segments"]').count())
        expect(
          await page.locator('figure[data-chart="trtllm-request-bars"][data-drawn="true"]').count(),
        ).toBe(1);
      if (await page.locator('figure[data-chart="aiperf-distribution-ttftMs-cdf"]').count())
        expect(await page.locator("h3", { hasText: /^Slowest \d+ of [\d,]+ requests by/ }).count()).toBe(3);
      // A TensorRT-LLM run's slowest requests are tables, one per metric with requests that have it.
      if ((await storedKeys(run.id)).includes("trtllm-slowest"))
        expect(
          await page
            .locator("h3", { hasText: /^Slowest \d+ of [\d,]+ requests by server time to first token/ })
            .count(),
          run.name,
        ).toBe(1);
      // Every chart payload the run stored for a view is in the report, drawn or said missing.
      const ids = await figures.evaluateAll((els) => els.map((e) => e.getAttribute("data-chart")!));
      // A payload stored for a reader other than the views (served: false) is no chart.
      const charted = (k: string) => REPORT_KEYS.test(k) && chartByKey(k)?.served !== false;
      // GPU telemetry with no sample in the profiling window is one note for the section, as the
      // view says it, in place of the GPU figures.
      const gpuNote = await page
        .getByText(/^No GPU telemetry in the profiling window\. None of the run's/)
        .count();
      for (const key of (await storedKeys(run.id)).filter(charted))
        expect(
          ids.some((id) => id.startsWith(key)) || (key === "aiperf-gpu" && gpuNote === 1),
          `${run.name}: ${key}`,
        ).toBe(true);
      if (process.env.RUNLENS_SCREENSHOT_DIR) {
        await page.setViewportSize({ width: 900, height: 1200 });
        await shot(page, `report-${run.name.replace(/\W+/g, "-")}.png`);
      }
      await context.close();
    }
  });

  it("the compare page's Report button downloads the comparison, which opens offline too", async () => {
    const runs = (await examples()).slice(0, 3);
    const ids = runs.map((r) => r.id).join(",");
    const browse = await env.browser.newPage({ acceptDownloads: true });
    await gotoHydrated(browse, `${env.app.url}/compare?runs=${ids}&stat=p90`);
    const button = browse.getByTestId("export-compare-report");
    await button.waitFor({ timeout: 15_000 });
    // The report is of the comparison on screen: the same runs and statistic.
    expect(await button.getAttribute("href")).toBe(
      `/api/compare/report.html?${new URLSearchParams({ runs: ids, stat: "p90" })}`,
    );
    await shot(browse, "compare-page-report-button.png");
    const [download] = await Promise.all([browse.waitForEvent("download"), button.click()]);
    expect(download.suggestedFilename()).toMatch(/\.html$/);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "runlens-compare-e2e-")), "compare.html");
    await download.saveAs(file);
    await browse.close();
    expect(fs.readFileSync(file, "utf8")).toMatch(/^<!doctype html>/);
    const { context, page, attempted } = await openOffline(env.browser, file);
    expect(attempted).toEqual([]);
    expect(await page.locator("svg").count()).toBe(await page.locator('figure[data-drawn="true"]').count());
    expect(await page.locator("h2").allTextContents()).toEqual(
      expect.arrayContaining(["Runs", "Latency distributions"]),
    );
    await shot(page, "report-compare.png");
    await context.close();
  });
});
