/**
 * A control never leaves the previous chart on screen as if it answered the new choice, and the
 * compare page reads at eight runs (review of 3 Dec 2026, items 2, 3 and 5). Runs are aiperf
 * exports from test/generators/aiperf.mjs (the record layout of aiperf's profile_export.jsonl)
 * and the qwen-c4 fixture.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  aiperfExportFiles,
  apiUpload,
  gotoHydrated,
  shot,
  uploadGeneratedAiperf,
  useAppAndBrowser,
} from "./harness";

const FIX = path.resolve(__dirname, "../fixtures/aiperf");

describe("pending state and compare at eight runs", () => {
  const t = useAppAndBrowser();

  const upload = async (seed: number, name: string, ttftScale = 1) =>
    (await uploadGeneratedAiperf(t.app.url, { records: 300, seed, concurrency: 4, ttftScale }, { name })).id;

  it("marks the shown chart out of date the moment the latency metric changes, until the new one is drawn", async () => {
    const files = aiperfExportFiles(FIX, "qwen-c4__");
    const { id } = await apiUpload(t.app.url, files, { name: "qwen c4" });
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/runs/${id}?view=latency`);
    const histogram = page.locator('figure[data-chart="latency-histogram"]');
    await expect
      .poll(() => histogram.locator("h3").textContent(), { timeout: 20_000 })
      .toContain("Time to first token");
    // Every change of the figure, in order: was it out of date, and what did its title say.
    await page.evaluate(() => {
      const log: Array<{ busy: string | null; title: string }> = [];
      (window as unknown as { pendingLog: typeof log }).pendingLog = log;
      const fig = document.querySelector('figure[data-chart="latency-histogram"]')!;
      const note = () =>
        log.push({ busy: fig.getAttribute("aria-busy"), title: fig.querySelector("h3")!.textContent ?? "" });
      new MutationObserver(note).observe(fig, {
        attributes: true,
        attributeFilter: ["aria-busy"],
        subtree: true,
        characterData: true,
        childList: true,
      });
    });
    await page.getByRole("group", { name: "metric" }).getByRole("button", { name: "E2E" }).click();
    await expect.poll(() => histogram.locator("h3").textContent()).toContain("End-to-end latency");
    await expect.poll(() => histogram.getAttribute("aria-busy")).toBeNull();
    const log = await page.evaluate(
      () => (window as unknown as { pendingLog: Array<{ busy: string | null; title: string }> }).pendingLog,
    );
    // The old chart was marked busy before the new title came, and never shown unmarked under E2E.
    const firstBusy = log.findIndex((e) => e.busy === "true");
    const firstNew = log.findIndex((e) => e.title.includes("End-to-end"));
    expect(firstBusy).toBeGreaterThanOrEqual(0);
    expect(firstBusy).toBeLessThan(firstNew);
    expect(log[firstBusy].title).toContain("Time to first token");
    expect(
      log.filter(
        (e) => e.title.includes("Time to first token") && e.busy === null && log.indexOf(e) > firstBusy,
      ),
    ).toEqual([]);
    await expect.poll(() => page.getByTestId("chart-pending").count()).toBe(0);

    // Held in its pending state (the transition slowed by a throttled CPU), it looks so: dimmed and struck.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 20 });
    await page.getByRole("group", { name: "metric" }).getByRole("button", { name: "ITL" }).click();
    const struck = await histogram.evaluate((fig) => ({
      busy: fig.getAttribute("aria-busy"),
      decoration: getComputedStyle(fig.querySelector("h3")!).textDecorationLine,
    }));
    await shot(page, "pending-latency-metric.png", { fullPage: false });
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
    if (struck.busy === "true") expect(struck.decoration).toBe("line-through");
    await expect.poll(() => histogram.locator("h3").textContent()).toContain("Inter-token latency");
    await page.close();
  });

  it("marks the open view out of date the moment another tab is clicked, and loads a pointed-at tab's code ahead", async () => {
    const files = aiperfExportFiles(FIX, "qwen-c4__");
    const { id } = await apiUpload(t.app.url, files, { name: "qwen c4 tabs" });
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    const scripts: string[] = [];
    page.on("request", (r) => void (r.resourceType() === "script" && scripts.push(r.url())));
    await gotoHydrated(page, `${t.app.url}/runs/${id}?view=latency`);
    await page
      .locator('figure[data-chart="latency-histogram"] svg.recharts-surface')
      .waitFor({ timeout: 20_000 });
    await page.waitForLoadState("networkidle");
    // What the panel shows, in order: its tab, and whether its figures say they are out of date.
    await page.evaluate(() => {
      const log: Array<{ tab: string | null; busy: boolean }> = [];
      (window as unknown as { tabLog: typeof log }).tabLog = log;
      const panel = document.getElementById("run-view-panel")!;
      const note = () =>
        log.push({
          tab: panel.getAttribute("aria-labelledby"),
          busy: panel.querySelector('figure[aria-busy="true"]') !== null,
        });
      new MutationObserver(note).observe(panel, { attributes: true, subtree: true, childList: true });
    });
    await page.getByRole("tab", { name: "Timeline" }).click();
    await expect
      .poll(() => page.locator("#run-view-panel").getAttribute("aria-labelledby"))
      .toBe("run-view-tab-timeline");
    const log = await page.evaluate(
      () => (window as unknown as { tabLog: Array<{ tab: string | null; busy: boolean }> }).tabLog,
    );
    const firstBusy = log.findIndex((e) => e.busy);
    const firstNew = log.findIndex((e) => e.tab === "run-view-tab-timeline");
    // The Latency charts were marked out of date before the Timeline replaced them.
    expect(firstBusy).toBeGreaterThanOrEqual(0);
    expect(firstBusy).toBeLessThan(firstNew);
    expect(log[firstBusy].tab).toBe("run-view-tab-latency");
    // Pointing at a tab asks for its view's code before the click.
    const before = scripts.length;
    await page.getByRole("tab", { name: "Files" }).hover();
    await expect.poll(() => scripts.length).toBeGreaterThan(before);
    await page.close();
  });

  it("fits eight runs in 1,280 px with one-line rows, no taller than three runs, and in a 390 px phone without sideways scroll", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 8; i++)
      ids.push(
        await upload(
          i + 1,
          `aiperf · mock-llama-8b on 2 vLLM-style servers · concurrency 4 · 300 requests · build ${i + 1}`,
          i === 6 ? 1.25 : 1,
        ),
      );
    const page = await t.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const measure = async (runs: string[]) => {
      await gotoHydrated(page, `${t.app.url}/compare?runs=${runs.join(",")}`);
      const table = page.getByTestId("delta-table");
      await table.waitFor({ timeout: 30_000 });
      await expect.poll(() => table.locator("thead th").count()).toBe(runs.length + 2);
      return table.evaluate((el) => {
        const card = el.parentElement!;
        const rows = [...el.querySelectorAll("tbody tr")].map((tr) => tr.getBoundingClientRect().height);
        return {
          cardWidth: card.clientWidth,
          tableWidth: el.scrollWidth,
          pageWidth: document.documentElement.scrollWidth,
          rows,
          header: el.querySelector("thead")!.getBoundingClientRect().height,
          height: el.getBoundingClientRect().height,
          lineHeight: parseFloat(getComputedStyle(el.querySelector("tbody td")!).lineHeight),
        };
      });
    };
    const three = await measure(ids.slice(0, 3));
    const eight = await measure(ids);
    await shot(page, "compare-8-runs-1280.png");
    expect(eight.tableWidth).toBeLessThanOrEqual(eight.cardWidth);
    expect(eight.pageWidth).toBeLessThanOrEqual(1280);
    // One text line per row: the line plus the cell's padding, never two lines.
    for (const h of eight.rows) expect(h).toBeLessThan(2 * eight.lineHeight);
    expect(eight.rows.length).toBe(three.rows.length);
    expect(eight.height).toBeLessThanOrEqual(three.height + 2);
    // The one verdict column: run 7's injected TTFT regression (×1.25) is there when it is chosen.
    await page.getByTestId("verdict-run").selectOption(ids[6]);
    await expect
      .poll(() =>
        page.locator('tr[data-metric="ttft"] td[data-noise-verdict]').getAttribute("data-noise-verdict"),
      )
      .toBe("regressed");

    // On a 390 px phone the same page stays inside the screen: the verdict run's select (sized to
    // the longest run name) once made it 475 px wide. Tables scroll inside their own card.
    await page.setViewportSize({ width: 390, height: 844 });
    await gotoHydrated(page, `${t.app.url}/compare?runs=${ids.join(",")}&judge=${ids[6]}`);
    await page.getByTestId("delta-table").waitFor({ timeout: 30_000 });
    await page.waitForLoadState("networkidle");
    const phone = await page.evaluate(() => {
      const vw = document.documentElement.clientWidth;
      // Every element past the right edge that no scrolling or clipping box of its own holds in.
      const past: string[] = [];
      for (const el of document.querySelectorAll("body *")) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.right <= vw + 0.5) continue;
        let held = false;
        for (let p = el.parentElement; p && p !== document.body && !held; p = p.parentElement)
          held = getComputedStyle(p).overflowX !== "visible" && p.getBoundingClientRect().right <= vw + 0.5;
        if (!held) past.push(`${el.tagName.toLowerCase()}.${el.className} → ${Math.round(r.right)} px`);
      }
      const table = document.querySelector("[data-testid=delta-table]")!;
      const select = document.querySelector("[data-testid=verdict-run]")!.getBoundingClientRect();
      return {
        pageWidth: document.documentElement.scrollWidth,
        past: past.slice(0, 10),
        tableScrolls: table.scrollWidth > table.clientWidth,
        select: { left: select.left, right: select.right },
      };
    });
    await shot(page, "compare-8-runs-390.png");
    expect(phone.past).toEqual([]);
    expect(phone.pageWidth).toBeLessThanOrEqual(390);
    expect(phone.tableScrolls).toBe(true);
    expect(phone.select.left).toBeGreaterThanOrEqual(0);
    expect(phone.select.right).toBeLessThanOrEqual(390);
    await page.close();
  });

  it("warns that runs of different models are not comparable and gives verdicts only when asked", async () => {
    const a = await upload(11, "llama run");
    const b = await upload(12, "qwen run");
    for (const [id, model] of [
      [a, "mock-llama-8b"],
      [b, "Qwen/Qwen3-0.6B"],
    ])
      await fetch(`${t.app.url}/api/runs/${id}`, {
        method: "PATCH",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ facts: { model } }),
      });
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/compare?runs=${a},${b}`);
    const panel = page.getByTestId("comparability");
    await expect.poll(() => panel.textContent()).toContain("model: mock-llama-8b → Qwen/Qwen3-0.6B");
    expect(await panel.getAttribute("data-verdict")).toBe("not comparable");
    expect(await page.getByTestId("verdict-notes").textContent()).toMatch(
      /No verdicts for qwen run: not comparable/,
    );
    expect(await page.locator("td[data-noise-verdict]").count()).toBe(0);
    await shot(page, "compare-not-comparable.png");

    await panel.getByRole("button", { name: /Accept model: give verdicts/ }).click();
    await page.waitForURL(/allowDifferent=model/);
    await expect.poll(() => panel.getAttribute("data-accepted")).toBe("model");
    await expect.poll(() => page.locator("td[data-noise-verdict]").count()).toBeGreaterThan(0);
    await page.close();
  });
});
