import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { gotoHydrated, useAppAndBrowser, shot } from "./harness";

const EXAMPLE = path.resolve(
  __dirname,
  "../../lib/examples/files/trtllm-disagg-synthetic/perf_metrics-disagg-router-1-20260101T000000Z.jsonl",
);

/** numpy.percentile's default: linear between closest ranks. */
function percentile(values: number[], q: number): number {
  const s = [...values].sort((a, b) => a - b);
  const rank = (q / 100) * (s.length - 1);
  const lo = Math.floor(rank);
  return s[lo] + (s[Math.ceil(rank)] - s[lo]) * (rank - lo);
}

describe("latency view of the example TensorRT-LLM run (perf metrics only)", () => {
  const t = useAppAndBrowser({ env: { RUNLENS_EXAMPLES: "on" } });

  it("shows a histogram with axis titles, the p99 TTFT and the definitions", async () => {
    // TTFT of a disaggregated request: the disagg server's arrival to its first token
    // (tensorrt_llm/serve/perf_metrics.py writes both stamps on the disagg-server record).
    const ttft = fs
      .readFileSync(EXAMPLE, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .map((r) => (r.disagg_server_first_token_time - r.disagg_server_arrival_time) * 1000);
    const p99 = percentile(ttft, 99);
    const want = `${p99.toLocaleString("en-US", { maximumFractionDigits: 1 })} ms`;

    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, t.app.url);
    await page.getByText("TensorRT-LLM · disaggregated · 300 requests (synthetic)").click();
    await page.waitForURL(/\/runs\//);
    // The run page's tabs answer once it has hydrated (a click before that is lost on a loaded machine).
    await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 30_000 });
    const tab = page.getByRole("tab", { name: "Latency" });
    await expect.poll(() => tab.isDisabled(), { timeout: 30_000 }).toBe(false);
    await tab.click();
    await page.waitForURL(/view=latency/);
    const cell = page.locator('[data-stat="ttftMs-p99"]');
    await expect.poll(() => cell.textContent(), { timeout: 30_000 }).toBe(want);
    expect(await page.locator('[data-stat="ttftMs-count"]').textContent()).toBe("300");

    const hist = page.locator('[data-chart="latency-histogram"]');
    await hist.locator(".recharts-bar-rectangle").first().waitFor({ timeout: 30_000 });
    const labels = await hist.locator(".recharts-label").allTextContents();
    expect(labels).toContain("Time to first token (ms)");
    expect(labels).toContain("requests");
    // Percentile marks are labelled by the chart kit's own label (one row each, never overlapping).
    expect(await hist.locator(".chart-mark-label").allTextContents()).toContain("p99");
    expect(await page.getByTestId("trtllm-latency-definitions").textContent()).toContain(
      "disagg_server_arrival_time",
    );
    await shot(page, "trtllm-latency-ttft.png");

    await page.getByRole("group", { name: "metric" }).getByRole("button", { name: "TPOT" }).click();
    await page.waitForURL(/metric=tpotMs/);
    await expect
      .poll(() => page.locator('[data-chart="latency-histogram"] h3').textContent())
      .toContain("Time per output token");
    await shot(page, "trtllm-latency-tpot.png");
    await page.close();
  });

  it("draws no chart frame for one request, and takes TPOT from the generation iterations", async () => {
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, t.app.url);
    await page.getByText("TensorRT-LLM · disaggregated perf metrics").click();
    await page.waitForURL(/\/runs\//);
    // The run page's tabs answer once it has hydrated (a click before that is lost on a loaded machine).
    await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 30_000 });
    await page.getByRole("tab", { name: "Latency" }).click();
    await page.waitForURL(/view=latency/);
    const missing = page.getByTestId("trtllm-latency-missing");
    await expect.poll(() => missing.textContent(), { timeout: 30_000 }).toContain("One request");
    // The generation record's first_iter/last_iter count its output tokens: TPOT is recorded, so
    // nothing is named as not recorded for want of return_perf_metrics.
    expect(await page.getByTestId("trtllm-latency-not-recorded").count()).toBe(0);
    expect(await page.locator(".recharts-surface").count()).toBe(0);
    await page.close();
  });
});
