/**
 * Every view of every example run (plus an all-error, a summary-only, a records-only and a vLLM
 * server-metrics upload), as a user opens them: no chart frame without data marks, a tab enabled
 * only when its view has something to show, and no request for a payload the run cannot have.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { RUN_VIEW_IDS } from "@/lib/api/run-views";
import { apiUpload, useAppAndBrowser, shot } from "./harness";

const FIX = path.join(__dirname, "..", "fixtures");

interface ListedRun {
  id: string;
  name: string;
}

/** Waits until no chart slot says it is loading and the DOM has been quiet for a moment. */
async function settle(page: Page) {
  await page.waitForLoadState("networkidle");
  await page.waitForFunction(() => !/Loading [^…]*…/.test(document.body.innerText), null, {
    timeout: 30_000,
  });
  await page.waitForTimeout(150);
}

/** Chart surfaces (not legend icons) that paint no bar, line segment, area or point. */
async function emptySurfaces(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const svg of document.querySelectorAll(".recharts-wrapper > svg.recharts-surface")) {
      const bars = [...svg.querySelectorAll(".recharts-bar-rectangle path, path.recharts-rectangle")].filter(
        (p) => Number(p.getAttribute("width") ?? 1) > 0 && Number(p.getAttribute("height") ?? 1) > 0,
      );
      const curves = [...svg.querySelectorAll("path.recharts-curve")].filter((p) =>
        /[LCQ]/.test(p.getAttribute("d") ?? ""),
      );
      const points = svg.querySelectorAll(".recharts-scatter-symbol, .recharts-dot");
      // A dense chart paints its marks on a canvas layer: marks when any of its pixels is painted.
      const painted = [...svg.querySelectorAll<HTMLCanvasElement>("canvas[data-canvas-marks]")].filter(
        (c) => {
          const px = c.getContext("2d")?.getImageData(0, 0, c.width, c.height).data ?? [];
          for (let i = 3; i < px.length; i += 4) if (px[i] > 0) return true;
          return false;
        },
      );
      if (bars.length + curves.length + points.length + painted.length === 0)
        out.push(svg.closest("figure")?.getAttribute("data-chart") ?? "(unnamed chart)");
    }
    return out;
  });
}

