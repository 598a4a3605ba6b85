/**
 * The run header and views of an aggregated Dynamo deployment (workers registered as component
 * `backend`, no prefill worker: docs/metrics.md §Backend and roles), and endpoints listed in
 * natural order (§Endpoint order).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { apiUpload, gotoHydrated, useAppAndBrowser, shot } from "./harness";

describe("roles and endpoint order in the run views", () => {
  const t = useAppAndBrowser();

  it("an aggregated Dynamo run shows combined ×2, not decode ×2, and the router's predicted rate once", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-e2e-roles-"));
    // A frontend with --router-mode kv before two vLLM workers registered as Dynamo's `backend`.
    execFileSync(process.execPath, ["test/generators/dynamo-router-scrapes.mjs", dir, "60"]);
    const run = await apiUpload(t.app.url, [{ path: path.join(dir, "server_metrics_export.jsonl") }], {
      name: "e2e aggregated dynamo",
    });
    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1200 } });
    await gotoHydrated(page, `${t.app.url}/runs/${run.id}?view=cache`);
    const roles = page.locator('[data-testid="run-facts"] [data-fact="roles"] dd');
    await roles.waitFor({ timeout: 30_000 });
    expect(await roles.textContent()).toMatch(/^combined ×2/);

    const info = page.getByTestId("run-info");
    const labels = await info.locator("dt").allTextContents();
    expect(labels.filter((l) => /^router .*predicted|^router KV hit rate$/.test(l))).toEqual([
      "router predicted hit rate",
    ]);

    const section = page.getByTestId("router-prediction");
    await section.locator('[data-stat="predicted"]').first().waitFor({ timeout: 30_000 });
    const facts = await page.getByTestId("cache-facts").textContent();
    expect(facts).not.toContain("router predicted hit rate");
    // The per-endpoint bars: both workers in the combined colour, none as decode.
    const bars = page.locator('[data-chart="endpoint-hit-rate"] .recharts-bar-rectangle path');
    await bars.first().waitFor({ timeout: 30_000 });
    const fills = await bars.evaluateAll((els) => els.map((e) => e.getAttribute("fill")));
    expect(fills).toEqual(["var(--role-combined)", "var(--role-combined)"]);
    await shot(page, "aggregated-dynamo-cache.png");
    await page.close();
  });

  it("the KV capacity bars list 12 endpoints in natural order", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-e2e-roles-"));
    const file = path.join(dir, "server_metrics_export.json");
    execFileSync(process.execPath, ["test/generators/aiperf-server-metrics-long.mjs", file, "12", "30"]);
    const run = await apiUpload(t.app.url, [{ path: file }], { name: "e2e twelve endpoints" });
    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1200 } });
    await gotoHydrated(page, `${t.app.url}/runs/${run.id}?view=kv`);
    const chart = page.locator('[data-chart="endpoint-kv-capacity"]');
    await chart.locator(".recharts-bar-rectangle path").first().waitFor({ timeout: 30_000 });
    const ticks = await chart
      .locator(".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value")
      .allTextContents();
    expect(ticks).toEqual(Array.from({ length: 12 }, (_, i) => `10.0.0.${i + 1}:8000`));
    await shot(page, "kv-natural-order.png");
    await page.close();
  });
});
