/**
 * The reuse ledger in the Cache view and across compared runs (docs/metrics.md §Reuse ledger), on
 * generated multi-turn aiperf runs (test/generators/aiperf-multiturn.mjs: aiperf's records,
 * summary and inputs.json, vLLM's prompt_tokens_by_source with a CPU tier) uploaded with the
 * Dynamo frontend's log of the same requests (test/generators/dynamo-router-log.mjs), and one
 * without the log or the CPU tier. Screenshots light and dark at 1440 and 390 px go to
 * RUNLENS_SCREENSHOT_DIR.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { BASE_NS, generateMultiTurnRun } from "../generators/aiperf-multiturn.mjs";
import { routerLog } from "../generators/dynamo-router-log.mjs";
import { apiUpload, gotoHydrated, shot, useAppAndBrowser } from "./harness";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ledger-e2e-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/**
 * How far the widest of `testIds`' tables, or the card it sits in, scrolls sideways inside its
 * box (0 or less: none does).
 */
async function tablesOverflow(page: Page, testIds: string[]): Promise<number> {
  return page.evaluate((ids) => {
    let worst = -Infinity;
    for (const id of ids) {
      const t = document.querySelector(`[data-testid="${id}"]`);
      if (!t) continue;
      const card = t.closest("[data-table-card]") ?? t;
      worst = Math.max(worst, t.scrollWidth - t.clientWidth, card.scrollWidth - card.clientWidth);
    }
    return worst;
  }, testIds);
}

