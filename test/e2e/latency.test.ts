import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useAppAndBrowser, type RunningApp } from "./harness";

const FIX = path.resolve(__dirname, "../fixtures/aiperf");

/** Uploads `folder` through the home page's folder picker and opens the new run's Latency view. */
async function latencyOfUploadedFolder(browser: Browser, app: RunningApp, folder: string) {
  const page = await browser.newPage();
  await page.goto(app.url);
  await page.getByTestId("folder-input").setInputFiles(folder);
  await page.waitForURL(/\/runs\/[A-Za-z0-9_-]{22}/, { timeout: 30_000 });
  await page.getByRole("tab", { name: "Latency" }).click();
  await page.waitForURL(/view=latency/);
  return page;
}

describe("latency view of an aiperf folder upload", () => {
  const t = useAppAndBrowser();
  let folder: string;

  beforeAll(async () => {
    // The qwen-c4 artifacts under their default names, in aiperf's artifact-folder layout.
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "aiperf-e2e-"));
    folder = path.join(root, "Qwen_Qwen3-0.6B-openai-chat-concurrency4");
    fs.mkdirSync(folder);
    for (const f of ["profile_export.jsonl", "profile_export_aiperf.json", "gpu_telemetry_export.jsonl"])
      fs.copyFileSync(path.join(FIX, `qwen-c4__${f}`), path.join(folder, f));
  });
  afterAll(async () => {
    if (folder) fs.rmSync(path.dirname(folder), { recursive: true, force: true });
  });

  it("shows aiperf's p99 TTFT of every request in the table and says the records are a sample of it", async () => {
    const page = await latencyOfUploadedFolder(t.browser, t.app, folder);
    // The run's figures are aiperf's own over its 64 requests (profile_export_aiperf.json: p99 TTFT
    // 70.733 ms, p99 latency 3,940.60 ms); the 10 records are a sample, drawn in the charts.
    const p99 = page.locator('[data-stat="ttftMs-p99"]');
    await expect.poll(() => p99.textContent(), { timeout: 15_000 }).toBe("70.7 ms");
    expect(await page.locator('[data-stat="e2eMs-p99"]').textContent()).toBe("3,940.6 ms");
    expect(await page.locator('[data-stat="ttftMs-count"]').textContent()).toBe("64");
    expect(await page.getByTestId("records-sample-line").textContent()).toContain("10 of 64 requests");
    // 10 records of the 64 requests the summary counts: a sample, not a disagreement.
    await expect
      .poll(() => page.getByTestId("aiperf-sample").textContent())
      .toContain("Records are a sample of 10 of 64 requests");
    expect(await page.getByTestId("aiperf-disagreement").count()).toBe(0);
    // The table above is aiperf's summary already: no second copy of it marked "summary".
    expect(await page.getByTestId("aiperf-summary-stats").count()).toBe(0);
    await expect.poll(() => page.locator('[data-chart="latency-histogram"]').count()).toBe(1);
    await page.close();
  });
});

describe("latency view when every request is present but a value differs", () => {
  const t = useAppAndBrowser();
  let folder: string;

  beforeAll(async () => {
    // The real aiperf 0.6.0 run (200 records, 200 requests in its summary), one record's TTFT
    // changed from 67.8057 ms to 5,000 ms: counts agree, values do not.
    const real = path.resolve(__dirname, "../fixtures/aiperf-real-c4");
    folder = fs.mkdtempSync(path.join(os.tmpdir(), "aiperf-e2e-changed-"));
    const lines = fs.readFileSync(path.join(real, "profile_export.jsonl"), "utf8").split("\n");
    const before = '"time_to_first_token":{"value":67.80570399999999';
    if (!lines[0].includes(before)) throw new Error("fixture changed: first record's TTFT");
    lines[0] = lines[0].replace(before, '"time_to_first_token":{"value":5000');
    fs.writeFileSync(path.join(folder, "profile_export.jsonl"), lines.join("\n"));
    fs.copyFileSync(
      path.join(real, "profile_export_aiperf.json"),
      path.join(folder, "profile_export_aiperf.json"),
    );
  });
  afterAll(async () => {
    if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  it("shows the disagreement with aiperf's summary, and no sample note", async () => {
    const page = await latencyOfUploadedFolder(t.browser, t.app, folder);
    const box = page.getByTestId("aiperf-disagreement");
    await expect.poll(() => box.textContent(), { timeout: 15_000 }).toContain("disagrees");
    expect(await box.textContent()).toContain("TTFT (ms)");
    expect(await page.getByTestId("aiperf-sample").count()).toBe(0);
    await page.close();
  });
});
