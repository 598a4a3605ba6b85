/**
 * The Turns view on a generated multi-turn aiperf run (test/generators/aiperf-multiturn.mjs,
 * aiperf's record format): the tab is enabled only for it, every chart is drawn, the facts state
 * the achieved share of the possible reuse, and a run without cached tokens says so.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateMultiTurnRun } from "../generators/aiperf-multiturn.mjs";
import { apiUpload, gotoHydrated, useAppAndBrowser } from "./harness";

const SHOTS = process.env.RUNLENS_SCREENSHOT_DIR || os.tmpdir();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "turns-e2e-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const upload = (url: string, gen: { jsonlPath: string; summaryPath: string }, name: string) =>
  apiUpload(url, [{ path: gen.jsonlPath }, { path: gen.summaryPath }], { name });

describe("Turns view", () => {
  const t = useAppAndBrowser();

  it("draws latency, lengths, outcomes and the reuse stack by turn", async () => {
    const gen = generateMultiTurnRun(path.join(dir, "multi"), {
      conversations: 160,
      maxTurns: 20,
      seed: 11,
      evict: 0.2,
      errorEvery: 37,
      cancelEvery: 53,
      theoretical: true,
    });
    const run = await upload(t.app.url, gen, "multi-turn agentic c8");
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 1000 } });
    await gotoHydrated(page, `${t.app.url}/runs/${run.id}?view=turns`);
    const facts = page.getByTestId("turns-facts");
    await expect.poll(() => facts.textContent(), { timeout: 30_000 }).toContain("conversations160");
    expect(await facts.textContent()).toMatch(/reuse achieved\d+(\.\d)?% of [\d,]+ possible tokens/);
    for (const chart of [
      "turns-ttftMs",
      "turns-e2eMs",
      "turns-inputTokens",
      "turns-outputTokens",
      "turns-requests",
      "turns-hit-rate",
      "turns-reuse",
    ]) {
      const figure = page.locator(`[data-chart="${chart}"]`);
      await figure.waitFor();
      expect(await figure.getAttribute("data-chart-empty")).toBeNull();
      await expect.poll(() => figure.locator(".recharts-wrapper").count(), { timeout: 15_000 }).toBe(1);
      expect(await figure.getByTestId("chart-definition").textContent()).toContain("turn_index");
    }
    // aiperf's run-level theoretical hit rate is drawn as a level on the hit-rate chart.
    expect(await page.locator('[data-chart="turns-hit-rate"] .chart-mark-label').textContent()).toBe(
      "aiperf theoretical (run)",
    );
    await page.waitForTimeout(600);
    await page.screenshot({ path: path.join(SHOTS, "turns-view.png"), fullPage: true });
    await page
      .locator('[data-chart="turns-reuse"]')
      .screenshot({ path: path.join(SHOTS, "turns-reuse.png") });
    await page.close();
  });

  it("compare overlays two runs' turn curves with a change per turn", async () => {
    // The same conversations served with little and with much eviction (say, with and without CPU offload).
    const kept = generateMultiTurnRun(path.join(dir, "kept"), { conversations: 80, seed: 5, evict: 0.05 });
    const evicted = generateMultiTurnRun(path.join(dir, "evicted"), {
      conversations: 80,
      seed: 5,
      evict: 0.6,
    });
    const a = await upload(t.app.url, kept, "offload on");
    const b = await upload(t.app.url, evicted, "offload off");
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 1000 } });
    await gotoHydrated(page, `${t.app.url}/compare?runs=${a.id},${b.id}&turnMetric=hitPct`);
    const section = page.getByTestId("compare-turns");
    await section.waitFor({ timeout: 30_000 });
    const chart = section.locator('[data-chart="compare-turns-hitPct"]');
    await expect.poll(() => chart.locator(".recharts-line").count(), { timeout: 15_000 }).toBe(2);
    const table = page.getByTestId("compare-turns-deltas");
    await expect.poll(() => table.textContent(), { timeout: 15_000 }).toContain("offload on (baseline)");
    // Later turns lose most of their cache when most histories are evicted: negative points.
    expect(await table.textContent()).toMatch(/-\d+(\.\d)? pt/);
    await page.waitForTimeout(600);
    await section.screenshot({ path: path.join(SHOTS, "compare-turns.png") });
    await page.close();
  });

  it("is a disabled tab on a single-turn run, and says what is missing without cached tokens", async () => {
    const single = generateMultiTurnRun(path.join(dir, "single"), { conversations: 20, maxTurns: 1 });
    const one = await upload(t.app.url, single, "single turn");
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 1000 } });
    await gotoHydrated(page, `${t.app.url}/runs/${one.id}`);
    const tab = page.getByRole("tab", { name: "Turns" });
    expect(await tab.getAttribute("aria-disabled")).toBe("true");

    const noUsage = generateMultiTurnRun(path.join(dir, "no-usage"), { conversations: 30, cached: false });
    const run = await upload(t.app.url, noUsage, "multi-turn without usage");
    await gotoHydrated(page, `${t.app.url}/runs/${run.id}?view=turns`);
    await page.getByTestId("turns-no-cached").waitFor({ timeout: 30_000 });
    expect(await page.getByTestId("turns-facts").textContent()).toContain(
      "reuse achievednot recorded (no cached prompt tokens in the records)",
    );
    const reuse = page.locator('[data-chart="turns-reuse"]');
    expect(await reuse.getAttribute("data-chart-empty")).toBe("");
    expect(await reuse.textContent()).toContain("usage_prompt_cache_read_tokens");
    // The ceiling alone is still drawn as a rate.
    expect(await page.locator('[data-chart="turns-hit-rate"]').getAttribute("data-chart-empty")).toBeNull();
    await page.screenshot({ path: path.join(SHOTS, "turns-view-no-cached.png"), fullPage: true });
    await page.close();
  });
});
