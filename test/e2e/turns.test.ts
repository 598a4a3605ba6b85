/**
 * The Turns view on a generated multi-turn aiperf run (test/generators/aiperf-multiturn.mjs,
 * aiperf's record format): the tab is enabled only for it, every chart is drawn, the facts state
 * the achieved share of the possible reuse, and a run without cached tokens says so. With aiperf's
 * inputs.json (the generator's follows aiperf `src/aiperf/dataset/dataset_manager.py`, with an
 * image part as aiperf inlines it), the view and a turn's request detail say which count is used.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generateMultiTurnRun } from "../generators/aiperf-multiturn.mjs";
import { apiUpload, gotoHydrated, useAppAndBrowser, shot } from "./harness";

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
    // The mean is dashed and drawn over the p50 and p90 (review of 3 Dec, item 14): where a turn's
    // mean equals its p50, the p50 shows through the dashes instead of being hidden under it.
    for (const chart of ["turns-ttftMs", "turns-e2eMs"]) {
      const curves = page.locator(`[data-chart="${chart}"] .recharts-line-curve`);
      await expect.poll(() => curves.count()).toBe(3);
      expect(await curves.evaluateAll((els) => els.map((e) => e.getAttribute("stroke-dasharray")))).toEqual([
        null,
        null,
        "6 4",
      ]);
    }
    // aiperf's run-level theoretical hit rate is drawn as a level on the hit-rate chart.
    expect(await page.locator('[data-chart="turns-hit-rate"] .chart-mark-label').textContent()).toBe(
      "aiperf theoretical (run)",
    );
    await shot(page, "turns-view.png", { settleMs: 600 });
    await shot(page.locator('[data-chart="turns-reuse"]'), "turns-reuse.png");
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
    await shot(section, "compare-turns.png", { settleMs: 600 });
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
    // The ceiling alone is still drawn as a rate, titled for what it plots.
    const possible = page.locator('[data-chart="turns-possible-reuse"]');
    expect(await possible.getAttribute("data-chart-empty")).toBeNull();
    expect(await possible.textContent()).toContain("Possible prefix reuse by turn");
    await shot(page, "turns-view-no-cached.png");
    await page.close();
  });

  it("the Turns view says the possible reuse is the inputs.json estimate", async () => {
    const gen = generateMultiTurnRun(path.join(dir, "inputs"), {
      conversations: 60,
      maxTurns: 10,
      seed: 8,
      evict: 0.3,
      inputs: "history",
      serverMetrics: { sliceS: 2 },
    });
    // One turn sends an image as well, which the estimate cannot count.
    const doc = JSON.parse(fs.readFileSync(gen.inputsPath!, "utf8"));
    const session = doc.data.find((d: { payloads: unknown[] }) => d.payloads.length > 1);
    const messages = session.payloads[1].messages;
    messages[messages.length - 1].content.push({
      type: "image_url",
      image_url: { url: "data:image/png;base64,iVBORw0KGgo=" },
    });
    fs.writeFileSync(gen.inputsPath!, JSON.stringify(doc));
    const run = await apiUpload(
      t.app.url,
      [gen.jsonlPath, gen.summaryPath, gen.inputsPath!, gen.serverMetricsPath!].map((p) => ({ path: p })),
      { name: "multi-turn with inputs.json" },
    );
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 1000 } });
    await gotoHydrated(page, `${t.app.url}/runs/${run.id}?view=turns`);
    const facts = page.getByTestId("turns-facts");
    // No warm-up, failures or cancellations: every request has its turn in inputs.json.
    const profiling = gen.requests.length;
    await expect
      .poll(() => facts.textContent(), { timeout: 30_000 })
      .toContain(`possible reuse frominputs.json estimate (${profiling} requests)`);
    const source = await page.getByTestId("turns-inputs-source").textContent();
    expect(source).toContain("estimate from inputs.json");
    expect(source).toContain("image, audio and video parts are left out (1 request's payload has some)");
    await page.getByTestId("interval-reuse").waitFor({ timeout: 30_000 });
    expect(await page.getByTestId("interval-reuse-sources").textContent()).toContain(
      "image, audio and video parts not counted",
    );
    await shot(page, "turns-view-inputs.png", { settleMs: 600 });
    await shot(page.locator('[data-chart="reuse-over-time"]'), "reuse-over-time-inputs.png");

    // The request detail of the turn with the image: the estimate, the records' count, the image.
    const timeline = await (await fetch(`${t.app.url}/api/runs/${run.id}/timeline`)).json();
    let rid: number | null = null;
    for (const id of timeline.bars.id as number[]) {
      const r = await (await fetch(`${t.app.url}/api/runs/${run.id}/timeline/requests/${id}`)).json();
      if (r.conversationId === session.session_id && r.turnIndex === 1) rid = id;
    }
    expect(rid).not.toBeNull();
    await gotoHydrated(page, `${t.app.url}/runs/${run.id}?view=timeline&req=${rid}`);
    const detail = page.getByRole("region", { name: "request detail" });
    await expect
      .poll(() => detail.textContent(), { timeout: 30_000 })
      .toContain("estimated from inputs.json");
    expect(await detail.textContent()).toContain("records' count");
    expect(await detail.textContent()).toContain("image, audio or video parts");
    await shot(page, "timeline-request-inputs.png", { settleMs: 400 });
    await page.close();
  });
});
