import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { apiUpload, useAppAndBrowser, gotoHydrated, shot } from "./harness";
import { expectPoolPredictedVsDelivered, pct } from "./router-views";

/** The frontend's log and the scrapes of the same run (test/generators/dynamo-router-log.mjs). */
function generate(mode?: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-e2e-router-log-"));
  execFileSync(process.execPath, [
    "test/generators/dynamo-router-log.mjs",
    dir,
    "60",
    ...(mode ? [mode] : []),
  ]);
  const log = fs.existsSync(path.join(dir, "frontend.jsonl")) ? "frontend.jsonl" : "frontend.log";
  return [{ path: path.join(dir, log) }, { path: path.join(dir, "server_metrics_export.jsonl") }];
}

describe("cache view of a run with the KV router's log", () => {
  const t = useAppAndBrowser();

  it("sets the log's prediction beside the engines over time, lists each worker and says delivered per worker is not mappable", async () => {
    const run = await apiUpload(t.app.url, generate(), { name: "e2e dynamo router log" });
    const summary = await (await fetch(`${t.app.url}/api/runs/${run.id}`)).json();
    const logFile = summary.files.find((f: { name: string }) => f.name === "frontend.log");
    expect(logFile.kind).toBe("router-log");
    expect(logFile.skipped).toBe(2);
    const res = await fetch(`${t.app.url}/api/runs/${run.id}/charts/router-log`);
    expect(res.status).toBe(200);
    const p = await res.json();
    expect(p.outsideWindow).toBe(3);
    expect(p.workers).toHaveLength(2);
    expect(p.gapPoints).toBeLessThan(0);

    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1100 } });
    await gotoHydrated(page, `${t.app.url}/runs/${run.id}?view=cache`);
    const { section, table } = await expectPoolPredictedVsDelivered(
      page,
      { section: "router-log", chart: "router-log-predicted-vs-delivered", table: "router-log-table" },
      p,
    );
    const workers = table.locator('tbody tr[data-row="worker"]');
    expect(await workers.count()).toBe(2);
    expect(await workers.first().locator('[data-stat="predicted"]').textContent()).toBe(
      pct(p.workers[0].predicted),
    );
    expect(await workers.first().locator('[data-stat="delivered"]').textContent()).toBe("not mappable");
    expect(await section.textContent()).toContain("3 outside the scrapes' window");
    await section.scrollIntoViewIfNeeded();
    await shot(page, "cache-router-log.png");
    await shot(section, "cache-router-log-section.png");
  });

  it("maps the one worker of a one-worker run to its engine and shows its own gap (JSONL log)", async () => {
    const files = generate("one-worker,jsonl");
    expect(path.basename(files[0].path)).toBe("frontend.jsonl");
    const run = await apiUpload(t.app.url, files, { name: "e2e dynamo router log, one worker" });
    const p = await (await fetch(`${t.app.url}/api/runs/${run.id}/charts/router-log`)).json();
    expect(p.workers).toHaveLength(1);
    expect(p.workers[0].endpoint).toBe("worker-0:9090");
    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1100 } });
    await gotoHydrated(page, `${t.app.url}/runs/${run.id}?view=cache`);
    const worker = page.getByTestId("router-log-table").locator('tbody tr[data-row="worker"]');
    await worker.waitFor({ timeout: 30_000 });
    expect(await worker.locator('[data-stat="delivered"]').textContent()).toBe(pct(p.workers[0].delivered));
    expect(await worker.locator('[data-stat="gap"]').textContent()).toMatch(/^−\d+(\.\d+)? pp$/);
    await page.getByTestId("router-log").scrollIntoViewIfNeeded();
    await shot(page, "cache-router-log-one-worker.png");
    await shot(page.getByTestId("router-log"), "cache-router-log-one-worker-section.png");
  });

  it("a log at INFO says to log at DEBUG, with no empty chart", async () => {
    const run = await apiUpload(t.app.url, generate("info-only"), { name: "e2e dynamo router log at info" });
    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await gotoHydrated(page, `${t.app.url}/runs/${run.id}?view=cache`);
    const missing = page.getByTestId("router-log-missing");
    await missing.waitFor({ timeout: 30_000 });
    expect(await missing.textContent()).toContain("DYN_LOG=debug");
    const section = page.getByTestId("router-log");
    expect(await section.locator("[data-chart]").count()).toBe(0);
    expect(await page.getByTestId("router-log-table").count()).toBe(0);
    await section.scrollIntoViewIfNeeded();
    await shot(page, "cache-router-log-info-only.png");
  });
});
