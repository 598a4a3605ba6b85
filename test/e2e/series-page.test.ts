/**
 * The series page in the browser: 30 runs of one series, uploaded out of order with build
 * numbers as their order key, runs 20 and 26 with every TTFT 15% slower. Runs are aiperf exports
 * from test/generators/aiperf.mjs (aiperf's profile_export.jsonl record layout), 2,000 requests
 * each, TTFT uniform on [20, 120) ms. Checks the trends' order and marks, the legend, the goodput
 * trend under the URL's SLO, the URL's verdict thresholds and the run header's link to its series.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { apiUpload, gotoHydrated, useAppAndBrowser } from "./harness";

const SERIES = "nightly/llama-8b/h100/c8";
const REGRESSED = [20, 26];
describe("series page", () => {
  const t = useAppAndBrowser();
  let dir: string;
  const idAt = new Map<number, string>();

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-series-page-"));
    // Build numbers 1..30 uploaded evens first: upload time alone would put run 2 first.
    const builds = Array.from({ length: 30 }, (_, i) => i + 1).sort((a, b) => (a % 2) - (b % 2) || a - b);
    for (const build of builds) {
      const out = path.join(dir, `b${build}`);
      await generateAiperfRun(out, {
        records: 2000,
        seed: build,
        csv: false,
        ttftScale: REGRESSED.includes(build) ? 1.15 : 1,
      });
      const files = ["profile_export.jsonl", "profile_export_aiperf.json"].map((name) => ({
        path: path.join(out, name),
      }));
      const res = await apiUpload(t.app.url, files, {
        series: SERIES,
        order: String(build),
        commit: `c${build}`,
        name: `build ${build}`,
      });
      idAt.set(build, res.id);
    }
  }, 240_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("draws the runs in order, marks the two TTFT regressions and names the markers in the legend", async () => {
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/series/${SERIES}`);
    // The latency marks arrive after the page opened with its stored figures.
    const marked = page.getByTestId("series-marked");
    await marked.getByText("TTFT p50:").first().waitFor({ timeout: 60_000 });
    const ttftMarks = await marked
      .locator("li")
      .filter({ hasText: "TTFT p50:" })
      .evaluateAll((lis) => lis.map((li) => li.textContent ?? ""));
    expect(ttftMarks.map((text) => text.match(/^run (\d+):/)?.[1])).toEqual(["20", "26"]);
    expect(ttftMarks.every((text) => /regressed/.test(text))).toBe(true);
    expect(ttftMarks[0]).toContain("build 20");

    const ttft = page.locator('figure[data-chart="series-ttft.p50"]');
    const legend = await ttft.locator(".recharts-legend-wrapper").innerText();
    expect(legend).toMatch(/regressed/);
    expect(legend).toMatch(/improved/);
    expect(legend).toMatch(/noise band/);
    // A legend entry per marker, drawn as the dot the chart draws.
    const icons = await ttft.locator(".recharts-legend-item").evaluateAll((items) =>
      items.map((item) => ({
        text: item.textContent ?? "",
        dot: item.querySelector("path.recharts-symbols, circle") !== null,
      })),
    );
    expect(icons.filter((i) => /regressed|improved/.test(i.text)).every((i) => i.dot)).toBe(true);
    await page.close();
  }, 120_000);

  it("says to set an SLO, then draws goodput under the URL's SLO", async () => {
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/series/${SERIES}`);
    const goodput = page.getByTestId("series-goodput");
    await expect(goodput.innerText()).resolves.toMatch(/Set an SLO to see goodput/);
    await gotoHydrated(page, `${t.app.url}/series/${SERIES}?slo=ttft:req:100`);
    const chart = goodput.locator('figure[data-chart="series-goodput"]');
    await chart.locator("svg.recharts-surface").first().waitFor({ timeout: 60_000 });
    await expect(chart.innerText()).resolves.toMatch(/meeting TTFT ≤ 100 ms per request/);
    await page.close();
  }, 120_000);

  it("judges with the thresholds in the page's link, and says what is wrong with a bad one", async () => {
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    // Runs 20 and 26 are 15% slower: under a 30% TTFT p50 threshold that is no regression.
    await gotoHydrated(page, `${t.app.url}/series/${SERIES}?thresholds=ttft.p50:30%25`);
    await expect(page.getByTestId("series-thresholds").innerText()).resolves.toMatch(/ttft\.p50:30%/);
    await expect(page.getByLabel("Thresholds").inputValue()).resolves.toBe("ttft.p50:30%");
    await page.getByTestId("series-judging").waitFor({ state: "detached", timeout: 90_000 });
    const marks = await page
      .getByTestId("series-marked")
      .innerText()
      .then((text) => text.split("\n").filter((l) => /TTFT p50:/.test(l)));
    expect(marks).toEqual([]);
    // Typed into the field: the URL carries it, and the server's reason shows.
    await page.getByLabel("Thresholds").fill("ttft.p50:lots");
    await page.getByLabel("Thresholds").press("Enter");
    await page.waitForURL(/thresholds=ttft\.p50(%3A|:)lots/);
    await page.getByText(/Could not load the series: .*not a percentage/).waitFor({ timeout: 30_000 });
    await page.close();
  }, 120_000);

  it("shows a run's place in its series in the run header, linking to the series", async () => {
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/runs/${idAt.get(20)}`);
    const line = page.getByTestId("run-series");
    await expect(line.innerText()).resolves.toMatch(new RegExp(`Run 20 of 30 in ${SERIES}`));
    await expect(line.innerText()).resolves.toMatch(/order 20/);
    // Re-ordered from the header: build 20 with order 31 is the series' last run.
    await line.getByRole("button", { name: "Edit series" }).click();
    const form = page.getByRole("form", { name: "Series fields" });
    await form.getByLabel("Order").fill("31");
    await form.getByRole("button", { name: "Save" }).click();
    await line.getByText(`Run 30 of 30 in`).waitFor();
    await expect(line.innerText()).resolves.toMatch(/order 31/);
    await line.getByRole("link", { name: SERIES }).click();
    await page.waitForURL(`**/series/${SERIES}`);
    await page.getByRole("heading", { name: `Series ${SERIES}` }).waitFor();
    await page.close();
  }, 60_000);
});