describe("views that never mislead", () => {
  const t = useAppAndBrowser({ env: { RUNLENS_EXAMPLES: "on" } });

  it("no view of any run draws a chart frame without data, and each tab's state is its view's", async () => {
    const uploads = [
      ["aiperf all-error", ["aiperf/doc-error-record__profile_export.jsonl"]],
      ["aiperf summary only", ["aiperf/real-v0.10__profile_export_aiperf.json"]],
      ["aiperf records only", ["aiperf/qwen-c1__profile_export.jsonl"]],
      ["vLLM server metrics", ["aiperf/doc-vllm__server_metrics_export.json"]],
    ] as const;
    for (const [name, files] of uploads)
      await apiUpload(
        t.app.url,
        files.map((f) => ({ path: path.join(FIX, f) })),
        { name },
      );
    const { runs } = (await (await fetch(`${t.app.url}/api/runs`)).json()) as { runs: ListedRun[] };
    // The 9 example runs (6 single runs and the 3 of the qwen example sweep) and the 4 uploads.
    expect(runs.length).toBe(13);

    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    const agreement404: string[] = [];
    page.on("response", (r) => {
      if (r.status() === 404 && r.url().includes("/charts/")) agreement404.push(r.url());
    });
    const problems: string[] = [];
    for (const run of runs) {
      for (const view of RUN_VIEW_IDS) {
        await page.goto(`${t.app.url}/runs/${run.id}?view=${view}`);
        await page.locator(`[data-view="${view}"]`).waitFor();
        await settle(page);
        for (const chart of await emptySurfaces(page)) problems.push(`${run.name} › ${view}: ${chart}`);
        // A disabled tab's view says what is missing instead of drawing anything.
        const disabled = await page.locator(`[data-view="${view}"]`).getAttribute("aria-disabled");
        if (disabled === "true") {
          expect(await page.getByTestId("empty-view").count(), `${run.name} › ${view}`).toBe(1);
          expect(await page.locator(".recharts-surface").count(), `${run.name} › ${view}`).toBe(0);
        }
      }
    }
    expect(problems).toEqual([]);
    // Latency asks for the summary agreement only on runs with both records and a summary.
    expect(agreement404).toEqual([]);
    await page.close();
  }, 900_000);

  it("the disaggregated perf-metrics example says 'not exported' where its series are absent, never 0 %", async () => {
    const { runs } = (await (await fetch(`${t.app.url}/api/runs`)).json()) as { runs: ListedRun[] };
    const run = runs.find((r) => r.name === "TensorRT-LLM · disaggregated perf metrics")!;
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });

    await page.goto(`${t.app.url}/runs/${run.id}`);
    const tiles = page.getByTestId("overview-tiles");
    await tiles.waitFor();
    const tile = (label: string) => tiles.locator("> div", { hasText: label }).first();
    expect(await tile("Cache hit rate (server)").innerText()).toContain("not exported");
    expect(await tile("KV usage avg / max").innerText()).toContain("not exported");
    expect(await tile("KV usage avg / max").innerText()).toContain("trtllm_kv_cache_utilization");
    // The request-level rate from the perf metrics is a real number and stays.
    expect(await tile("KV hit rate (requests)").innerText()).toContain("94.7%");
    expect(await tiles.innerText()).not.toMatch(/(^|\s)0%/);
    expect(await page.getByTestId("run-warnings").innerText()).toContain("kvstats_* gauges were never set");
    await shot(page, "honest-trtllm-perf-overview.png");

    // KV has nothing: the tab is disabled, says what to upload, and a click does not open it.
    const kvTab = page.locator('[data-view="kv"]');
    expect(await kvTab.getAttribute("aria-disabled")).toBe("true");
    expect(await kvTab.getAttribute("title")).toContain("enable_iter_perf_stats");
    await kvTab.click({ force: true });
    await page.waitForTimeout(300);
    expect(page.url()).not.toContain("view=kv");

    // Cache opens (the perf-metrics hit rate); the server rate is "not exported" with its series, and
    // the per-endpoint chart is one line saying what is missing instead of an empty frame.
    await page.locator('[data-view="cache"]').click();
    await page.waitForURL(/view=cache/);
    await settle(page);
    const facts = page.getByTestId("cache-facts");
    expect(await facts.innerText()).toContain("not exported");
    expect(await facts.innerText()).toContain("trtllm_prompt_cached_tokens");
    expect(await facts.innerText()).not.toMatch(/(^|\s)0%/);
    const missing = page.locator('[data-chart="endpoint-hit-rate"] [data-testid="chart-missing"]');
    expect(await missing.innerText()).toContain("prefix-cache counters");
    expect(await page.locator('[data-chart="endpoint-hit-rate"] .recharts-surface').count()).toBe(0);
    await shot(page, "honest-trtllm-perf-cache.png");

    // Endpoints: the worker's usage and hit rate are absent, not 0 %.
    await page.goto(`${t.app.url}/runs/${run.id}?view=endpoints`);
    const table = page.getByTestId("endpoints-table");
    await table.waitFor();
    await settle(page);
    const worker = table.locator("tr", { hasText: "dynamo_trtllm_worker_metrics" });
    expect(await worker.innerText()).not.toMatch(/(^|\s)0%/);
    await shot(page, "honest-trtllm-perf-endpoints.png");
    await page.close();
  });

  it("tabs of runs with nothing for Offload, KV or Cache are disabled and say why", async () => {
    const { runs } = (await (await fetch(`${t.app.url}/api/runs`)).json()) as { runs: ListedRun[] };
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    const state = async (name: string) => {
      const run = runs.find((r) => r.name === name)!;
      await page.goto(`${t.app.url}/runs/${run.id}`);
      await page.locator('[data-view="kv"]').waitFor();
      const out: Record<string, string | null> = {};
      for (const v of ["cache", "kv", "offload"])
        out[v] = await page.locator(`[data-view="${v}"]`).getAttribute("aria-disabled");
      return out;
    };
    // vLLM offload example: offload counters only, no cache counters, no KV gauges. Its records are
    // multi-turn, so the Cache view has the reuse ledger's theoretical step (the conversations'
    // history), the other steps saying what to upload.
    expect(await state("vLLM · KV offload to CPU")).toEqual({ cache: null, kv: "true", offload: null });
    // 1 prefill + 3 decode: hit rates and capacities, no offload counters.
    expect(await state("TensorRT-LLM · 1 prefill + 3 decode server metrics")).toEqual({
      cache: null,
      kv: null,
      offload: "true",
    });
    expect(await page.locator('[data-view="offload"]').getAttribute("title")).toContain("kv_offload_");
    await shot(page, "honest-tabs-1p3d.png", { fullPage: false });

    // The vLLM docs export: the Cache view never draws an empty 0–100 % frame.
    const vllm = runs.find((r) => r.name === "vLLM server metrics")!;
    await page.goto(`${t.app.url}/runs/${vllm.id}?view=cache`);
    await page.locator('[data-view="cache"]').waitFor();
    await settle(page);
    expect(await emptySurfaces(page)).toEqual([]);
    await shot(page, "honest-vllm-doc-cache.png");
    await page.close();
  });

  it("all-error run: latency charts say no request succeeded instead of drawing bare axes", async () => {
    const { runs } = (await (await fetch(`${t.app.url}/api/runs`)).json()) as { runs: ListedRun[] };
    const run = runs.find((r) => r.name === "aiperf all-error")!;
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${t.app.url}/runs/${run.id}?view=latency`);
    await page.locator('[data-view="latency"]').waitFor();
    await settle(page);
    // The server's first drawing gives way to the live view once its data has come: read the view
    // as it ends up, not the frame in between.
    await expect
      .poll(async () =>
        (await page.getByTestId("chart-missing").allInnerTexts()).some((l) =>
          l.includes("No successful request"),
        ),
      )
      .toBe(true);
    await expect.poll(() => emptySurfaces(page)).toEqual([]);
    await shot(page, "honest-error-run-latency.png");
    // Its overview cards say there was no successful request, in red, instead of 0 or a bare dash.
    await page.goto(`${t.app.url}/runs/${run.id}`);
    const tiles = page.getByTestId("overview-tiles");
    await tiles.waitFor();
    for (const id of ["tile-ttft", "tile-e2e", "tile-itl", "tile-output-throughput"]) {
      const tile = page.getByTestId(id);
      await expect.poll(() => tile.getAttribute("data-tone"), { message: id }).toBe("danger");
      await expect
        .poll(() => tile.innerText(), { message: id })
        .toMatch(/no successful request\s+every request failed \(1 error\)/);
    }
    expect(await page.getByTestId("tile-requests").getAttribute("data-tone")).toBe("danger");
    expect(await page.getByTestId("tile-itl").innerText()).toContain("ITL p50 / p99");
    expect(await tiles.innerText()).not.toMatch(/^—$/m);
    expect(await tiles.innerText()).not.toMatch(/^0$/m);
    await shot(page, "honest-error-run-overview.png");
    await page.close();
  });

  it("compare of the two TensorRT-LLM examples: KV usage is one line, not an empty 0–400 % frame", async () => {
    const { runs } = (await (await fetch(`${t.app.url}/api/runs`)).json()) as { runs: ListedRun[] };
    const ids = runs.filter((r) => r.name.startsWith("TensorRT-LLM · disaggregated")).map((r) => r.id);
    expect(ids).toHaveLength(2);
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${t.app.url}/compare?runs=${ids.join(",")}`);
    await page.locator("[data-chart]").first().waitFor({ timeout: 30_000 });
    await settle(page);
    // Neither run exports KV usage: the chart is either left out or one line saying what is missing.
    const kv = page.locator('[data-chart="compare-kv-usage"]');
    expect(await kv.locator(".recharts-surface").count()).toBe(0);
    if ((await kv.count()) > 0)
      expect(await kv.getByTestId("chart-missing").innerText()).toContain("KV usage gauge");
    expect(await page.locator("table").first().innerText()).not.toMatch(/(^|\s)0%/);
    expect(await emptySurfaces(page)).toEqual([]);
    await shot(page, "honest-compare-trtllm.png");
    await page.close();
  });
  it("Files: a file stored but not read has no record count, never 0 records", async () => {
    // The real aiperf run's server metrics in both exports: the JSON export is read, the JSONL of
    // the same scrapes is stored and not read; a notes file no analyzer knows is stored only.
    const dir = path.join(FIX, "aiperf-real-c4");
    const notes = path.join(os.tmpdir(), `runlens-notes-${process.pid}.txt`);
    fs.writeFileSync(notes, "run on the lab cluster\n");
    const { id } = await apiUpload(
      t.app.url,
      [
        { path: path.join(dir, "server_metrics_export.json") },
        { path: path.join(dir, "server_metrics_export.jsonl") },
        { path: notes },
      ],
      { name: "not-read files" },
    );
    fs.rmSync(notes, { force: true });
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${t.app.url}/runs/${id}?view=files`);
    const table = page.getByTestId("files-table");
    await table.waitFor();
    await table.getByText("server_metrics_export.jsonl").waitFor();
    const rows = await table
      .locator("tbody tr")
      .evaluateAll((trs) =>
        trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => (td.textContent ?? "").trim())),
      );
    const cells = (name: string) => rows.find((r) => r[0] === name) ?? [];
    const jsonl = cells("server_metrics_export.jsonl");
    expect(jsonl.join(" | ")).toContain("not read: the JSON export");
    expect(jsonl.slice(3, 5)).toEqual(["—", "—"]);
    const other = cells(path.basename(notes));
    expect(other.slice(3, 5)).toEqual(["—", "—"]);
    const json = cells("server_metrics_export.json");
    expect(Number(json[3].replace(/,/g, ""))).toBeGreaterThan(0);
    await page.close();
  });

  it("Files: a server-metrics export cut off says so and shows no counts, never 0 skipped", async () => {
    const whole = fs.readFileSync(path.join(FIX, "aiperf-real-c4", "server_metrics_export.json"));
    const cut = path.join(os.tmpdir(), `runlens-cut-${process.pid}`, "server_metrics_export.json");
    fs.mkdirSync(path.dirname(cut), { recursive: true });
    fs.writeFileSync(cut, whole.subarray(0, 150_000));
    const { id } = await apiUpload(t.app.url, [{ path: cut }], { name: "cut-off export" });
    fs.rmSync(path.dirname(cut), { recursive: true, force: true });
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`${t.app.url}/runs/${id}?view=files`);
    const table = page.getByTestId("files-table");
    await table.getByText("server_metrics_export.json").waitFor();
    const cells = await table
      .locator("tbody tr")
      .first()
      .evaluate((tr) => [...tr.querySelectorAll("td")].map((td) => (td.textContent ?? "").trim()));
    expect(cells.slice(3, 5)).toEqual(["—", "—"]);
    expect(cells[1]).toContain("nothing kept");
    expect(cells[5]).toContain("cut off: the document stops after 150,000 bytes");
    await shot(page, "files-cut-off-export.png");
    await page.close();
  });
});
