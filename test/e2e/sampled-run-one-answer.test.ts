/**
 * One answer per question on a run whose aiperf records are a sample of what aiperf summarised
 * (the example sweep's Qwen runs: 10 records, a summary of 64 requests; lib/examples/examples.ts).
 * The run's figures are aiperf's own, of every request, wherever the run is shown: each Overview
 * tile, the Latency view's header, the runs list and Compare; and where a chart is drawn from the
 * records it says they are a sample. The expected figures are read from the example's own files
 * at test time (profile_export_aiperf.json, profile_export.jsonl), never from Runlens.
 */
import fs from "node:fs";
import path from "node:path";
import type { Locator } from "playwright-core";
import { describe, expect, it } from "vitest";
import { METRICS } from "@/lib/api/metric-catalog";
import { AIPERF_CHARTS } from "@/lib/api/chart-catalog";
import { compareCdfFigure } from "@/lib/metrics/figures/compare-cdf";
import { gotoHydrated, useAppAndBrowser } from "./harness";

const SWEEP = path.resolve(__dirname, "../../lib/examples/files/aiperf-qwen-sweep");

interface Stat {
  p50: number;
  p99: number;
}

/** What aiperf's summary of one run says, and how many records the run's records file holds. */
function producerFigures(c: number) {
  const dir = path.join(SWEEP, `qwen-c${c}`);
  const s = JSON.parse(fs.readFileSync(path.join(dir, "profile_export_aiperf.json"), "utf8"));
  const records = fs
    .readFileSync(path.join(dir, "profile_export.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "").length;
  const stat = (m: { p50: number; p99: number }): Stat => ({ p50: m.p50, p99: m.p99 });
  return {
    requests: s.request_count.avg as number,
    errors: (s.error_request_count?.avg ?? 0) as number,
    ttft: stat(s.time_to_first_token),
    e2e: stat(s.request_latency),
    itl: stat(s.inter_token_latency),
    outputTokS: s.output_token_throughput.avg as number,
    requestsS: s.request_throughput.avg as number,
    tokPerUserMean: s.output_token_throughput_per_user.avg as number,
    records,
  };
}

/** The numbers written in `text`, each with its unit's scale to ms ("3.72 s" = 3,720 ms) and its decimals. */
function numbersIn(text: string): Array<{ value: number; decimals: number }> {
  const out: Array<{ value: number; decimals: number }> = [];
  for (const m of text.matchAll(/(-?\d{1,3}(?:,\d{3})+|-?\d+)(?:\.(\d+))?(\s*(ms|s)\b)?/g)) {
    const decimals = m[2]?.length ?? 0;
    const scale = m[4] === "s" ? 1000 : 1;
    out.push({
      value: Number(`${m[1].replace(/,/g, "")}.${m[2] ?? "0"}`) * scale,
      decimals: decimals - Math.log10(scale),
    });
  }
  return out;
}

/** Whether `text` writes `expected`, as rounded to the digits it shows. */
function writes(text: string, expected: number): boolean {
  return numbersIn(text).some((n) => Math.abs(n.value - expected) <= 0.5 * 10 ** -n.decimals + 1e-9);
}

function expectWrites(text: string | null, expected: number, what: string) {
  expect(writes(text ?? "", expected), `${what}: "${text}" should write ${expected}`).toBe(true);
}

/** A tile of a grid by its label (its first line). */
const tileLabelled = (grid: Locator, label: string) =>
  grid.locator(":scope > div").filter({ has: grid.page().getByText(label, { exact: true }) });

/** A per-GPU or per-user tile by its label. */
const derivedTile = (section: Locator, label: string) =>
  section.getByTestId("derived-tile").filter({ has: section.page().getByText(label, { exact: true }) });

async function runIds(url: string): Promise<Map<number, { id: string; name: string }>> {
  const res = await fetch(`${url}/api/runs?label=sweep`);
  const { runs } = (await res.json()) as { runs: Array<{ id: string; name: string }> };
  const byConcurrency = new Map<number, { id: string; name: string }>();
  for (const r of runs) {
    const c = Number(/concurrency (\d+)/.exec(r.name)?.[1]);
    if (Number.isFinite(c)) byConcurrency.set(c, r);
  }
  return byConcurrency;
}

const CONCURRENCIES = [1, 2, 4];

describe("a run whose aiperf records are a sample of its summary shows aiperf's figures everywhere", () => {
  const env = useAppAndBrowser({ env: { RUNLENS_EXAMPLES: "on" } });

  it("shows the summary's figures in every Overview tile, and says the records are a sample", async () => {
    const runs = await runIds(env.app.url);
    expect([...runs.keys()].sort()).toEqual(CONCURRENCIES);
    const page = await env.browser.newPage();
    for (const c of CONCURRENCIES) {
      const want = producerFigures(c);
      // The premise: the records are fewer than the requests aiperf summarised.
      expect(want.records).toBeLessThan(want.requests);
      const run = runs.get(c)!;
      await gotoHydrated(page, `${env.app.url}/runs/${run.id}`);
      const tiles = page.getByTestId("overview-tiles");
      await tiles.waitFor({ timeout: 30_000 });
      const requests = await page.getByTestId("tile-requests").innerText();
      // "Requests (errors included)": aiperf's request_count, plus its errors (none here).
      expect(requests.split("\n")[1], run.name).toBe((want.requests + want.errors).toLocaleString("en-US"));
      expect(requests).toContain(`${want.records} of ${want.requests}`);
      for (const [testId, stat] of [
        ["tile-ttft", want.ttft],
        ["tile-e2e", want.e2e],
        ["tile-itl", want.itl],
      ] as const) {
        const value = (await page.getByTestId(testId).innerText()).split("\n")[1];
        const [p50, p99] = value.split(" / ");
        expectWrites(p50, stat.p50, `${run.name} ${testId} p50`);
        expectWrites(p99, stat.p99, `${run.name} ${testId} p99`);
      }
      const throughput = await tileLabelled(tiles, METRICS.outputTokenThroughput.label).innerText();
      expectWrites(throughput.split("\n")[1], want.outputTokS, `${run.name} output tokens/s`);
      expectWrites(throughput.split("\n")[2], want.requestsS, `${run.name} requests/s`);

      // Per GPU: the same output tok/s over the run's GPUs, so the two tiles agree.
      const gpus = Number(/(\d+) GPUs?/.exec(await page.getByTestId("derived-gpus").innerText())?.[1]);
      expect(gpus).toBeGreaterThan(0);
      const derived = page.getByTestId("derived-throughput");
      const perGpu = await derivedTile(derived, "Output tok/s per GPU").innerText();
      expectWrites(perGpu.split("\n")[1], want.outputTokS / gpus, `${run.name} output tok/s per GPU`);
      const perUser = await derivedTile(derived, "Tok/s per user (mean)").innerText();
      expectWrites(perUser.split("\n")[1], want.tokPerUserMean, `${run.name} tok/s per user`);

      // The Overview's chart is drawn from the records and says they are a sample.
      const sample = page.getByTestId("overview-chart-sample");
      await expect
        .poll(() => sample.textContent(), { timeout: 30_000 })
        .toContain(`${want.records} of ${want.requests} requests`);
      await page.locator('[data-testid="overview-chart"] [data-chart="latency-histogram"]').waitFor();
    }
    await page.close();
  });

  it("shows the summary's figures in the Latency view's header and says the records are a sample", async () => {
    const runs = await runIds(env.app.url);
    const page = await env.browser.newPage();
    for (const c of CONCURRENCIES) {
      const want = producerFigures(c);
      const run = runs.get(c)!;
      await gotoHydrated(page, `${env.app.url}/runs/${run.id}?view=latency`);
      const header = page.getByTestId("request-counts");
      await header.waitFor({ timeout: 30_000 });
      const figures = Object.fromEntries(
        await header
          .locator(":scope > div")
          .evaluateAll((els) =>
            els.map((e) => [e.querySelector("dt")!.textContent, e.querySelector("dd")!.textContent]),
          ),
      ) as Record<string, string>;
      expect(figures["profiling requests (errors included)"], run.name).toBe(
        (want.requests + want.errors).toLocaleString("en-US"),
      );
      expectWrites(figures["output tokens/s"], want.outputTokS, `${run.name} Latency output tokens/s`);
      expectWrites(figures["requests/s"], want.requestsS, `${run.name} Latency requests/s`);
      const note = await page.getByTestId("request-counts-sample").textContent();
      expect(note).toContain(`all ${want.requests} requests`);
      expect(note).toContain(`hold ${want.records} of them`);
      // The statistics table: aiperf's p50 and p99 TTFT and E2E, of every request.
      for (const [m, stat] of [
        ["ttftMs", want.ttft],
        ["e2eMs", want.e2e],
      ] as const) {
        expectWrites(
          await page.locator(`[data-stat="${m}-p50"]`).textContent(),
          stat.p50,
          `${run.name} ${m} p50`,
        );
        expectWrites(
          await page.locator(`[data-stat="${m}-p99"]`).textContent(),
          stat.p99,
          `${run.name} ${m} p99`,
        );
        expect(await page.locator(`[data-stat="${m}-count"]`).textContent()).toBe(String(want.requests));
      }
      await expect
        .poll(() => page.getByTestId("records-sample-line").textContent(), { timeout: 30_000 })
        .toContain(`${want.records} of ${want.requests} requests`);
    }
    await page.close();
  });

  it("counts aiperf's requests in the runs list", async () => {
    const runs = await runIds(env.app.url);
    const page = await env.browser.newPage();
    await gotoHydrated(page, env.app.url);
    const table = page.getByTestId("runs-table");
    await table.waitFor({ timeout: 30_000 });
    for (const c of CONCURRENCIES) {
      const want = producerFigures(c);
      const row = table
        .locator("tbody tr")
        .filter({ has: page.getByRole("link", { name: runs.get(c)!.name, exact: true }) });
      expect(await row.count()).toBe(1);
      expect(await row.locator("td").last().textContent(), runs.get(c)!.name).toBe(
        (want.requests + want.errors).toLocaleString("en-US"),
      );
    }
    await page.close();
  });

  it("counts the run's requests in the Timeline's summary, and the records' as a sample of them", async () => {
    const runs = await runIds(env.app.url);
    const page = await env.browser.newPage({ viewport: { width: 1440, height: 900 } });
    for (const c of CONCURRENCIES) {
      const want = producerFigures(c);
      await gotoHydrated(page, `${env.app.url}/runs/${runs.get(c)!.id}?view=timeline`);
      const summary = page.locator("[data-timeline-summary]");
      await summary.waitFor({ timeout: 30_000 });
      const text = (await summary.innerText()).replace(/\s+/g, " ");
      // Not "10 of the run's 10 requests": the run is aiperf's 64.
      expect(text, `c${c}`).toContain(
        `of the ${want.records} requests in the records (a sample of the run's ${want.requests})`,
      );
    }
    await page.close();
  });

  it("writes one figure one way: output tok/s the same on the Overview, per GPU, in the sweep table and in Compare", async () => {
    const runs = await runIds(env.app.url);
    const page = await env.browser.newPage({ viewport: { width: 1440, height: 1000 } });
    // The number a cell or tile writes, without its unit ("194.51 tok/s" → "194.51").
    const figure = (text: string | null) => /^[\d,.]+/.exec((text ?? "").trim())?.[0] ?? text;
    const overview = new Map<number, string | null>();
    for (const c of CONCURRENCIES) {
      await gotoHydrated(page, `${env.app.url}/runs/${runs.get(c)!.id}`);
      const tiles = page.getByTestId("overview-tiles");
      await tiles.waitFor({ timeout: 30_000 });
      const tile = figure(
        (await tileLabelled(tiles, METRICS.outputTokenThroughput.label).innerText()).split("\n")[1],
      );
      const perGpu = figure(
        (await derivedTile(page.getByTestId("derived-throughput"), "Output tok/s per GPU").innerText()).split(
          "\n",
        )[1],
      );
      // Every example sweep run has 1 GPU: its output tok/s per GPU is its output tok/s.
      expect(perGpu, `c${c}: Overview tile ${tile}, per GPU ${perGpu}`).toBe(tile);
      overview.set(c, tile);
    }
    const { sweeps } = (await (await fetch(`${env.app.url}/api/sweeps`)).json()) as {
      sweeps: Array<{ id: string }>;
    };
    expect(sweeps).toHaveLength(1);
    await gotoHydrated(page, `${env.app.url}/sweeps/${sweeps[0].id}`);
    const table = page.getByTestId("sweep-table");
    await table.waitFor({ timeout: 30_000 });
    for (const c of CONCURRENCIES) {
      const cell = table.locator(`tr[data-run="${runs.get(c)!.id}"] [data-stat="outputTokPerSPerGpu"]`);
      expect(figure(await cell.textContent()), `c${c}: sweep table vs Overview`).toBe(overview.get(c));
    }
    const ids = CONCURRENCIES.map((c) => runs.get(c)!.id);
    await gotoHydrated(page, `${env.app.url}/compare?runs=${ids.join(",")}&stat=p50`);
    const delta = page.getByTestId("delta-table");
    await delta.waitFor({ timeout: 30_000 });
    const cells = (await delta.locator(`tr[data-metric="outputTokenThroughput"] td`).allInnerTexts()).slice(
      1,
      4,
    );
    CONCURRENCIES.forEach((c, i) =>
      expect(figure(cells[i]), `c${c}: Compare vs Overview`).toBe(overview.get(c)),
    );
    await page.close();
  });

  it("compares the summaries' figures, with output tok/s and per-GPU tok/s agreeing, and says the CDF is of a sample", async () => {
    const runs = await runIds(env.app.url);
    const ids = CONCURRENCIES.map((c) => runs.get(c)!.id);
    const page = await env.browser.newPage({ viewport: { width: 1440, height: 1000 } });
    await gotoHydrated(page, `${env.app.url}/compare?runs=${ids.join(",")}&stat=p50`);
    const table = page.getByTestId("delta-table");
    await table.waitFor({ timeout: 30_000 });
    // The columns after the metric's: one per run, in the order asked for.
    const cells = async (metric: string) =>
      (await table.locator(`tr[data-metric="${metric}"] td`).allInnerTexts()).slice(1, 1 + ids.length);
    const throughput = await cells("outputTokenThroughput");
    const perGpu = await cells("outputTokPerGpu");
    const gpus = await cells("gpuCount");
    const ttft = await cells("ttft");
    const e2e = await cells("e2e");
    CONCURRENCIES.forEach((c, i) => {
      const want = producerFigures(c);
      expectWrites(throughput[i], want.outputTokS, `compare c${c} output tok/s`);
      const n = numbersIn(gpus[i])[0]?.value;
      expect(n, `compare c${c} GPUs`).toBeGreaterThan(0);
      expectWrites(perGpu[i], want.outputTokS / n, `compare c${c} output tok/s per GPU`);
      expectWrites(ttft[i], want.ttft.p50, `compare c${c} TTFT p50`);
      expectWrites(e2e[i], want.e2e.p50, `compare c${c} E2E p50`);
    });
    // The CDF overlay is drawn from the records: it names the runs whose records are a sample.
    const cdf = page.locator('[data-chart="compare-latency-cdf"]');
    await cdf.waitFor({ timeout: 30_000 });
    const text = await cdf.innerText();
    for (const c of CONCURRENCIES) {
      const want = producerFigures(c);
      expect(text).toContain(`${runs.get(c)!.name}: ${want.records} of ${want.requests} requests`);
    }
    // The page draws the figure description the comparison report draws (lib/metrics/figures/compare-cdf.ts):
    // its title, and a legend entry per run, named as the description names its series.
    const described = compareCdfFigure(
      await Promise.all(
        CONCURRENCIES.map(async (c, index) => {
          const run = runs.get(c)!;
          const res = await fetch(
            `${env.app.url}/api/runs/${run.id}/charts/${AIPERF_CHARTS.distribution.key}`,
          );
          return {
            id: run.id,
            name: run.name,
            index,
            distribution: AIPERF_CHARTS.distribution.schema.parse(await res.json()),
          };
        }),
      ),
      "ttftMs",
      "TTFT",
    );
    expect(await cdf.locator("figcaption h3").innerText()).toBe(described.title);
    await cdf.locator(".recharts-legend-item-text").first().waitFor({ timeout: 30_000 });
    expect(await cdf.locator(".recharts-legend-item-text").allInnerTexts()).toEqual(
      described.series.map((s) => s.name),
    );
    await page.close();
  });
});
