/**
 * What a reader sees of the definition differences and of p75 (docs/metrics.md §Definitions beside
 * aiperf, §Statistics): the real aiperf 0.6 run (test/fixtures/aiperf/real-v0.6-c4: 200 requests,
 * 2 HTTP 500s, aiperf's request_count 198), a generated aiperf run whose warm-up is known only
 * from its v2 config, a generated TensorRT-LLM run at p75, and the compare page at p75.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { apiUpload, gotoHydrated, shot, uploadGeneratedTrtllm, useAppAndBrowser } from "./harness";

const REAL = path.resolve(__dirname, "../fixtures/aiperf/real-v0.6-c4");
const COMPARE = path.resolve(__dirname, "../fixtures/compare");

describe("aiperf definitions and p75 on screen", () => {
  const t = useAppAndBrowser();

  it("the real run's Overview shows 200 requests beside aiperf's 198 successful, with definitions", async () => {
    const run = await apiUpload(
      t.app.url,
      ["profile_export.jsonl", "profile_export_aiperf.json", "server_metrics_export.json"].map((f) => ({
        path: path.join(REAL, f),
      })),
      { name: "aiperf 0.6 real c4" },
    );
    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await gotoHydrated(page, `${t.app.url}/runs/${run.id}`);
    const requests = page.getByTestId("tile-requests");
    await expect
      .poll(() => requests.textContent(), { timeout: 30_000 })
      .toContain("Requests (errors included)");
    const text = (await requests.textContent())!;
    expect(text).toContain("200");
    expect(text).toContain("198 successful (aiperf's request count)");
    expect(text).toContain("2 errors");
    // The run's configuration names no warm-up (aiperf's input_config), so none ran.
    expect(text).toContain("no warm-up (configured)");
    const definitions = (await page.getByTestId("overview-definitions").textContent())!;
    expect(definitions).toContain("aiperf's request_count counts successful requests only");
    expect(definitions).toContain("generation-token counter");
    // The servers counted 12,170 generation tokens (ground_truth.json), as many as aiperf's total_osl.
    const tokens = (await page.getByTestId("tile-output-tokens").textContent())!;
    expect(tokens).toContain("12,170");
    expect(tokens).toContain("client total and server counter agree");
    await shot(page, "overview-aiperf-definitions.png");

    await page.getByRole("tab", { name: "Latency" }).click();
    await page.waitForURL(/view=latency/);
    // aiperf's own p75 of this run's TTFT is 70.0027035 ms; ours from the records is the same
    // (written at its column's one decimal).
    const p75 = page.getByTestId("latency-stats").locator('[data-stat="ttftMs-p75"]');
    await expect.poll(() => p75.textContent(), { timeout: 15_000 }).toBe("70.0 ms");
    const counts = (await page.getByTestId("request-counts").textContent())!;
    expect(counts).toContain("successful (aiperf's request count)198");
    await expect
      .poll(() => page.locator('[data-chart="latency-histogram"] .recharts-reference-line').count())
      .toBe(4);
    expect(await page.locator('[data-chart="latency-histogram"]').getByText("p75").count()).toBe(1);
    await shot(page, "latency-aiperf-p75.png");
    await shot(page.locator('[data-chart="latency-histogram"]'), "latency-histogram-p75.png");
    await page.close();
  });

  it("where the server counter and the client total differ, both are shown with the difference", async () => {
    // The server metrics of a Dynamo frontend over 1 prefill + 3 decode TensorRT-LLM workers
    // (the 1P+3D example), beside aiperf records and summary of 5 requests: aiperf counts 275
    // output tokens, the frontend's counter 2,000.
    const examples = path.resolve(__dirname, "../../lib/examples/files");
    const run = await apiUpload(
      t.app.url,
      [
        "trtllm-1p3d-server-metrics/server_metrics_export.json",
        "vllm-kv-offload/profile_export.jsonl",
        "vllm-kv-offload/profile_export_aiperf.json",
      ].map((f) => ({ path: path.join(examples, f) })),
      { name: "client and server tokens differ" },
    );
    const page = await t.browser.newPage({ viewport: { width: 1400, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/runs/${run.id}`);
    const client = page.getByTestId("tile-output-tokens-client");
    await expect.poll(() => client.textContent(), { timeout: 30_000 }).toContain("275");
    const server = (await page.getByTestId("tile-output-tokens-server").textContent())!;
    expect(server).toContain("2,000");
    expect(server).toContain("1,725 more than the client counted");
    expect(await page.getByTestId("tile-output-tokens").count()).toBe(0);
    await shot(page, "overview-output-tokens-differ.png");
    await page.close();
  });

  it("a warm-up aiperf did not export is taken from the v2 config and says so", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-e2e-warmup-"));
    const gen = await generateAiperfRun(dir, {
      records: 200,
      warmup: 12,
      warmupRecords: false,
      config: "v2",
      csv: false,
    });
    const run = await apiUpload(t.app.url, [{ path: gen.jsonlPath }, { path: gen.summaryPath }], {
      name: "warm-up from config",
    });
    const page = await t.browser.newPage();
    await gotoHydrated(page, `${t.app.url}/runs/${run.id}`);
    await expect
      .poll(() => page.getByTestId("tile-requests").textContent(), { timeout: 30_000 })
      .toContain("12 warm-up requests (configured; no warm-up records uploaded)");
    await page.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("the breakdown statistic toggle offers p75", async () => {
    const run = await uploadGeneratedTrtllm(
      t.app.url,
      { mode: "disaggregated", requests: 200, seed: 5 },
      { name: "breakdown at p75" },
    );
    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await gotoHydrated(page, `${t.app.url}/runs/${run.id}?view=breakdown`);
    await page.getByText("Where the time goes (p50)").waitFor({ timeout: 30_000 });
    const toggle = page.getByRole("group", { name: "statistic" });
    expect(await toggle.getByRole("button").allTextContents()).toEqual(["mean", "p50", "p75", "p90", "p99"]);
    await toggle.getByRole("button", { name: "p75" }).click();
    await page.getByText("Where the time goes (p75)").waitFor();
    await expect.poll(() => page.url()).toContain("stat=p75");
    await shot(page, "breakdown-p75.png");
    await page.close();
  });

  it("compare reads every run at p75", async () => {
    const up = (d: string, name: string) =>
      apiUpload(
        t.app.url,
        [
          { path: path.join(COMPARE, d, "perf_metrics-0.jsonl") },
          { path: path.join(COMPARE, d, "extra-llm-api-config.yml") },
        ],
        { name },
      );
    const a = (await up("run-a", "p75 baseline")).id;
    const b = (await up("run-b", "p75 branch")).id;
    const page = await t.browser.newPage();
    await gotoHydrated(page, `${t.app.url}/compare?runs=${a},${b}`);
    await expect
      .poll(() => page.getByTestId("delta-table").textContent(), { timeout: 30_000 })
      .toContain("p75 branch");
    await page.getByTestId("stat-picker").selectOption("p75");
    await page.waitForURL(/stat=p75/);
    await expect
      .poll(() => page.getByRole("heading", { name: /Deltas against the baseline at p75/ }).count())
      .toBe(1);
    expect(await page.locator('tr[data-metric="segment:decode"]').textContent()).toMatch(/\d ms/);
    await page.close();
  });
});
