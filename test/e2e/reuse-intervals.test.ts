/**
 * Reuse over time in the Turns view and the reuse stacks on the compare page, on generated
 * multi-turn aiperf runs uploaded with the engine's server metrics and inputs.json
 * (test/generators/aiperf-multiturn.mjs: aiperf's record and inputs.json shapes, vLLM's
 * prompt_tokens_by_source counter).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateMultiTurnRun } from "../generators/aiperf-multiturn.mjs";
import { apiUpload, gotoHydrated, useAppAndBrowser, shot } from "./harness";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reuse-e2e-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

type Gen = ReturnType<typeof generateMultiTurnRun>;
const upload = (url: string, gen: Gen, name: string) =>
  apiUpload(
    url,
    [gen.jsonlPath, gen.summaryPath, gen.inputsPath, gen.serverMetricsPath]
      .filter((p): p is string => p !== null)
      .map((p) => ({ path: p })),
    { name },
  );

describe("reuse over time", () => {
  const t = useAppAndBrowser();

  it("stacks each interval's prompt tokens by tier under the possible-reuse ceiling, and compares runs", async () => {
    // The same conversations with a CPU tier that holds most evicted histories, and without one.
    const common = { conversations: 120, maxTurns: 14, concurrency: 8, seed: 21, evict: 0.45 } as const;
    const withTier = generateMultiTurnRun(path.join(dir, "tier"), {
      ...common,
      externalHit: 0.8,
      inputs: "delta",
      serverMetrics: { sliceS: 2 },
    });
    const without = generateMultiTurnRun(path.join(dir, "no-tier"), {
      ...common,
      serverMetrics: { sliceS: 2 },
    });
    const a = await upload(t.app.url, withTier, "CPU offload on");
    const b = await upload(t.app.url, without, "CPU offload off");

    const page = await t.browser.newPage({ viewport: { width: 1440, height: 1000 } });
    await gotoHydrated(page, `${t.app.url}/runs/${a.id}?view=turns`);
    const section = page.getByTestId("interval-reuse");
    await section.waitFor({ timeout: 30_000 });
    const chart = page.locator('[data-chart="reuse-over-time"]');
    await chart.waitFor({ timeout: 15_000 });
    expect(await chart.getAttribute("data-chart-empty")).toBeNull();
    await expect.poll(() => chart.locator(".recharts-area").count(), { timeout: 15_000 }).toBe(4);
    const facts = await page.getByTestId("interval-reuse-facts").textContent();
    expect(facts).toMatch(/possible reuse served\d+(\.\d)?% of [\d,]+ tokens/);
    expect(facts).toMatch(/host \/ external\d+(\.\d)?%/);
    const sources = await page.getByTestId("interval-reuse-sources").textContent();
    expect(sources).toContain("vllm prompt_tokens_by_source");
    expect(sources).toContain("estimate from inputs.json");
    await shot(page, "turns-view-reuse.png", { settleMs: 600 });
    await shot(chart, "reuse-over-time.png");

    await gotoHydrated(page, `${t.app.url}/compare?runs=${a.id},${b.id}&turnMetric=achievedPct`);
    const compare = page.getByTestId("compare-reuse");
    await compare.waitFor({ timeout: 30_000 });
    const deltas = page.getByTestId("compare-reuse-deltas");
    await expect.poll(() => deltas.textContent(), { timeout: 15_000 }).toContain("CPU offload on (baseline)");
    // Without the tier, more of the possible reuse is recomputed: a negative change of the served share.
    expect(await deltas.textContent()).toMatch(/-\d+(\.\d)? pt/);
    await shot(compare, "compare-reuse.png", { settleMs: 600 });
    await shot(page.getByTestId("compare-turns"), "compare-turns-achieved.png");
    await page.close();
  });

  it("draws one endpoint's stack without a ceiling when the run has several engines", async () => {
    const gen = generateMultiTurnRun(path.join(dir, "engines"), {
      conversations: 60,
      maxTurns: 10,
      concurrency: 6,
      seed: 5,
      evict: 0.4,
      externalHit: 0.5,
      serverMetrics: { sliceS: 2, engines: 3 },
    });
    const run = await upload(t.app.url, gen, "three engines");
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 1000 } });
    await gotoHydrated(page, `${t.app.url}/runs/${run.id}?view=turns`);
    const picker = page.getByTestId("interval-reuse-endpoint");
    await picker.waitFor({ timeout: 30_000 });
    expect(await picker.locator("option").allTextContents()).toEqual([
      "whole run",
      "engine-0:8000",
      "engine-1:8000",
      "engine-2:8000",
    ]);
    await picker.selectOption("engine-1:8000");
    await page.waitForURL(/endpoint=engine-1/);
    const chart = page.locator('[data-chart="reuse-over-time-engine-1:8000"]');
    await chart.waitFor({ timeout: 15_000 });
    // GPU, host/external and computed; no ceiling line.
    await expect.poll(() => chart.locator(".recharts-area").count(), { timeout: 15_000 }).toBe(3);
    expect(await chart.locator(".recharts-line").count()).toBe(0);
    const mine = gen.requests.filter((r) => !r.failed && !r.cancelled && r.worker % 3 === 1);
    const prompt = mine.reduce((s, r) => s + r.prompt, 0);
    const facts = await page.getByTestId("interval-reuse-facts").textContent();
    expect(facts).toContain(`engine-1:8000's prompt tokens${prompt.toLocaleString("en-US")}`);
    expect(facts).toContain("possible reusewhole run only");
    expect(await page.getByTestId("interval-reuse-endpoint-note").textContent()).toContain(
      "No possible-reuse ceiling for one endpoint",
    );
    await shot(page.getByTestId("interval-reuse"), "reuse-over-time-endpoint.png", { settleMs: 600 });
    await page.close();
  });

  it("says which file gives reuse over time when the run has no server metrics", async () => {
    const gen = generateMultiTurnRun(path.join(dir, "records-only"), { conversations: 30, maxTurns: 6 });
    const run = await upload(t.app.url, gen, "records only");
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 1000 } });
    await gotoHydrated(page, `${t.app.url}/runs/${run.id}?view=turns`);
    const missing = page.getByTestId("interval-reuse-missing");
    await missing.waitFor({ timeout: 30_000 });
    expect(await missing.textContent()).toContain("server_metrics_export.json");
    await page.close();
  });
});
