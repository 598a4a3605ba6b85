/**
 * Every view on every example run it has data for and on one it has none for (the runs include an
 * all-error, a summary-only, a records-only and a vLLM server-metrics upload), as a user opens them: no chart frame without data marks, a tab enabled
 * only when its view has something to show, and no request for a payload the run cannot have; on
 * the example runs (and the compare page), readable numbers and chart labels that never clash;
 * on every tab of every example run, no internal name on screen (issue 29, review item 20)
 * (test/e2e/view-checks.ts). Each page is visited once for all of these checks.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { RUN_VIEW_IDS, RUN_VIEWS } from "@/lib/api/run-views";
import { runSummarySchema, type RunSummary } from "@/lib/api/schemas";
import type { BrowserContext, Page } from "playwright-core";
import { apiUpload, gotoHydrated, settleLayout, useAppAndBrowser, shot } from "./harness";
import {
  emptySurfaces,
  headerFacts,
  internalNames,
  labelClashes,
  readableProblems,
  settleView,
  type Clash,
  type HeaderFacts,
  type InternalNames,
  type ReadableCounts,
} from "./view-checks";

const FIX = path.join(__dirname, "..", "fixtures");

interface ListedRun {
  id: string;
  name: string;
}

/** The phone the run pages are also looked at on. */
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };

/**
 * A run page on a phone, as it stands: what runs off the side of the page (scrolled sideways) and
 * what starts too low (the view past 40 % of the first screen, or the first chart past 70 %).
 */
async function phoneProblems(page: Page, where: string, viewId: string): Promise<string[]> {
  const { scrollWidth, panelTop, firstChartTop } = await page.evaluate(() => {
    const panel = document.querySelector("[role=tabpanel]")!;
    const chart = panel.querySelector("figure[data-chart]");
    return {
      scrollWidth: document.documentElement.scrollWidth,
      panelTop: panel.getBoundingClientRect().top,
      firstChartTop: chart ? chart.getBoundingClientRect().top : undefined,
    };
  });
  const problems: string[] = [];
  if (scrollWidth > PHONE.width) problems.push(`${where}: ${scrollWidth}px wide`);
  // The header, folded facts and tabs leave most of the first screen to the view.
  if (panelTop > PHONE.height * 0.4) problems.push(`${where}: view starts at ${Math.round(panelTop)}px`);
  // The first chart, where a view has one, starts high enough that its plot shows on the
  // first screen: no table or note of the view comes before it (the aiperf Latency view
  // once opened with its statistics table, which pushed the histogram below the fold).
  // The Overview opens with its headline tiles, by design; its chart comes after them.
  if (viewId !== "overview" && firstChartTop !== undefined && firstChartTop > PHONE.height * 0.7)
    problems.push(`${where}: first chart at ${Math.round(firstChartTop)}px`);
  return problems;
}

/** The views whose chart labels are checked (labelClashes). */
const LABELLED_VIEWS = ["latency", "throughput", "breakdown", "cache", "kv", "offload", "gpu"];

