/**
 * The Offload and KV views of a generated vLLM offload run (test/generators/vllm-offload.mjs, series
 * as vLLM's offloading connector writes them, exports as aiperf writes them): per-endpoint bandwidth
 * by direction with its method and the external hit rate, plain numbers; the JSONL export alone
 * says why the KV capacity is unknown.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { apiUpload, useAppAndBrowser, shot } from "./harness";

describe("offload view of a vLLM run", () => {
  const t = useAppAndBrowser();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-e2e-offload-"));
  execFileSync(process.execPath, ["test/generators/vllm-offload.mjs", dir]);

  it("shows bytes over transfer time per endpoint and direction, the external hit rate, no e-notation", async () => {
    const run = await apiUpload(t.app.url, [{ path: path.join(dir, "server_metrics_export.json") }], {
      name: "e2e vLLM offload",
    });
    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1100 } });
    await page.goto(`${t.app.url}/runs/${run.id}?view=offload`);
    const table = page.getByTestId("offload-endpoint-table");
    await table.waitFor({ timeout: 30_000 });
    const a = table.locator('[data-endpoint="10.0.0.1:8000"]');
    // 2 MiB per 0.2 ms stored, per 0.1 ms loaded; 12 of 2,816 missed tokens served by the CPU tier per step.
    expect(await a.locator('[data-stat="bandwidth-gpu-to-cpu"]').textContent()).toBe("10.486");
    expect(await a.locator('[data-stat="bandwidth-cpu-to-gpu"]').textContent()).toBe("20.972");
    expect(await a.locator('[data-stat="external-hit-rate"]').textContent()).toBe("6.8%");
    expect(await page.getByTestId("offload-method").textContent()).toContain("bytes / transfer time");
    // Both directions' bandwidth in one unit (review of 3 Dec, item 16: "0.005 GB/s" beside MB).
    const facts = await page
      .getByTestId("offload-facts")
      .locator("div")
      .evaluateAll((rows) =>
        rows.map((r) => [r.querySelector("dt")?.textContent, r.querySelector("dd")?.textContent]),
      );
    const units = facts
      .filter(([label]) => label?.startsWith("bandwidth"))
      .map(([, value]) => value?.match(/^[\d.,]+ ([KMGT]?B\/s)$/)?.[1]);
    expect(units).toHaveLength(2);
    expect(units[0]).toBeDefined();
    expect(units[1]).toBe(units[0]);
    await page.getByTestId("offload-tier-table").waitFor();
    await page.getByText("KV offload over time — All endpoints").waitFor({ timeout: 30_000 });
    expect(await page.locator("main").textContent()).not.toMatch(/\de[-+]\d/);
    await shot(page, "offload-vllm.png");
  });

  it("from the JSONL export alone, the KV view says the capacity is unknown and where it is", async () => {
    const run = await apiUpload(t.app.url, [{ path: path.join(dir, "server_metrics_export.jsonl") }], {
      name: "e2e vLLM offload jsonl",
    });
    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1100 } });
    await page.goto(`${t.app.url}/runs/${run.id}?view=kv`);
    const note = page.getByTestId("kv-capacity-missing");
    await note.waitFor({ timeout: 30_000 });
    expect(await note.textContent()).toContain("server_metrics_export.json or server_metrics_export.csv");
    await shot(page, "kv-vllm-jsonl.png");
  });
});
