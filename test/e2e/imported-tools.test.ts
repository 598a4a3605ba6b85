/**
 * Runs imported from other benchmark tools, as a user opens them: a vLLM `bench serve
 * --save-detailed` result (vllm/benchmarks/serve.py, test/generators/vllm-bench.ts) draws the
 * latency and throughput charts of an aiperf run; vLLM's run-level figures alone fill the latency
 * table and draw no chart; an SGLang result with details (python/sglang/bench_serving.py) says
 * why it has no timeline instead of failing to load one.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { vllmBenchResult } from "../generators/vllm-bench";
import { sglangLine, sglangSweep } from "../generators/sglang-bench";
import { apiUpload, gotoHydrated, useAppAndBrowser, shot } from "./harness";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "imported-e2e-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function sample(name: string, text: string): string {
  const p = path.join(dir, name);
  fs.writeFileSync(p, text);
  return p;
}

describe("runs imported from other benchmark tools", () => {
  const t = useAppAndBrowser();

  it("draw the aiperf views from vLLM's per-request arrays, and only tables from its figures alone", async () => {
    const detailed = vllmBenchResult({ requests: 300, concurrency: 8, detailed: true, errorEvery: 50 });
    const { id } = await apiUpload(t.app.url, [{ path: sample("vllm.json", JSON.stringify(detailed)) }]);
    const { id: plainId } = await apiUpload(t.app.url, [
      { path: sample("vllm-plain.json", JSON.stringify(vllmBenchResult({ requests: 300 }))) },
    ]);
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 1200 } });
    const failed: string[] = [];
    page.on("response", (r) => {
      if (r.status() >= 400 && r.url().includes("/api/")) failed.push(`${r.status()} ${r.url()}`);
    });

    await page.goto(`${t.app.url}/runs/${id}?view=latency`);
    await page.locator('figure[data-chart*="histogram"]').first().waitFor({ timeout: 30_000 });
    const stats = page.getByTestId("latency-stats");
    // 300 requests, every 50th failed: 294 measured.
    expect(await stats.locator('[data-stat="ttftMs-count"]').innerText()).toBe("294");
    expect(await page.getByTestId("request-counts").innerText()).toContain("6");
    await shot(page, "imported-vllm-latency.png");

    await page.goto(`${t.app.url}/runs/${id}?view=throughput`);
    await page.locator("figure[data-chart]").first().waitFor({ timeout: 30_000 });
    expect(await page.locator("figure[data-chart-empty]").count()).toBe(0);

    await page.goto(`${t.app.url}/runs/${plainId}?view=latency`);
    await page.getByTestId("latency-stats").waitFor();
    await page.waitForLoadState("networkidle");
    const live = page.getByTestId("latency-stats");
    expect(await live.locator('[data-stat="ttftMs-p99"]').innerText()).toMatch(/ms$/);
    // vLLM writes no min or max: shown as not recorded, never 0.
    expect(await live.locator('[data-stat="ttftMs-min"]').innerText()).not.toMatch(/^0/);
    expect(await page.getByTestId("request-counts").innerText()).toContain("benchmark tool");
    expect(await page.locator(".recharts-surface").count()).toBe(0);
    expect(failed).toEqual([]);
    await page.close();
  }, 300_000);

  it("an SGLang run without start times says it has no timeline and still lists its errors", async () => {
    const line = sglangLine({ requests: 120, details: true, errorEvery: 40 });
    const { id } = await apiUpload(t.app.url, [
      { path: sample("sglang.jsonl", JSON.stringify(line) + "\n") },
    ]);
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 1000 } });
    const failed: string[] = [];
    page.on("response", (r) => {
      if (r.status() >= 400 && r.url().includes("/api/")) failed.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(`${t.app.url}/runs/${id}?view=throughput`);
    expect(await page.getByTestId("no-timeline").innerText()).toContain("SGLang bench_serving");
    await page.locator('figure[data-chart*="error"]').first().waitFor({ timeout: 30_000 });
    await page.waitForLoadState("networkidle");
    expect(failed).toEqual([]);
    await page.close();
  }, 300_000);

  it("an SGLang concurrency sweep file dropped on the page opens as a sweep of its three benchmarks", async () => {
    const file = sample("sweep.jsonl", sglangSweep([1, 4, 16], { requests: 40, details: true }));
    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await gotoHydrated(page, t.app.url);
    await page.getByLabel("Run name").fill("sglang sweep");
    await page.getByTestId("file-input").setInputFiles([file]);
    // The upload made a sweep: the page it lands on is the sweep's, not its first run's.
    await page.waitForURL(/\/sweeps\/[A-Za-z0-9_-]+$/, { timeout: 30_000 });
    const table = page.getByTestId("sweep-table");
    await expect.poll(() => table.locator("tbody tr").count()).toBe(3);
    const ttft = page.locator('figure[data-chart="sweep-ttft"]');
    expect(await ttft.getAttribute("data-chart-empty")).toBeNull();
    await expect.poll(() => ttft.locator(".recharts-scatter-symbol").count()).toBeGreaterThanOrEqual(3);
    await shot(page, "imported-sglang-sweep.png");
    await page.close();
  });
});
