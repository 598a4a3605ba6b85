import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { segmentWords } from "@/lib/metrics/segment-words";
import { DISAGGREGATED_SEGMENTS } from "@/lib/metrics/time-breakdown";
import { RUN_VIEWS } from "@/lib/api/run-views";

import { gotoHydrated, uploadGeneratedTrtllm, useAppAndBrowser } from "./harness";

// The generated run follows TensorRT-LLM's perf-metrics records (see test/generators/trtllm.mjs
// for the producer source it mirrors); here it only has to give the breakdown view bars to open.

const historyLength = (page: Page) => page.evaluate(() => history.length);
const selectedTab = (page: Page) =>
  page.locator('[role="tablist"] [role="tab"][aria-selected="true"]').getAttribute("data-view");
const waterfall = (page: Page) => page.getByRole("region", { name: "request waterfall" });

describe("run page shell: history, tabs, keyboard, chart names", () => {
  const t = useAppAndBrowser();
  let runUrl = "";
  let runId = "";

  beforeAll(async () => {
    const run = await uploadGeneratedTrtllm(
      t.app.url,
      { mode: "disaggregated", requests: 60, seed: 5, ctxWorkers: 1, genWorkers: 1 },
      { name: "e2e shell" },
    );
    runId = run.id;
    runUrl = `${t.app.url}/runs/${run.id}`;
  });

  it("pushes a history entry per tab and statistic; Back and Forward step through them", async () => {
    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(runUrl);
    await page.getByRole("tab", { name: "Overview" }).waitFor();
    const start = await historyLength(page);

    await page.getByRole("tab", { name: "Breakdown" }).click();
    await page.waitForURL(/view=breakdown/);
    expect(await historyLength(page)).toBe(start + 1);
    await page.getByRole("tab", { name: "Files" }).click();
    await page.waitForURL(/view=files/);
    expect(await historyLength(page)).toBe(start + 2);

    await page.goBack();
    await page.waitForURL(/view=breakdown/);
    expect(await selectedTab(page)).toBe("breakdown");
    await page.getByText("Where the time goes (p50)").waitFor({ timeout: 30_000 });

    await page.getByRole("group", { name: "statistic" }).getByRole("button", { name: "p99" }).click();
    await page.getByText("Where the time goes (p99)").waitFor();
    await page.goBack();
    await page.getByText("Where the time goes (p50)").waitFor();
    expect(page.url()).not.toContain("stat=");

    await page.goBack();
    await page.waitForURL((u) => !u.search.includes("view="));
    expect(await selectedTab(page)).toBe("overview");
    await page.goForward();
    await page.waitForURL(/view=breakdown/);
    expect(await selectedTab(page)).toBe("breakdown");
    await page.close();
  });

  it("opens a request with Enter on the focused chart, and Back closes it", async () => {
    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${runUrl}?view=breakdown`);
    const chart = page.locator('[data-chart="per-request-breakdown"] .recharts-wrapper > svg');
    await page
      .locator('[data-chart="per-request-breakdown"] .recharts-bar-rectangle')
      .first()
      .waitFor({ timeout: 30_000 });
    expect(await chart.getAttribute("role")).toBe("application");
    expect(await chart.getAttribute("aria-label")).toContain("Enter opens");
    const before = await historyLength(page);
    await chart.focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Enter");
    await waterfall(page).getByTestId("request-detail-title").waitFor({ timeout: 30_000 });
    // The URL is written after the detail renders (the state map updates it asynchronously).
    await expect.poll(() => page.url()).toMatch(/[?&]rid=\d+/);
    await expect.poll(() => historyLength(page)).toBe(before + 1);

    await page.goBack();
    await expect.poll(() => waterfall(page).count()).toBe(0);
    expect(page.url()).not.toMatch(/[?&](req|rid)=/);
    await page.close();
  });

  it("is a WAI-ARIA tablist: one Tab stop, arrows, Home and End, a labelled tabpanel", async () => {
    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(runUrl);
    const list = page.getByRole("tablist", { name: "Run views" });
    await list.waitFor();
    const tabs = list.getByRole("tab");
    expect(await tabs.count()).toBe(RUN_VIEWS.length);
    const roving = await tabs.evaluateAll((els) => els.map((e) => e.getAttribute("tabindex")));
    expect(roving.filter((x) => x === "0")).toHaveLength(1);

    const panelId = await tabs.first().getAttribute("aria-controls");
    const panel = page.locator(`#${panelId}`);
    expect(await panel.getAttribute("role")).toBe("tabpanel");
    const labelledBy = await panel.getAttribute("aria-labelledby");
    expect(await page.locator(`#${labelledBy}`).getAttribute("data-view")).toBe("overview");

    await page.getByRole("tab", { name: "Overview" }).focus();
    await page.keyboard.press("ArrowRight");
    await page.waitForURL(/view=latency/);
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute("data-view"));
    expect(await focused()).toBe("latency");
    await page.keyboard.press("End");
    await page.waitForURL(/view=files/);
    expect(await focused()).toBe("files");
    await page.keyboard.press("Home");
    await page.waitForURL((u) => !u.search.includes("view="));
    expect(await focused()).toBe("overview");
    await page.keyboard.press("ArrowLeft");
    await page.waitForURL(/view=files/);
    expect(await selectedTab(page)).toBe("files");
    // The panel follows once the Files view's code has loaded (each view is its own chunk).
    const filesTab = await page.getByRole("tab", { name: "Files" }).getAttribute("id");
    await expect
      .poll(() => page.locator(`#${panelId}`).getAttribute("aria-labelledby"), { timeout: 15_000 })
      .toBe(filesTab);
    await page.close();
  });

  it("names every chart, offers it as a table, and lists tooltip segments in pipeline order", async () => {
    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${runUrl}?view=breakdown`);
    await page
      .locator('[data-chart="per-request-breakdown"] .recharts-bar-rectangle')
      .first()
      .waitFor({ timeout: 30_000 });
    const names = await page
      .locator("figure[data-chart] .recharts-wrapper > svg")
      .evaluateAll((svgs) =>
        svgs.map((s) => ({ role: s.getAttribute("role"), label: s.getAttribute("aria-label") ?? "" })),
      );
    expect(names.length).toBeGreaterThan(1);
    for (const n of names) {
      expect(["img", "application"]).toContain(n.role);
      expect(n.label.length).toBeGreaterThan(3);
    }

    const stats = page.locator('figure[data-chart="time-breakdown-p50"]');
    await stats.getByRole("button", { name: "View as table" }).click();
    const table = stats.getByTestId("chart-table");
    await table.waitFor();
    const segments = await table.locator("tbody tr td:first-child").allTextContents();
    expect(segments.length).toBeGreaterThan(3);
    // In words, in pipeline order (the upstream name is the table's last column).
    const inWords = DISAGGREGATED_SEGMENTS.map((s) => segmentWords(s.name));
    expect(segments).toEqual(inWords.filter((n) => segments.includes(n)));
    expect(await stats.locator(".recharts-wrapper").count()).toBe(0);
    await stats.getByRole("button", { name: "View as chart" }).click();
    await stats.locator(".recharts-wrapper").waitFor();

    // Hover the stacked bar: the tooltip lists the segments in pipeline order, in the text colour.
    // The widest band drawn (a segment not recorded in this run has no band, and a band under a
    // pixel wide sits beneath the axis line).
    const bands = stats.locator(".recharts-bar-rectangle path");
    const widths = await bands.evaluateAll((ps) => ps.map((p) => p.getBoundingClientRect().width));
    await bands.nth(widths.indexOf(Math.max(...widths))).hover();
    const items = stats.locator(".recharts-tooltip-item");
    await items.first().waitFor();
    expect(await stats.locator(".recharts-tooltip-label").textContent()).toBe("p50, in stack order");
    const listed = await items.locator(".recharts-tooltip-item-name").allTextContents();
    const order = inWords.filter((n) => listed.includes(n));
    expect(listed).toEqual(order);
    const [itemColour, textColour] = await page.evaluate(() => [
      getComputedStyle(document.querySelector(".recharts-tooltip-item")!).color,
      getComputedStyle(document.body).color,
    ]);
    expect(itemColour).toBe(textColour);
    await page.close();
  });

  it("writes legend text in the text colour, not the series colour", async () => {
    const other = await uploadGeneratedTrtllm(
      t.app.url,
      { mode: "disaggregated", requests: 40, seed: 6, ctxWorkers: 1, genWorkers: 1 },
      { name: "e2e shell b" },
    );
    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${t.app.url}/compare?runs=${runId},${other.id}`);
    const legend = page.locator(".recharts-legend-item-text");
    await legend.first().waitFor({ timeout: 30_000 });
    const colours = await legend.evaluateAll((els) => [
      ...new Set(els.map((e) => getComputedStyle(e.querySelector("span") ?? e).color)),
    ]);
    expect(colours).toEqual([await page.evaluate(() => getComputedStyle(document.body).color)]);
    await page.close();
  });

  it("draws a visible focus outline on text inputs, selects and checkboxes", async () => {
    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(t.app.url);
    for (const selector of ['input[type="search"]', 'select[aria-label="Theme"]', 'input[type="checkbox"]']) {
      const el = page.locator(selector).first();
      await el.waitFor();
      await el.focus();
      const outline = await el.evaluate((e) => {
        const s = getComputedStyle(e);
        return { style: s.outlineStyle, width: parseFloat(s.outlineWidth) };
      });
      expect(outline.style, selector).toBe("solid");
      expect(outline.width, selector).toBeGreaterThanOrEqual(2);
    }
    await page.close();
  });

  it("serves a favicon: a first visit asks for nothing that answers 404", async () => {
    // Review of 3 Dec, item 25: browsers ask for /favicon.ico whatever the page links.
    const icon = await fetch(`${t.app.url}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toMatch(/^image\//);
    expect((await icon.arrayBuffer()).byteLength).toBeGreaterThan(0);
    const context = await t.browser.newContext();
    const page = await context.newPage();
    const failed: string[] = [];
    page.on("response", (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    await gotoHydrated(page, runUrl);
    await gotoHydrated(page, t.app.url);
    expect(failed).toEqual([]);
    await context.close();
  });

  it("keeps the drop zone lit while a drag crosses its own controls, and clears it once the drag leaves", async () => {
    // Review of 1 Dec, item 22: dragleave fires on the zone as the pointer moves onto one of its
    // children, and the highlight flickered off and on.
    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await gotoHydrated(page, t.app.url);
    const zone = page.getByTestId("dropzone");
    const lit = () => zone.evaluate((el) => el.classList.contains("border-accent"));
    const frames = () =>
      page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await zone.dispatchEvent("dragover");
    await expect.poll(lit).toBe(true);
    const input = await page.getByPlaceholder("Run name (optional)").elementHandle();
    await zone.dispatchEvent("dragleave", { relatedTarget: input });
    await frames();
    expect(await lit()).toBe(true);
    const outside = await page.locator("body").elementHandle();
    await zone.dispatchEvent("dragleave", { relatedTarget: outside });
    await expect.poll(lit).toBe(false);
    await page.close();
  });
});
