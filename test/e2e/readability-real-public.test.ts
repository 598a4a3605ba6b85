/**
 * Readability defects found with real producers' folders (real-public review M5, M9) and on a
 * phone (UI review 19), checked on the page in Chromium: no 404 behind the SGLang Latency view,
 * whole-number ticks on a count axis, a runs list that fits 1,440 px, compare headers that neither
 * overprint nor repeat, compare bar charts not squashed by their legends, and the breakdown's
 * value column on a 390 px screen.
 */
import { describe, expect, it } from "vitest";
import { gotoHydrated, useAppAndBrowser } from "./harness";
import { realPublicDir, realPublicParts } from "../helpers/real-public";
import fs from "node:fs";

const FOLDERS = [
  "sglang-0.5.9-bench-serving-output-details",
  "aiperf-0.8.0-sglang-glm5.1-agentic-conc16",
  "vllm-bench-serve-glm4.7-fp8-b200-with-console",
  "vllm-bench-serve-qwen3.5-397b-lens",
];
const present = FOLDERS.every((f) => realPublicDir(f) !== null);

const sweeps: Record<string, string> = {};

async function uploadFolder(url: string, folder: string): Promise<string[]> {
  const form = new FormData();
  for (const f of realPublicParts(folder)) form.append("file", new Blob([fs.readFileSync(f.path)]), f.name);
  const res = await fetch(`${url}/api/runs`, { method: "POST", body: form });
  if (res.status !== 201) throw new Error(`${folder}: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { id?: string; runs?: Array<{ id: string }>; sweep?: { id: string } };
  if (body.sweep) sweeps[folder] = body.sweep.id;
  return body.runs?.map((r) => r.id) ?? [body.id!];
}

describe.skipIf(!present)("readability with real producers' folders", () => {
  const t = useAppAndBrowser({ env: { RUNLENS_EXAMPLES: "on" } });
  const runs: Record<string, string[]> = {};
  const ready = async () => {
    if (Object.keys(runs).length > 0) return;
    for (const f of FOLDERS) runs[f] = await uploadFolder(t.app.url, f);
  };

  it("the SGLang 0.5.9 Latency view asks for nothing the run does not have", async () => {
    await ready();
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    const failed: string[] = [];
    page.on("response", (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    await gotoHydrated(page, `${t.app.url}/runs/${runs[FOLDERS[0]][0]}?view=latency`);
    await page.getByTestId("no-latency-over-time").waitFor({ timeout: 30_000 });
    await page.waitForLoadState("networkidle");
    // It asked for aiperf-over-time, which an SGLang file without start times never stores.
    expect(failed).toEqual([]);
    await page.close();
  });

  it("Requests by turn counts in whole requests", async () => {
    await ready();
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/runs/${runs[FOLDERS[1]][0]}?view=turns`);
    const chart = page.locator('[data-chart="turns-requests"]');
    await chart.locator(".recharts-cartesian-axis-tick-value").first().waitFor({ timeout: 30_000 });
    // The requests axis is the y axis of upright columns, the x axis when the turns run down the
    // side (their counts do not fit above the columns): its title is turned on the y axis only.
    const title = chart.locator("svg.recharts-surface text", { hasText: /^requests$/ });
    await expect.poll(() => title.count()).toBe(1);
    const counts = /rotate/.test((await title.getAttribute("transform")) ?? "") ? "yAxis" : "xAxis";
    const ticks = await chart
      .locator(`.recharts-${counts}-tick-labels .recharts-cartesian-axis-tick-value`)
      .allTextContents();
    expect(ticks.length).toBeGreaterThan(1);
    // 2.5 and 7.5 requests were on this axis.
    for (const tick of ticks) expect(tick.replace(/,/g, "")).toMatch(/^\d+$/);
    await page.close();
  });

  it("the runs list fits 1,440 px, and its rows stay short on a phone", async () => {
    await ready();
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/`);
    const table = page.getByTestId("runs-table");
    await table.locator("tbody tr").first().waitFor();
    const fit = await table.evaluate((el) => {
      const box = el.parentElement!;
      return { scroll: box.scrollWidth, client: box.clientWidth };
    });
    // The Contents and Requests columns were cut at the right edge.
    expect(fit.scroll).toBeLessThanOrEqual(fit.client);
    await page.setViewportSize({ width: 390, height: 844 });
    // The example runs carry labels, which stood one per line, with a long contents list beside
    // them: rows of ~130 px.
    const heights = await table
      .locator("tbody tr")
      .evaluateAll((rows) =>
        rows
          .filter((r) => r.querySelector("td:nth-child(4) button"))
          .map((r) => r.getBoundingClientRect().height),
      );
    expect(heights.length).toBeGreaterThan(3);
    expect(Math.max(...heights)).toBeLessThanOrEqual(100);
    await page.close();
  });

  it("compare: run headers neither overprint nor repeat, and bars are not squashed by legends", async () => {
    await ready();
    const ids = [...runs[FOLDERS[2]], ...runs[FOLDERS[3]]];
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/compare?runs=${ids.join(",")}`);
    const headers = page.getByTestId("delta-table").locator("[data-run-header]");
    await headers.first().waitFor({ timeout: 30_000 });
    const texts = (await headers.allTextContents()).map((s) => s.replace("(baseline)", "").trim());
    expect(texts).toHaveLength(ids.length);
    // Both Qwen3.5 runs read "Qwen/Qwen3.5-3…2_osl1024.json".
    expect(new Set(texts).size).toBe(ids.length);
    const boxes = await headers.evaluateAll((els) =>
      els.map((e) => {
        const r = e.getBoundingClientRect();
        return { left: r.left, right: r.left + e.scrollWidth };
      }),
    );
    for (let i = 1; i < boxes.length; i++) expect(boxes[i].left).toBeGreaterThanOrEqual(boxes[i - 1].right);
    // Each throughput chart's plot keeps at least 150 px of height beside its four-run legend.
    for (const name of ["compare-request-throughput", "compare-token-throughput"]) {
      const grid = page.locator(`[data-chart="${name}"] .recharts-cartesian-grid`);
      await grid.waitFor({ timeout: 30_000 });
      const box = (await grid.boundingBox())!;
      expect(box.height).toBeGreaterThanOrEqual(150);
      // Every bar's value is written on the chart.
      expect(await page.locator(`[data-chart="${name}"] .recharts-label-list text`).count()).toBeGreaterThan(
        1,
      );
    }
    await page.close();
  });

  it("at 390 px the sweep page and the compare page of a sweep named after a long file name stay inside the screen", async () => {
    await ready();
    const page = await t.browser.newPage({ viewport: { width: 390, height: 844 } });
    const pages = [`/sweeps/${sweeps[FOLDERS[3]]}`, `/compare?sweeps=${sweeps[FOLDERS[3]]}`];
    const wide: string[] = [];
    for (const p of pages) {
      await gotoHydrated(page, `${t.app.url}${p}`);
      await page.getByRole("heading", { level: 1 }).waitFor();
      await page.waitForLoadState("networkidle");
      // "atom_mtp_profile_tp4_conc64_isl8192_osl1024.json" as the title widened the page to 527 px,
      // and the overlay select, as wide as the longest other sweep's name, to 423 px. Tables may
      // scroll inside their own box; the page does not.
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > 390) wide.push(`${p}: ${width} px`);
    }
    expect(wide).toEqual([]);
    await page.close();
  });

  it("at 390 px the breakdown's segment table shows its value column", async () => {
    const { runs: list } = (await (await fetch(`${t.app.url}/api/runs`)).json()) as {
      runs: Array<{ id: string; kinds: string[]; requestCount: number | null }>;
    };
    const run = list.find((r) => r.kinds.includes("trtllm-perf-metrics"))!;
    const page = await t.browser.newPage({ viewport: { width: 390, height: 844 } });
    await gotoHydrated(page, `${t.app.url}/runs/${run.id}?view=breakdown`);
    const th = page.locator("table th", { hasText: /^p50$/ }).first();
    await th.waitFor({ timeout: 30_000 });
    const box = (await th.boundingBox())!;
    // "What it measures" came second and pushed the p50 column past the screen's edge.
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await page.close();
  });
});
