/**
 * The compare page as a user starts it on the example runs: picking runs on the page itself (with
 * Back and Forward stepping through the picks), segment names as row labels with the sentence on
 * hover, p95 as a statistic, and no row or chart for a metric no compared run has.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { RunListItem, RunSummary } from "@/lib/api/schemas";
import { formatMs } from "@/lib/format-number";
import { useAppAndBrowser, gotoHydrated, shot } from "./harness";

const runsParam = (page: Page) => new URL(page.url()).searchParams.get("runs");
const historyLength = (page: Page) => page.evaluate(() => history.length);

/** Unfolds the picker (a <details> once runs are chosen) unless it is already open. */
async function openPicker(page: Page) {
  const picker = page.getByTestId("run-picker");
  if (!(await picker.evaluate((d) => (d as HTMLDetailsElement).open)))
    await picker.locator("summary").click();
}

/** Names of compare charts drawn without a mark, or drawn as a "missing" line. */
async function chartsWithoutData(page: Page): Promise<string[]> {
  return page.$$eval("figure[data-chart]", (figures) =>
    figures
      .filter(
        (f) =>
          f.querySelector("[data-testid=chart-missing]") !== null ||
          f.querySelector(".recharts-surface, canvas") === null,
      )
      .map((f) => f.getAttribute("data-chart") ?? "(unnamed)"),
  );
}

describe("compare: run picker, segment labels, p95, only metrics some run has", () => {
  const t = useAppAndBrowser({ env: { RUNLENS_EXAMPLES: "on" } });
  const listed = async () =>
    ((await (await fetch(`${t.app.url}/api/runs`)).json()) as { runs: RunListItem[] }).runs;

  it("picks runs on /compare by search; each pick is a history entry Back undoes", async () => {
    const runs = await listed();
    const trt = runs.find((r) => /300 requests/.test(r.name))!;
    const aiperf = runs.find((r) => r.name.startsWith("aiperf ·"))!;
    expect(trt && aiperf).toBeTruthy();
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/compare`);
    await page.getByTestId("run-picker").waitFor();
    // With no run chosen the picker lists every run.
    for (const r of runs) await page.getByTestId(`pick-${r.id}`).waitFor();
    const start = await historyLength(page);

    await page.getByTestId("run-picker-search").fill("300 requests");
    await expect.poll(() => page.getByTestId(`pick-${aiperf.id}`).count()).toBe(0);
    await page.getByTestId(`pick-${trt.id}`).click();
    await expect.poll(() => runsParam(page)).toBe(trt.id);
    expect(await historyLength(page)).toBe(start + 1);

    // With runs chosen the picker folds under its summary; adding one more is one more entry.
    await openPicker(page);
    await page.getByTestId(`pick-${aiperf.id}`).click();
    await expect.poll(() => runsParam(page)).toBe(`${trt.id},${aiperf.id}`);
    expect(await historyLength(page)).toBe(start + 2);
    // A run's column header shows what tells its name from the others', the whole name on hover.
    await expect
      .poll(() =>
        page
          .getByTestId("delta-table")
          .locator("[data-run-header]")
          .evaluateAll((els) => els.map((e) => e.getAttribute("title"))),
      )
      .toContain(aiperf.name);

    await page.goBack();
    await expect.poll(() => runsParam(page)).toBe(trt.id);
    await expect.poll(() => page.getByTestId("compare-runs").textContent()).not.toContain(aiperf.name);
    await page.goForward();
    await expect.poll(() => runsParam(page)).toBe(`${trt.id},${aiperf.id}`);

    // Unticking in the picker removes the run again.
    await openPicker(page);
    await page.getByTestId(`pick-${trt.id}`).click();
    await expect.poll(() => runsParam(page)).toBe(aiperf.id);
    await page.close();
  });

  it("labels segment rows by name with the sentence on hover; no all-'—' row; p95 everywhere", async () => {
    const runs = await listed();
    const trt = runs.find((r) => /300 requests/.test(r.name))!;
    const aiperf = runs.find((r) => r.name.startsWith("aiperf ·"))!;
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/compare?runs=${trt.id},${aiperf.id}`);
    const table = page.getByTestId("delta-table");
    await table.waitFor();

    const route = table.locator('tr[data-metric="segment:disagg_preprocessing"] td').first();
    expect((await route.innerText()).trim()).toMatch(/^disagg_preprocessing p50/);
    expect(await route.locator("[title]").getAttribute("title")).toBe(
      "Disagg server routes the request to a context server",
    );
    // Every row holds at least one value: metrics nobody has are left out, not shown as "—".
    const rows = await table
      .locator("tbody tr")
      .evaluateAll((trs) =>
        trs.map((tr) =>
          [...tr.querySelectorAll("td[data-verdict] > div:first-child")].map((d) => d.textContent),
        ),
      );
    expect(rows.length).toBeGreaterThan(5);
    for (const cells of rows) expect(cells.some((c) => c !== "—")).toBe(true);

    await page.getByTestId("stat-picker").selectOption("p95");
    await expect.poll(() => new URL(page.url()).searchParams.get("stat")).toBe("p95");
    await page.getByRole("heading", { name: "Deltas against the baseline at p95" }).waitFor();
    await page.locator('figure[data-chart="compare-segments-p95"]').waitFor();
    const summary = (await (await fetch(`${t.app.url}/api/runs/${aiperf.id}`)).json()) as RunSummary;
    const ttft = table.locator('tr[data-metric="ttft"]');
    expect((await ttft.locator("td").first().innerText()).trim()).toMatch(/^TTFT p95/);
    expect(await ttft.locator("td[data-verdict] > div:first-child").allTextContents()).toContain(
      formatMs(summary.requests!.ttftMs!.p95),
    );
    await shot(page, "compare-picker-p95.png");
    await page.close();
  });

  it("draws no chart and no row for a metric no compared run has, and names them in one line", async () => {
    const runs = await listed();
    const pair = runs.filter((r) => r.name.startsWith("TensorRT-LLM · disaggregated")).map((r) => r.id);
    expect(pair).toHaveLength(2);
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/compare?runs=${pair.join(",")}`);
    await page.locator("figure[data-chart]").first().waitFor({ timeout: 30_000 });
    await page.waitForLoadState("networkidle");
    // Neither TensorRT-LLM example exports a KV usage gauge or offload counters.
    for (const chart of ["compare-kv-usage", "compare-offload-bandwidth"])
      expect(await page.locator(`figure[data-chart="${chart}"]`).count(), chart).toBe(0);
    for (const row of ["kvUsageAvg", "offloadGpuToCpu"])
      expect(await page.locator(`tr[data-metric="${row}"]`).count(), row).toBe(0);
    const leftOut = await page.getByTestId("compare-left-out").innerText();
    for (const name of ["KV usage (avg)", "KV usage (max)", "Offload GPU→CPU", "Offload CPU→GPU"])
      expect(leftOut).toContain(name);
    expect(leftOut).not.toContain("time-breakdown segments");
    expect(await chartsWithoutData(page)).toEqual([]);
    await page.close();
  });
});
