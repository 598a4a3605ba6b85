import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { apiUpload, useAppAndBrowser, gotoHydrated, shot } from "./harness";

describe("cache view of a disaggregated run", () => {
  const t = useAppAndBrowser();

  it("shows one role-coloured bar per endpoint; picking an endpoint changes the time series", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-e2e-sm-"));
    // 6 TRT-LLM endpoints: 2 prefill (context), 4 decode (generation), 60 s of scrapes.
    execFileSync(process.execPath, ["test/generators/server-metrics.mjs", dir, "6", "60"]);
    const run = await apiUpload(t.app.url, [{ path: path.join(dir, "server_metrics_export.json") }], {
      name: "e2e server metrics",
    });
    expect(run.files.map((f) => f.kind)).toEqual(["aiperf-server-metrics"]);

    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1100 } });
    await gotoHydrated(page, `${t.app.url}/runs/${run.id}?view=cache`);
    // What the generated scrapes must give: 2 prefill endpoints with cache hits, 4 decode ones with
    // a hit rate of exactly 0 (no cached tokens).
    const sm = await (await fetch(`${t.app.url}/api/runs/${run.id}/charts/sm-endpoints`)).json();
    const hitRates = (sm.rows as Array<{ role: string; hitRate: number | null }>).map((e) => [
      e.role,
      e.hitRate,
    ]);
    expect(hitRates.filter(([role, h]) => role === "prefill" && (h as number) > 0)).toHaveLength(2);
    expect(hitRates.filter(([role, h]) => role === "decode" && h === 0)).toHaveLength(4);

    const chart = page.locator('[data-chart="endpoint-hit-rate"]');
    const bars = chart.locator(".recharts-bar-rectangle path");
    await bars.first().waitFor({ timeout: 30_000 });
    // Every endpoint has its row on the axis; only the 2 with hits paint a bar (a 0-wide bar is
    // not drawn), in the prefill colour and with a visible width.
    // Decode endpoints say why they have no bar: "<endpoint> · n/a (decode)".
    const ticks = chart.locator(".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value");
    const labels = await ticks.allTextContents();
    expect(labels.map((l) => l.replace(" · n/a (decode)", "")).sort()).toEqual(
      (sm.rows as Array<{ endpoint: string }>).map((e) => e.endpoint).sort(),
    );
    expect(labels.filter((l) => l.endsWith(" · n/a (decode)"))).toHaveLength(4);
    const painted = await bars.evaluateAll((els) =>
      els.map((e) => ({ fill: e.getAttribute("fill"), width: Number(e.getAttribute("width")) })),
    );
    expect(painted.map((b) => b.fill)).toEqual(["var(--role-prefill)", "var(--role-prefill)"]);
    for (const b of painted) expect(b.width).toBeGreaterThan(0);

    await page.getByText("Cache hit rate over time — All endpoints").waitFor({ timeout: 30_000 });
    const before = await page
      .locator('[data-chart="hit-rate-over-time"] path.recharts-line-curve')
      .getAttribute("d");
    await page.getByTestId("endpoint-picker").selectOption("10.2.0.2:8000");
    await page.getByText("Cache hit rate over time — 10.2.0.2:8000").waitFor({ timeout: 30_000 });
    await expect.poll(() => page.url()).toContain("endpoint=10.2.0.2");
    const after = await page
      .locator('[data-chart="hit-rate-over-time"] path.recharts-line-curve')
      .getAttribute("d");
    expect(after).not.toBe(before);
    await shot(page, "cache-disagg-endpoint.png");

    await gotoHydrated(page, `${t.app.url}/runs/${run.id}?view=kv&endpoint=role:decode`);
    await page.getByText("KV cache used vs capacity — All decode").waitFor({ timeout: 30_000 });
    await shot(page, "kv-decode.png");

    await gotoHydrated(page, `${t.app.url}/runs/${run.id}?view=offload`);
    await page.getByText("Offload bandwidth GPU → CPU").waitFor({ timeout: 30_000 });
    await page.getByText("KV offload over time — All endpoints").waitFor({ timeout: 30_000 });
    await shot(page, "offload.png");

    await gotoHydrated(page, `${t.app.url}/runs/${run.id}?view=endpoints`);
    await page.getByTestId("role-subtotals").waitFor({ timeout: 30_000 });
    expect(await page.getByTestId("endpoints-table").locator("tbody tr").count()).toBe(6);
    await shot(page, "endpoints.png");
  });
});
