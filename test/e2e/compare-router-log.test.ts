import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { routerLog } from "../generators/dynamo-router-log.mjs";
import { dynamoRouterRun, toJsonl } from "../generators/dynamo-router-scrapes.mjs";
import { apiUpload, gotoHydrated, useAppAndBrowser, shot } from "./harness";
import { pct } from "./router-views";

/**
 * The frontend's log and the engines' scrapes of one run (test/generators/dynamo-router-log.mjs
 * over dynamo-router-scrapes.mjs), written to files as a user would upload them.
 */
function generate(opts: Parameters<typeof dynamoRouterRun>[0]) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-e2e-compare-router-log-"));
  const { run, truth } = dynamoRouterRun(opts);
  fs.writeFileSync(path.join(dir, "frontend.log"), routerLog(truth.decisions));
  fs.writeFileSync(path.join(dir, "server_metrics_export.jsonl"), toJsonl(run));
  return {
    log: { path: path.join(dir, "frontend.log") },
    scrapes: { path: path.join(dir, "server_metrics_export.jsonl") },
  };
}

describe("compare runs with the KV router's log", () => {
  const t = useAppAndBrowser();

  it("overlays each run's predicted and delivered hit rate, tables the gap against the baseline and names the run without a log", async () => {
    const two = generate({ seconds: 60, seed: 5 });
    const one = generate({
      seconds: 60,
      seed: 11,
      workers: [{ url: "http://worker-0:9090/metrics", shortfall: 0.1 }],
    });
    const a = await apiUpload(t.app.url, [two.log, two.scrapes], { name: "two workers, one half short" });
    const b = await apiUpload(t.app.url, [one.log, one.scrapes], { name: "one worker, 10% short" });
    const c = await apiUpload(t.app.url, [two.scrapes], { name: "scrapes only" });
    const payload = async (id: string) =>
      (await fetch(`${t.app.url}/api/runs/${id}/charts/router-log`)).json();
    const pa = await payload(a.id);
    const pb = await payload(b.id);

    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1100 } });
    await gotoHydrated(page, `${t.app.url}/compare?runs=${a.id},${b.id},${c.id}&baseline=${a.id}`);
    const section = page.getByTestId("compare-router-log");
    await section.waitFor({ timeout: 30_000 });
    const chart = section.locator('[data-chart="compare-router-log-rates"]');
    await chart.locator("path.recharts-line-curve").first().waitFor({ timeout: 30_000 });
    // Predicted and delivered of each run with a log; nothing for the run without one.
    expect(await chart.locator("path.recharts-line-curve").count()).toBe(4);
    const table = page.getByTestId("compare-router-log-table");
    const row = (id: string) => table.locator(`tbody tr[data-run="${id}"]`);
    await expect
      .poll(() => row(b.id).locator('[data-stat="predictedPct"] [data-value]').textContent())
      .toBe(pct(pb.predicted));
    expect(await row(a.id).locator('[data-stat="deliveredPct"] [data-value]').textContent()).toBe(
      pct(pa.delivered),
    );
    expect(await row(a.id).locator("[data-delta]").allTextContents()).toEqual(["", "", ""]);
    const dGap = (pb.gapPoints - pa.gapPoints).toLocaleString("en-US", { maximumFractionDigits: 1 });
    expect(await row(b.id).locator('[data-stat="gapPoints"] [data-delta]').textContent()).toBe(
      `${pb.gapPoints > pa.gapPoints ? "+" : "−"}${dGap.replace("-", "")} pp`,
    );
    expect(await table.locator("tbody tr").count()).toBe(2);
    const absent = page.getByTestId("compare-router-log-absent");
    expect(await absent.textContent()).toContain("scrapes only");
    expect(await absent.textContent()).toContain("DYN_LOG=debug");
    await section.scrollIntoViewIfNeeded();
    await shot(section, "compare-router-log.png");

    await page.getByLabel("Router log overlay").selectOption("gap");
    const gap = section.locator('[data-chart="compare-router-log-gap"]');
    await gap.locator("path.recharts-line-curve").first().waitFor({ timeout: 30_000 });
    expect(await gap.locator("path.recharts-line-curve").count()).toBe(2);
    await shot(section, "compare-router-log-gap.png");
  });
});
