import { describe, expect, it } from "vitest";
import { gotoHydrated, shot, useAppAndBrowser } from "./harness";
import { expectPoolPredictedVsDelivered, uploadRouterScrapes } from "./router-views";

describe("cache view of a run behind Dynamo's KV-aware router", () => {
  const t = useAppAndBrowser();

  it("draws predicted vs delivered over time and lists the pool's gap with each worker's own rate", async () => {
    // A frontend with --router-mode kv and two vLLM workers, one of which finds half the predicted overlap.
    const run = await uploadRouterScrapes(t.app.url, ["60"], "e2e dynamo kv router");
    const res = await fetch(`${t.app.url}/api/runs/${run.id}/charts/sm-router`);
    expect(res.status).toBe(200);
    const payload = await res.json();
    const pool = payload.pools[0];
    expect(pool.label).toBe("backend");
    expect(pool.gapPoints).toBeLessThan(0);

    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1100 } });
    await gotoHydrated(page, `${t.app.url}/runs/${run.id}?view=cache`);
    const { table, poolRow } = await expectPoolPredictedVsDelivered(
      page,
      {
        section: "router-prediction",
        chart: "router-predicted-vs-delivered",
        table: "router-prediction-table",
      },
      pool,
    );
    expect(await poolRow.count()).toBe(1);
    // Both workers under the pool, each with its own delivered rate and no prediction of its own.
    const workers = table.locator('tbody tr[data-row="endpoint"]');
    expect(await workers.count()).toBe(2);
    expect(await workers.first().locator('[data-stat="predicted"]').textContent()).toBe("per pool only");
    await shot(page, "cache-router-prediction.png");
  });

  it("a frontend without the KV router says the prediction is missing and how to get it, with no empty chart", async () => {
    const run = await uploadRouterScrapes(t.app.url, ["30", "no-router"], "e2e dynamo without kv router");
    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await gotoHydrated(page, `${t.app.url}/runs/${run.id}?view=cache`);
    const missing = page.getByTestId("router-missing");
    await missing.waitFor({ timeout: 30_000 });
    expect(await missing.textContent()).toContain("--router-mode kv");
    const section = page.getByTestId("router-prediction");
    expect(await section.locator("[data-chart]").count()).toBe(0);
    expect(await page.getByTestId("router-prediction-table").count()).toBe(0);
    await shot(page, "cache-router-missing.png");
  });

  it("compare puts each run's gap beside the other's", async () => {
    const up = async (mode: string, name: string) =>
      (await uploadRouterScrapes(t.app.url, ["30", mode], name)).id;
    const a = await up("lagging", "router, one worker lagging");
    const b = await up("in-step", "router, workers in step");
    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await gotoHydrated(page, `${t.app.url}/compare?runs=${a},${b}`);
    const row = page.locator('tr[data-metric="routerGap"]');
    await row.waitFor({ timeout: 30_000 });
    // The lagging run delivers well under the prediction; the run in step only rounds blocks down.
    const text = (await row.textContent()) ?? "";
    // Signed points, and no percent change of a value that is itself a difference.
    expect(text.match(/[−+±]\d+(\.\d+)? pp/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
    expect(text).not.toMatch(/%/);
    await row.scrollIntoViewIfNeeded();
    await shot(page, "compare-router-gap.png");
  });
});