describe("views that never mislead", () => {
  const t = useAppAndBrowser({ env: { RUNLENS_EXAMPLES: "on" } });
  /** The example runs, and every run once the uploads below are in. */
  let examples: ListedRun[] = [];
  let runs: ListedRun[] = [];
  const listRuns = async () =>
    ((await (await fetch(`${t.app.url}/api/runs`)).json()) as { runs: ListedRun[] }).runs;

  beforeAll(async () => {
    examples = await listRuns();
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
    runs = await listRuns();
  }, 180_000);

  it("lists the 9 example runs (6 single runs and the 3 of the qwen example sweep) and the 4 uploads", () => {
    expect(examples.length).toBe(9);
    expect(runs.length).toBe(13);
  });

  /** Every run's summary (the examples and the uploads), read once for every view's test. */
  let summaries: Promise<RunSummary[]> | undefined;
  const summariesOfRuns = () =>
    (summaries ??= Promise.all(
      runs.map(async (r) =>
        runSummarySchema.parse(await (await fetch(`${t.app.url}/api/runs/${r.id}`)).json()),
      ),
    ));
  let pagesSettled = 0;
  /**
   * What each example run page showed on a phone (phoneProblems), by its path: the walk below
   * looks at every page it opens on an example run at 1440 px and then, without reloading it, at
   * 390 px; the phone tests further down read it here.
   */
  const onPhone = new Map<string, string[]>();

  /** Whether `run` is one of the example runs (not one of the uploads above). */
  const isExample = (run: ListedRun) => examples.some((e) => e.id === run.id);
  /**
   * What each example run page showed of internal names at 1440 px in light (internalNames), by
   * its path: the walk below reads every view of every example run, its tab enabled or not; the
   * internal-names test further down reads it here.
   */
  const namesSeen = new Map<string, InternalNames>();
  /** What each example run's header said of its facts, by run id, read on the walk's first view of it. */
  const headersSeen = new Map<string, HeaderFacts>();

  // Every view, each page visited once at 1440 px in light for all four checks (one test per view:
  // a single test over all of them outgrows its timeout on a loaded machine). A view is opened on
  // every run it has data for (its tab enabled, the page a user sees drawn) and on the first run
  // it has none for: its empty state is one component whatever the run, and the header, facts and
  // tabs above it are the run's, checked on that run's views with data (as the phone walk does):
  // - no chart frame without data, and a disabled tab's view says what is missing instead;
  // - on the example runs, readable numbers: titled axes with units, round ticks, plain numbers,
  //   right plurals and definitions (view-checks.ts, readableProblems);
  // - on the example runs' chart views, no label leaving its chart, overlapping another or sitting
  //   on a bar (view-checks.ts, labelClashes).
  // It also opens the view on every example run it has no data for, its tab disabled: every tab
  // of every example run is read for internal names (view-checks.ts, internalNames), checked by
  // the internal-names test below.
  const readable: ReadableCounts = { axes: 0, charts: 0, tables: 0 };
  let labelledCharts = 0;
  const swept = new Set<string>();
  it.each(RUN_VIEW_IDS.map((v) => [v]))(
    "%s: no chart frame without data, the tab's state is its view's, readable numbers, no label clash",
    async (view) => {
      const all = await summariesOfRuns();
      const hasData = RUN_VIEWS.find((v) => v.id === view)!.hasData;
      const withData = runs.filter((_, i) => hasData(all[i]));
      const empty = runs.find((_, i) => !hasData(all[i]));
      expect(withData.length, `runs with data for ${view}`).toBeGreaterThan(0);
      // The pages the checks above are for, and the pages the phone tests below want: the example
      // runs with data for the view and the first example run without.
      const checked = empty ? [...withData, empty] : withData;
      const emptyExample = runs.find((r, i) => isExample(r) && !hasData(all[i]));
      const onPhoneToo = new Set(
        [...withData.filter(isExample), ...(emptyExample ? [emptyExample] : [])].map((r) => r.id),
      );
      const page = await t.browser.newPage({ viewport: DESKTOP, deviceScaleFactor: 1 });
      const agreement404: string[] = [];
      page.on("response", (r) => {
        if (r.status() === 404 && r.url().includes("/charts/")) agreement404.push(r.url());
      });
      const problems: string[] = [];
      const clashes: Clash[] = [];
      for (const run of [...checked, ...runs.filter((r) => isExample(r) && !checked.includes(r))]) {
        const url = `/runs/${run.id}?view=${view}`;
        await page.setViewportSize(DESKTOP);
        await gotoHydrated(page, `${t.app.url}${url}`);
        await page.locator(`[data-view="${view}"]`).waitFor();
        await settleView(page);
        pagesSettled++;
        if (isExample(run)) namesSeen.set(url, await internalNames(page, `${run.name} · ${view}`));
        if (isExample(run) && !headersSeen.has(run.id))
          headersSeen.set(run.id, await headerFacts(page, run.name));
        if (checked.includes(run)) {
          for (const chart of await emptySurfaces(page)) problems.push(`${run.name} › ${view}: ${chart}`);
          // A disabled tab's view says what is missing instead of drawing anything.
          const disabled = await page.locator(`[data-view="${view}"]`).getAttribute("aria-disabled");
          if (disabled === "true") {
            expect(await page.getByTestId("empty-view").count(), `${run.name} › ${view}`).toBe(1);
            expect(await page.locator(".recharts-surface").count(), `${run.name} › ${view}`).toBe(0);
          }
          if (isExample(run)) {
            problems.push(...(await readableProblems(page, `${run.name} › ${view}`, readable)));
            if (LABELLED_VIEWS.includes(view)) {
              labelledCharts += await page.locator("figure[data-chart] svg").count();
              clashes.push(...(await labelClashes(page, url)));
            }
          }
        }
        if (!onPhoneToo.has(run.id)) continue;
        // The same page on a phone.
        await page.setViewportSize(PHONE);
        await page.evaluate(() => window.scrollTo(0, 0));
        await settleLayout(page);
        onPhone.set(url, await phoneProblems(page, `${run.name} › ${view}`, view));
      }
      await page.close();
      swept.add(view);
      expect(problems).toEqual([]);
      expect(clashes).toEqual([]);
      // Latency asks for the summary agreement only on runs with both records and a summary.
      expect(agreement404).toEqual([]);
    },
    300_000,
  );

  it("every tab of every example run, at 1440 px light, writes words: no snake_case, camelCase or dotted key outside code and definitions", async () => {
    // The walk above read every tab of every example run; a tab it did not (a test picked out
    // alone) is opened here.
    const exampleRuns = runs.filter(isExample);
    expect(exampleRuns.length).toBe(9);
    let context: BrowserContext | undefined;
    let page: Page | undefined;
    const found: string[] = [];
    const keyLists: string[] = [];
    let views = 0;
    for (const run of exampleRuns)
      for (const view of RUN_VIEW_IDS) {
        const url = `/runs/${run.id}?view=${view}`;
        let seen = namesSeen.get(url);
        if (!seen) {
          context ??= await t.browser.newContext({ viewport: DESKTOP, colorScheme: "light" });
          page ??= await context.newPage();
          await gotoHydrated(page, `${t.app.url}${url}`);
          await page.locator(`[data-view="${view}"]`).waitFor();
          await settleView(page);
          seen = await internalNames(page, `${run.name} · ${view}`);
        }
        views++;
        found.push(...seen.names);
        keyLists.push(...seen.keyLists);
      }
    await context?.close();
    expect(views).toBeGreaterThan(50);
    expect([...new Set(found)]).toEqual([]);
    expect([...new Set(keyLists)]).toEqual([]);
  }, 900_000);

  it("the run header says its facts in words: no record field in an entry, the fields in its tooltip", async () => {
    // The walk above read every example run's header; one it did not (a test picked out alone)
    // is opened here.
    let page: Page | undefined;
    const fields: string[] = [];
    let joinsSeen = 0;
    for (const run of runs.filter(isExample)) {
      let seen = headersSeen.get(run.id);
      if (!seen) {
        page ??= await t.browser.newPage({ viewport: DESKTOP });
        await gotoHydrated(page, `${t.app.url}/runs/${run.id}`);
        seen = await headerFacts(page, run.name);
      }
      fields.push(...seen.fields);
      if (!seen.joins) continue;
      joinsSeen++;
      expect(seen.joins.text).toMatch(/TensorRT-LLM requests joined\s*[\d,]+ by disagg request id/);
      expect(seen.joins.title).toMatch(/[\d,]+ by disagg_request_id/);
    }
    await page?.close();
    expect(fields).toEqual([]);
    expect(joinsSeen).toBeGreaterThan(0);
  }, 300_000);

  describe("a 390 px phone, every tab of every example run", () => {
    // One test per view. Each view is looked at on every example run it has data for (its tab
    // enabled) and on the first example it has none for: its empty state, one component whatever
    // the run (the header, facts and tabs above it are the run's, the same on every view, and each
    // run has views with data). The walk above saw each of these pages on a phone already; a page
    // it did not open (its first run without data was an upload, or the test runs alone) is
    // opened here at 390 px.
    it.each(RUN_VIEWS.map((v) => [v.id]))(
      "%s: never scrolls the page sideways; the view, and a chart it opens with, start on the first screen",
      async (viewId) => {
        const all = await summariesOfRuns();
        const exampleSummaries = all.filter((r) => examples.some((e) => e.id === r.id));
        expect(exampleSummaries.length).toBeGreaterThanOrEqual(5);
        const view = RUN_VIEWS.find((v) => v.id === viewId)!;
        const withData = exampleSummaries.filter((r) => view.hasData(r));
        const empty = exampleSummaries.find((r) => !view.hasData(r));
        expect(withData.length, `example runs with data for ${viewId}`).toBeGreaterThan(0);
        const problems: string[] = [];
        let page: Page | undefined;
        for (const run of empty ? [...withData, empty] : withData) {
          const url = `/runs/${run.id}?view=${viewId}`;
          let seen = onPhone.get(url);
          if (!seen) {
            page ??= await t.browser.newPage({ viewport: PHONE, deviceScaleFactor: 1 });
            await page.goto(`${t.app.url}${url}`);
            // Views draw their later charts after the first has painted: settleView waits for them.
            await settleView(page);
            seen = await phoneProblems(page, `${run.name} › ${viewId}`, viewId);
          }
          problems.push(...seen);
        }
        await page?.close();
        expect(problems).toEqual([]);
      },
      300_000,
    );
  });

  it("a TensorRT-LLM example's request drill-down and the compare pages: readable numbers, no label clash", async () => {
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    const problems: string[] = [];
    const clashes: Clash[] = [];
    const visit = async (url: string) => {
      await page.goto(`${t.app.url}${url}`);
      await settleView(page);
      labelledCharts += await page.locator("figure[data-chart] svg").count();
      clashes.push(...(await labelClashes(page, url)));
    };
    const listed = (await listRuns()) as Array<ListedRun & { kinds: string[] }>;
    const trt = listed
      .filter((r) => examples.some((e) => e.id === r.id) && r.kinds.includes("trtllm-perf-metrics"))
      .map((r) => r.id);
    for (const id of trt) {
      await visit(`/runs/${id}?view=breakdown&req=0`);
      await page
        .locator('[data-chart^="request-0-steps"] svg')
        .first()
        .waitFor({ timeout: 15_000 })
        .catch(() => {});
      clashes.push(...(await labelClashes(page, `/runs/${id}?view=breakdown&req=0 (steps)`)));
    }
    await visit(`/compare?runs=${examples.map((r) => r.id).join(",")}`);
    problems.push(...(await readableProblems(page, "compare", readable)));
    if (trt.length > 1) await visit(`/compare?runs=${trt.join(",")}`);
    await page.close();
    expect(problems).toEqual([]);
    expect(clashes).toEqual([]);
  }, 300_000);

  it("the walk over every view saw enough charts, tables and axes to mean something", () => {
    // Only when every view was walked (not when a single test is picked out).
    if (swept.size < RUN_VIEW_IDS.length) return;
    console.log(
      `[honest-views] ${pagesSettled} run pages settled for ${runs.length} runs × ${swept.size} views`,
    );
    expect(readable.charts).toBeGreaterThan(30);
    // Latency statistics of 5 aiperf and 2 TensorRT-LLM runs, slowest requests, offload, steps.
    expect(readable.tables).toBeGreaterThan(10);
    expect(readable.axes).toBeGreaterThan(60);
    expect(labelledCharts).toBeGreaterThan(20);
  });

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
    // What the click would have led to has had its frames: the page stands still where it was.
    await settleLayout(page);
    expect(page.url()).not.toContain("view=kv");

    // Cache opens (the perf-metrics hit rate); the server rate is "not exported" with its series, and
    // the per-endpoint chart is one line saying what is missing instead of an empty frame.
    await page.locator('[data-view="cache"]').click();
    await page.waitForURL(/view=cache/);
    await settleView(page);
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
    await settleView(page);
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
    await settleView(page);
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
    await settleView(page);
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
    await settleView(page);
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