describe("reuse ledger", () => {
  const t = useAppAndBrowser();

  it("shows each step, its losses and what is not measured, and compares runs", async () => {
    const common = { conversations: 80, maxTurns: 12, concurrency: 6, seed: 31, evict: 0.4 } as const;
    const withTier = generateMultiTurnRun(path.join(dir, "tier"), {
      ...common,
      externalHit: 0.6,
      theoretical: true,
      inputs: "delta",
      serverMetrics: { sliceS: 2 },
    });
    const logPath = path.join(dir, "frontend.log");
    fs.writeFileSync(
      logPath,
      routerLog(
        withTier.requests.map((r) => ({
          tNs: Number(BASE_NS) + Math.round(r.startMs * 1e6),
          worker: 0,
          // The router believes all of each prompt but its last block was on the worker: more
          // than the conversations' history holds (prefixes it sees shared across them).
          overlap: Math.ceil(r.prompt / 16) - 1,
          blocks: Math.ceil(r.prompt / 16),
        })),
      ),
    );
    const without = generateMultiTurnRun(path.join(dir, "no-tier"), {
      ...common,
      serverMetrics: { sliceS: 2 },
    });
    const paths = (g: typeof withTier) =>
      [g.jsonlPath, g.summaryPath, g.inputsPath, g.serverMetricsPath].filter((p): p is string => p !== null);
    const a = await apiUpload(
      t.app.url,
      [...paths(withTier), logPath].map((p) => ({ path: p })),
      {
        name: "CPU tier, router log",
      },
    );
    const b = await apiUpload(
      t.app.url,
      paths(without).map((p) => ({ path: p })),
      { name: "no tier, no log" },
    );

    const page = await t.browser.newPage({ viewport: { width: 1440, height: 1000 } });
    await gotoHydrated(page, `${t.app.url}/runs/${a.id}?view=cache`);
    const section = page.getByTestId("reuse-ledger");
    await section.waitFor({ timeout: 30_000 });
    const steps = page.getByTestId("reuse-ledger-steps");
    await steps.waitFor({ timeout: 15_000 });
    const row = (id: string) => steps.locator(`tr[data-step="${id}"]`);
    expect(await row("theoretical").textContent()).toMatch(/\d+(\.\d)?%/);
    expect(await row("predicted").textContent()).toContain("Dynamo router log");
    // Delivered: request-weighted is not measured, never 0; the tiers are named.
    expect(await row("delivered").textContent()).toContain("not measured");
    expect(await row("delivered").textContent()).toMatch(/host \/ CPU \d+(\.\d)?%/);
    expect(await row("reported").textContent()).toMatch(/of [\d,]+ tokens/);
    const losses = page.getByTestId("reuse-ledger-losses");
    expect(await losses.locator('tr[data-loss="evicted-before-reuse"]').textContent()).toMatch(
      /\d+(\.\d)? pp.*ms/,
    );
    // The router predicted more than the theoretical step: no loss, said as its own finding; no
    // loss anywhere is negative.
    expect(await losses.locator('tr[data-loss="routed-elsewhere"]').textContent()).toMatch(
      /no loss.*no loss: router-predicted \(\d+\.\d %\) is above theoretical/,
    );
    expect(await losses.textContent()).not.toMatch(/−\d/);
    expect(await page.getByTestId("reuse-ledger-basis").textContent()).toContain(
      "ms per computed prompt token",
    );
    const chart = section.locator('[data-chart="reuse-ledger"]');
    expect(await chart.getAttribute("data-chart-empty")).toBeNull();
    await page.locator('[data-chart="reuse-ledger-over-time"]').waitFor({ timeout: 15_000 });
    for (const scheme of ["light", "dark"] as const)
      for (const width of [1440, 390]) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize({ width, height: 1000 });
        await shot(section, `reuse-ledger-${scheme}-${width}.png`, { settleMs: 500 });
        // A phone reads each table without scrolling sideways inside its card: a block per row.
        expect(
          await tablesOverflow(page, ["reuse-ledger-steps", "reuse-ledger-losses", "reuse-ledger-endpoints"]),
          `the ledger's tables at ${width} px scroll inside their box`,
        ).toBeLessThanOrEqual(0);
      }
    await page.emulateMedia({ colorScheme: "light" });
    await page.setViewportSize({ width: 1440, height: 1000 });

    // The run without the log: its predicted step says what to upload.
    await gotoHydrated(page, `${t.app.url}/runs/${b.id}?view=cache`);
    const noLog = page.getByTestId("reuse-ledger-steps").locator('tr[data-step="predicted"]');
    await noLog.waitFor({ timeout: 30_000 });
    expect(await noLog.textContent()).toContain("not measured — upload the Dynamo frontend's log");
    // No KV connector (vLLM writes external_kv_transfer at 0): host and external not measured, never
    // 0 %, and no host / external line over time.
    const noTier = page.getByTestId("reuse-ledger-steps").locator('tr[data-step="delivered"]');
    expect(await noTier.textContent()).toContain("host / CPU not measured, disk / external not measured");
    await page.locator('[data-chart="reuse-ledger-over-time"]').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId("reuse-ledger").textContent()).not.toContain("delivered: host / external");
    await shot(page.getByTestId("reuse-ledger"), "reuse-ledger-no-tier-light-1440.png", { settleMs: 500 });

    await gotoHydrated(page, `${t.app.url}/compare?runs=${a.id},${b.id}`);
    const table = page.getByTestId("compare-reuse-ledger-table");
    await expect
      .poll(() => table.textContent(), { timeout: 30_000 })
      .toContain("CPU tier, router log (baseline)");
    const text = (await table.textContent()) ?? "";
    expect(text).toContain("not measured");
    expect(text).toMatch(/[+−±]\d+(\.\d)? pp/);
    for (const scheme of ["light", "dark"] as const)
      for (const width of [1440, 390]) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.setViewportSize({ width, height: 900 });
        await shot(page.getByTestId("compare-reuse-ledger"), `compare-reuse-ledger-${scheme}-${width}.png`, {
          settleMs: 400,
        });
        expect(
          await tablesOverflow(page, ["compare-reuse-ledger-table"]),
          `the compared ledger at ${width} px scrolls inside its box`,
        ).toBeLessThanOrEqual(0);
      }
    await page.close();
  });
});
