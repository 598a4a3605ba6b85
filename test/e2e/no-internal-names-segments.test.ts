/**
 * The Breakdown view names TensorRT-LLM's time-breakdown segments in words (issue 29): the chart
 * the server draws before any script runs, the hydrated charts' tooltips and the offline report's
 * breakdown figures say "context queue", not `ctx_queue`. The upstream name appears only as
 * secondary text: in a code element or a table column of its own (honest-views.test.ts, internalNames,
 * allows it elsewhere as a producer's name, so it is checked here, in the places a reader reads).
 */
import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { gotoHydrated, uploadGeneratedTrtllm, useAppAndBrowser } from "./harness";

/**
 * A segment's upstream key ("ctx_queue", "gen_kv_transfer", "disagg_relay"); not a record field a
 * note names on purpose (kv_cache_size, kv_cache_metrics).
 */
const RAW =
  /\b(ctx_(preprocessing|queue|processing|postprocessing)|disagg_(preprocessing|relay|postprocessing)|gen_(preprocessing|queue|queue_wait|kv_transfer|post_transfer|postprocessing))\b/;

/** The visible text under `root`, outside code elements (where the upstream name is at home). */
async function wordsIn(root: Locator, visibleOnly = true): Promise<string> {
  return root.evaluateAll((els, visible) => {
    const out: string[] = [];
    for (const el of els) {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const p = n.parentElement;
        if (!p || p.closest("code, [data-testid=chart-definition]")) continue;
        if (visible && !p.checkVisibility()) continue;
        out.push(n.textContent ?? "");
      }
    }
    return out.join("\n");
  }, visibleOnly);
}

/** Hovers `chart`'s plot at a share of its box until a tooltip shows, and returns its text. */
async function tooltipText(page: Page, figure: Locator, at: { x: number; y: number }): Promise<string> {
  const surface = figure.locator("svg.recharts-surface").first();
  await surface.waitFor({ timeout: 60_000 });
  const box = (await surface.boundingBox())!;
  await surface.hover({ position: { x: box.width * at.x, y: box.height * at.y } });
  const tip = figure.locator(".recharts-tooltip-wrapper");
  await expect
    .poll(async () => (await tip.innerText()).trim().length, { timeout: 30_000 })
    .toBeGreaterThan(0);
  return tip.innerText();
}

describe("segment names in words on the Breakdown view and in the report", () => {
  const t = useAppAndBrowser();

  it("the server's first figure, the tooltips and the report's figures say no raw segment key", async () => {
    const run = await uploadGeneratedTrtllm(
      t.app.url,
      { mode: "disaggregated", requests: 120, seed: 4, ctxWorkers: 1, genWorkers: 1 },
      { name: "e2e segment words" },
    );
    const url = `${t.app.url}/runs/${run.id}?view=breakdown`;

    // Before any script: the page as the server drew it.
    const still = await t.browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 1440, height: 900 },
    });
    const stillPage = await still.newPage();
    await stillPage.goto(url);
    const stillFigures = stillPage.locator("figure[data-chart]");
    // Without script the page is as sent, some of it not yet shown: read what it holds.
    await stillFigures.first().waitFor({ state: "attached", timeout: 60_000 });
    const stillText = await wordsIn(stillFigures, false);
    expect(stillText).toContain("Where the time goes");
    expect(stillText).not.toMatch(RAW);
    await still.close();

    const page = await t.browser.newPage({ viewport: { width: 1440, height: 1000 } });
    await gotoHydrated(page, url);
    const stats = page.locator('figure[data-chart="time-breakdown-p50"]');
    await stats.getByText("Where the time goes (p50)").waitFor({ timeout: 60_000 });
    // The stack's tooltip: each segment in words, in pipeline order.
    const bands = stats.locator(".recharts-bar-rectangle path");
    await bands.first().waitFor({ timeout: 60_000 });
    const widths = await bands.evaluateAll((ps) => ps.map((p) => p.getBoundingClientRect().width));
    await bands.nth(widths.indexOf(Math.max(...widths))).hover();
    const items = stats.locator(".recharts-tooltip-item-name");
    await items.first().waitFor({ timeout: 30_000 });
    const listed = await items.allTextContents();
    expect(listed.length).toBeGreaterThan(3);
    expect(listed.join("\n")).not.toMatch(RAW);
    expect(listed).toContain("context queue");

    // The per-request stacks' tooltip.
    const perRequest = page.locator('figure[data-chart="per-request-breakdown"]');
    const perRequestTip = await tooltipText(page, perRequest, { x: 0.3, y: 0.85 });
    expect(perRequestTip).toMatch(/context/);
    expect(perRequestTip).not.toMatch(RAW);

    // The share over time's tooltip.
    const share = page.locator('figure[data-chart="segment-share-over-time"]');
    const shareTip = await tooltipText(page, share, { x: 0.5, y: 0.5 });
    expect(shareTip).not.toMatch(RAW);

    // Every figure of the view, as read: no raw key outside code.
    expect(await wordsIn(page.locator("figure[data-chart]"))).not.toMatch(RAW);

    // One request's waterfall: its rows are named in words on the axis, as the view's table names them.
    await gotoHydrated(page, `${url}&req=7`);
    const waterfall = page.locator('figure[data-chart$="-waterfall"]');
    // The axes' ticks: the time's on x, the segments' names on y.
    const ticks = waterfall.locator(".recharts-cartesian-axis-tick-value");
    await expect.poll(() => ticks.count(), { timeout: 60_000 }).toBeGreaterThan(10);
    const rows = await ticks.allTextContents();
    expect(rows).toContain("context queue");
    expect(rows.join("\n")).not.toMatch(RAW);
    expect(await wordsIn(waterfall)).not.toMatch(RAW);
    await page.close();

    // The offline report: its breakdown figures' SVGs (legends, band titles) say the words; the
    // upstream name is a table column of its own.
    const report = await (await fetch(`${t.app.url}/api/runs/${run.id}/report.html`)).text();
    const svgs = [...report.matchAll(/<svg[\s\S]*?<\/svg>/g)].map((m) => m[0]);
    const segmentSvgs = svgs.filter((s) => /context queue|generation KV transfer/.test(s));
    expect(segmentSvgs.length).toBeGreaterThan(0);
    for (const s of svgs) expect(s).not.toMatch(RAW);
    expect(report).toContain("<th>upstream name</th>");
    // The report's segment table names each segment in words first, as the view's table does.
    const table = /<h3>Segments \([^<]*\)<\/h3><table>([\s\S]*?)<\/table>/.exec(report)?.[1] ?? "";
    const firstCells = [...table.matchAll(/<tr><td[^>]*>([^<]*)<\/td>/g)].map((m) => m[1]);
    expect(firstCells).toContain("context queue");
    expect(firstCells.join("\n")).not.toMatch(RAW);
  }, 300_000);
});
