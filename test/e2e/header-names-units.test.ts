/**
 * What the run header, the runs list and the figures' units say, checked on the example runs and
 * on TensorRT-LLM records uploaded one file at a time (test/fixtures/trtllm/, sources in its
 * INDEX.md) — review of 3 Dec 2026, items 16, 21, 22 and 24:
 * - the header's facts never contradict the data (disaggregated perf metrics beside "combined ×1",
 *   a TPOT toggle on a run where no request recorded TPOT);
 * - unnamed runs are told apart by their default names;
 * - the 1 prefill + 3 decode example names its served model in full;
 * - a table of bytes and bandwidths writes them in the units of the tiles above it, and a column of
 *   start times in one precision.
 * Screenshots go to RUNLENS_SCREENSHOT_DIR.
 */
import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { apiUpload, gotoHydrated, seededExampleRuns, shot, useAppAndBrowser } from "./harness";

const TRT = path.resolve(__dirname, "../fixtures/trtllm");

describe("run header facts, default names and units", () => {
  const t = useAppAndBrowser({ env: { RUNLENS_EXAMPLES: "on" } });

  const examples = () => seededExampleRuns(t.app.url, 120_000);
  const example = async (name: RegExp) => {
    const run = (await examples()).find((r) => name.test(r.name));
    if (!run) throw new Error(`no example run named ${name}`);
    return run;
  };
  const openHeader = async (page: Page, url: string) => {
    await gotoHydrated(page, url);
    await page.getByTestId("run-facts").waitFor({ timeout: 30_000 });
  };

  it("names the 1 prefill + 3 decode example's served model in full, in the runs list and the header", async () => {
    const run = await example(/1 prefill \+ 3 decode/);
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/`);
    const row = page.locator('[data-testid="runs-table"] tbody tr', { hasText: run.name });
    await expect
      .poll(() => row.locator('[data-col="model"]').textContent(), { timeout: 30_000 })
      .toBe("meta-llama/Llama-3.1-8B-Instruct");
    await openHeader(page, `${t.app.url}/runs/${run.id}`);
    // The value, before its source (read out to a screen reader, not shown).
    const model = await page.locator('[data-testid="run-facts"] [data-fact="model"] dd').innerText();
    expect(model.split("\n")[0]).toBe("meta-llama/Llama-3.1-8B-Instruct");
    await page.close();
  });

  it("a disaggregated TensorRT-LLM run's header names its prefill and decode workers, never combined, and proves return_perf_metrics", async () => {
    // The example holds a disagg server's record, a generation worker's record and a Dynamo worker
    // scrape without a role label: that scrape alone would make the worker "combined".
    const run = await example(/^TensorRT-LLM · disaggregated perf metrics$/);
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await openHeader(page, `${t.app.url}/runs/${run.id}`);
    const roles = await page.locator('[data-testid="run-facts"] [data-fact="roles"] dd').innerText();
    expect(await page.getByTestId("run-info").innerText()).toMatch(/serving\s+disaggregated/i);
    expect(roles).not.toMatch(/combined/);
    expect(roles).toMatch(/decode ×1/);
    expect(await page.locator("header").first().innerText()).not.toMatch(/return_perf_metrics:?\s*unknown/);
    await shot(page, "header-trtllm-disaggregated.png", { fullPage: false });
    await page.close();
  });

  it("offers no TPOT toggle as if it had a chart on a run where no request recorded TPOT", async () => {
    const name = "perf_metrics-disagg-reconstructed.jsonl";
    const { id } = await apiUpload(t.app.url, [{ path: path.join(TRT, name) }]);
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/runs/${id}?view=latency`);
    const group = page.getByRole("group", { name: "metric" });
    await group.waitFor({ timeout: 30_000 });
    const tpot = group.getByRole("button", { name: "TPOT" });
    expect(await tpot.isDisabled()).toBe(true);
    expect(await tpot.getAttribute("title")).toMatch(
      /^TPOT is not recorded in this run: no request has a known/,
    );
    expect(await group.getByRole("button", { name: "TTFT" }).isEnabled()).toBe(true);
    expect(await group.getByRole("button", { name: "E2E" }).isEnabled()).toBe(true);
    await shot(page, "latency-trtllm-no-tpot.png", { fullPage: false });
    await page.close();
  });

  it("unnamed uploads of one backend, serving mode and request count get names that tell them apart in the runs list", async () => {
    const files = [
      "perf_metrics-disagg-reconstructed.jsonl",
      "time_breakdown_readme_disaggregated.json",
      "dynamo_doc_request_perf_metrics.json",
    ];
    const ids: string[] = [];
    for (const f of files) ids.push((await apiUpload(t.app.url, [{ path: path.join(TRT, f) }])).id);
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/`);
    const shown: string[] = [];
    for (const id of ids) {
      const link = page.locator(`[data-testid="runs-table"] a[href="/runs/${id}"]`).first();
      await link.waitFor({ timeout: 30_000 });
      shown.push((await link.innerText()).trim());
    }
    expect(new Set(shown).size).toBe(files.length);
    for (const [i, name] of shown.entries()) expect(name).toContain(files[i]);
    await shot(page, "runs-list-told-apart.png");
    await page.close();
  });

  it("the offload tables write bytes and bandwidth in the units of the tiles above them", async () => {
    const run = await example(/^vLLM · KV offload to CPU$/);
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/runs/${run.id}?view=offload`);
    const table = page.getByTestId("offload-endpoint-table");
    await table.waitFor({ timeout: 30_000 });
    // The tiles: 10 MB offloaded at 5 MB/s.
    const tiles = await page.getByTestId("offload-facts").innerText();
    expect(tiles).toMatch(/GPU → CPU\s+10 MB/);
    expect(tiles).toMatch(/bandwidth GPU → CPU\s+5 MB\/s/);
    const headers = await table.locator("thead th").allInnerTexts();
    expect(headers.map((h) => h.toUpperCase())).toEqual(
      expect.arrayContaining(["GPU → CPU (MB)", "MB/S", "CPU → GPU (MB)"]),
    );
    expect(headers.join(" ")).not.toMatch(/GB/i);
    expect(await table.locator('[data-stat="bandwidth-gpu-to-cpu"]').first().innerText()).toBe("5");
    await shot(page, "offload-units.png");
    await page.close();
  });

  it("number axes keep every round tick, evenly spaced and with thousands separators, at 1440 and 390 px", async () => {
    // Where the review saw ticks dropped (0 / 2.5 / 5 / 7.5 / 12.5 GB/s, a phone's 0 / 400 / 1,000 ms)
    // and written without separators: the offload, latency and throughput views.
    const runs = await examples();
    const views: Array<[RegExp, string]> = [
      [/^vLLM · KV offload to CPU$/, "offload"],
      [/^vLLM · KV offload, CPU and fs tiers/, "offload"],
      [/^aiperf · mock-llama-8b on 2 vLLM-style servers/, "latency"],
      [/^aiperf · mock-llama-8b on 2 vLLM-style servers/, "throughput"],
      [/^TensorRT-LLM · disaggregated · 300 requests/, "latency"],
    ];
    const problems: string[] = [];
    let axes = 0;
    for (const width of [1440, 390]) {
      const page = await t.browser.newPage({ viewport: { width, height: 900 } });
      for (const [name, view] of views) {
        const run = runs.find((r) => name.test(r.name))!;
        await gotoHydrated(page, `${t.app.url}/runs/${run.id}?view=${view}`);
        await page.locator("figure[data-chart] svg.recharts-surface").first().waitFor({ timeout: 30_000 });
        await page.waitForLoadState("networkidle");
        await page.waitForFunction(() => !/Loading [^…]*…/.test(document.body.innerText), null, {
          timeout: 30_000,
        });
        const found = await page.evaluate(() =>
          [...document.querySelectorAll("figure[data-chart] .recharts-cartesian-axis-tick-labels")].map(
            (ax) => ({
              chart: ax.closest("figure")!.getAttribute("data-chart"),
              ticks: [...ax.querySelectorAll(".recharts-cartesian-axis-tick-value")].map((t) =>
                (t.textContent ?? "").trim(),
              ),
            }),
          ),
        );
        for (const a of found) {
          const values = a.ticks.map((x) => /^(-?[\d,]*\.?\d+)\s*[A-Za-z/%]*$/.exec(x)?.[1]);
          if (values.length < 3 || values.some((v) => v === undefined)) continue;
          axes++;
          const where = `${width} px ${run.name} › ${view} › ${a.chart}: ${JSON.stringify(a.ticks)}`;
          const n = values.map((v) => Number(v!.replace(/,/g, ""))).sort((x, y) => x - y);
          const log = n[0] > 0 && n.every((v, i) => i === 0 || Math.abs(v / n[i - 1] - 10) < 1e-6);
          const steps = n.slice(1).map((v, i) => v - n[i]);
          if (!log && steps.some((d) => Math.abs(d - steps[0]) > 1e-9 * Math.max(1, Math.abs(steps[0]))))
            problems.push(`${where} unevenly spaced`);
          if (a.ticks.some((x) => /\d{4}/.test(x) && !x.includes(",")))
            problems.push(`${where} no separators`);
        }
      }
      await page.close();
    }
    expect(axes).toBeGreaterThan(10);
    expect(problems).toEqual([]);
    // Ten page loads, each waiting for its data: past 120 s on a loaded machine.
  }, 300_000);

  it("the slowest requests' start column has one precision", async () => {
    const run = await example(/^aiperf · mock-llama-8b on 2 vLLM-style servers/);
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/runs/${run.id}?view=latency`);
    const table = page.getByTestId("slowest-requests");
    await table.waitFor({ timeout: 30_000 });
    const col = (await table.locator("thead th").allInnerTexts()).findIndex((h) => /^start$/i.test(h.trim()));
    expect(col).toBeGreaterThanOrEqual(0);
    const starts = await table.locator(`tbody tr td:nth-child(${col + 1})`).allInnerTexts();
    expect(starts.length).toBeGreaterThan(3);
    for (const s of starts) expect(s).toMatch(/^[\d,]+\.\d{3} s$/);
    await page.close();
  });

  it("a long run name wraps beside its buttons at 1440 px: Copy link stays on the name's row", async () => {
    // Review of 3 Dec 2026, smaller observations: the name took the row and pushed Copy link under it.
    const run = await example(/^aiperf · mock-llama-8b on 2 vLLM-style servers/);
    for (const scheme of ["light", "dark"] as const) {
      const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 }, colorScheme: scheme });
      await openHeader(page, `${t.app.url}/runs/${run.id}`);
      const name = (await page.getByTestId("run-name").boundingBox())!;
      for (const label of ["Add to compare", "Copy link"]) {
        const button = (await page.getByRole("button", { name: label }).boundingBox())!;
        expect(button.y, label).toBeLessThan(name.y + name.height);
        expect(button.x, label).toBeGreaterThan(name.x + name.width);
      }
      await shot(page, `header-long-name-${scheme}-1440.png`, { fullPage: false });
      await page.close();
    }
    // On a phone the buttons still go under the name, inside the page's width.
    const phone = await t.browser.newPage({ viewport: { width: 390, height: 844 } });
    await gotoHydrated(phone, `${t.app.url}/runs/${run.id}`);
    await phone.getByTestId("run-name").waitFor({ timeout: 30_000 });
    const copy = (await phone.getByRole("button", { name: "Copy link" }).boundingBox())!;
    expect(copy.x + copy.width).toBeLessThanOrEqual(390);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(phone, "header-long-name-light-390.png", { fullPage: false });
    await phone.close();
  });
});
