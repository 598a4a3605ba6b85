import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, startApp, type RunningApp } from "./harness";

const FIX = path.resolve(__dirname, "../fixtures/aiperf");

describe("latency view of an aiperf folder upload", () => {
  let app: RunningApp;
  let browser: Browser;
  let folder: string;

  beforeAll(async () => {
    // The qwen-c4 artifacts under their default names, in aiperf's artifact-folder layout.
    const root = fs.mkdtempSync(path.join(os.tmpdir(), "aiperf-e2e-"));
    folder = path.join(root, "Qwen_Qwen3-0.6B-openai-chat-concurrency4");
    fs.mkdirSync(folder);
    for (const f of ["profile_export.jsonl", "profile_export_aiperf.json", "gpu_telemetry_export.jsonl"])
      fs.copyFileSync(path.join(FIX, `qwen-c4__${f}`), path.join(folder, f));
    app = await startApp();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    if (folder) fs.rmSync(path.dirname(folder), { recursive: true, force: true });
  });

  it("shows the records' p99 TTFT in the table and the disagreement with aiperf's summary", async () => {
    const page = await browser.newPage();
    await page.goto(app.url);
    await page.getByTestId("folder-input").setInputFiles(folder);
    await page.waitForURL(/\/runs\/[A-Za-z0-9_-]{22}/, { timeout: 30_000 });
    await page.getByRole("tab", { name: "Latency" }).click();
    await page.waitForURL(/view=latency/);
    // numpy.percentile(ttft of the 10 records, 99) = 70.7396… ms; aiperf's own p99 over 64 requests is 70.733.
    const p99 = page.locator('[data-stat="ttftMs-p99"]');
    await expect.poll(() => p99.textContent(), { timeout: 15_000 }).toBe("70.7 ms");
    expect(await page.locator('[data-stat="e2eMs-p99"]').textContent()).toBe("3,783.1 ms");
    expect(await page.locator('[data-stat="ttftMs-count"]').textContent()).toBe("10");
    await expect.poll(() => page.getByTestId("aiperf-disagreement").textContent()).toContain("disagrees");
    await expect.poll(() => page.locator('[data-chart="latency-histogram"]').count()).toBe(1);
    await page.close();
  });
});
