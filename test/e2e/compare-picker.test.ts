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

  it("labels segment rows in the Breakdown's words with the name and sentence on hover; no all-'—' row; p95 everywhere", async () => {
    const runs = await listed();
    const trt = runs.find((r) => /300 requests/.test(r.name))!;
    const aiperf = runs.find((r) => r.name.startsWith("aiperf ·"))!;
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/compare?runs=${trt.id},${aiperf.id}`);
    const table = page.getByTestId("delta-table");
    await table.waitFor();

    const route = table.locator('tr[data-metric="segment:disagg_preprocessing"] td').first();
    // Words, as the Breakdown view's segment table names them; snake_case only in the hover.
    expect((await route.innerText()).trim()).toMatch(/^disagg preprocessing p50/);
    expect(await route.locator("[title]").getAttribute("title")).toBe(
      "disagg_preprocessing: Disagg server routes the request to a context server",
    );
    const labels = await table.locator('tr[data-metric^="segment:"] td:first-child').allInnerTexts();
    expect(labels.length).toBeGreaterThan(5);
    for (const l of labels) expect(l, "a segment row's label").not.toMatch(/_/);
    expect(labels.join("|")).toContain("generation KV transfer p50");
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

  it("refuses the 1-request TensorRT-LLM perf metrics against aiperf's 64 requests, with its evidence", async () => {
    const runs = await listed();
    const trt = runs.find((r) => r.name === "TensorRT-LLM · disaggregated perf metrics")!;
    const qwen = runs.find((r) => r.name === "aiperf · Qwen3-0.6B · concurrency 1")!;
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/compare?runs=${trt.id},${qwen.id}`);
    const doctor = page.getByTestId("comparability");
    // It said "comparable": the perf-metrics run has no client requests block to count or compare.
    await expect.poll(() => doctor.getAttribute("data-verdict"), { timeout: 30_000 }).toBe("not comparable");
    const reason = (name: string) => doctor.locator(`[data-reason="${name}"]`);
    expect(await reason("measured-by").getAttribute("data-severity")).toBe("blocking");
    const measuredBy = await reason("measured-by").textContent();
    expect(measuredBy).toContain("TensorRT-LLM perf metrics at the engine");
    expect(measuredBy).toContain("aiperf at the client");
    // Each producer said once.
    expect(measuredBy?.split("TensorRT-LLM perf metrics").length).toBe(2);
    expect(await reason("request-count").getAttribute("data-severity")).toBe("blocking");
    expect(await reason("request-count").textContent()).toMatch(/1 request.*64 requests/);
    expect(await reason("request-count").textContent()).toContain("64× the other's requests");
    expect(await reason("sample-size").getAttribute("data-severity")).toBe("caveat");
    expect(await reason("sample-size").textContent()).toContain("fewer than 20 requests");
    await shot(page, "compare-2-runs-refused-1440-light.png");
    await page.close();
  });

  it("writes throughput as the Overview and the sweep table do: tok/s at 2 decimals, req/s at 3", async () => {
    const runs = await listed();
    const ids = runs.filter((r) => r.name.startsWith("aiperf ·")).map((r) => r.id);
    expect(ids).toHaveLength(4);
    // Each run's figure as the compare API serves it, written at the rule's decimals.
    const data = (await (await fetch(`${t.app.url}/api/compare?runs=${ids.join(",")}`)).json()) as {
      rows: Array<{ key: string; cells: Array<{ runId: string; value: number | null }> }>;
    };
    const figures = (key: string, digits: number) =>
      data.rows
        .find((r) => r.key === key)!
        .cells.flatMap((c) =>
          // Exactly the figure's decimals, trailing zeros kept: 0.250 beside 0.973, never 0.25.
          c.value === null
            ? []
            : [
                c.value.toLocaleString("en-US", {
                  minimumFractionDigits: digits,
                  maximumFractionDigits: digits,
                }),
              ],
        );
    const tok = figures("outputTokenThroughput", 2);
    const req = figures("requestThroughput", 3);
    expect(tok).toHaveLength(4);
    // The qwen c4 run's 194.51 tok/s and 0.973 req/s, as its Overview tile writes them.
    expect(tok).toContain("194.51");
    expect(req).toContain("0.973");
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/compare?runs=${ids.join(",")}`);
    const table = page.getByTestId("delta-table");
    await table.waitFor();
    // Each bar's label (195 tok/s and 0.97 req/s beside a table of 194.51 and 0.973 before).
    const bars = async (chart: string) =>
      (await page.locator(`figure[data-chart="${chart}"] .recharts-label-list text`).allTextContents()).map(
        (l) => l.replace(/\u00a0/g, " "),
      );
    await expect.poll(() => bars("compare-token-throughput")).toEqual(tok.map((v) => `${v} tok/s`));
    expect(await bars("compare-request-throughput")).toEqual(req.map((v) => `${v} req/s`));
    const cells = await table
      .locator('tr[data-metric="requestThroughput"] td[data-verdict] > div:first-child')
      .allTextContents();
    // With or without its unit, as the table's width decides.
    expect(cells.map((c) => c.replace(/ req\/s$/, ""))).toEqual(req);
    await shot(page, "compare-4-aiperf-runs-1440-light.png");
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
