import { describe, expect, it } from "vitest";
import { setLook, shot, useAppAndBrowser } from "./harness";

const PHONE = { width: 390, height: 844 };

describe("a 390 px phone: wide tables, the tab row and the compare page", () => {
  const t = useAppAndBrowser({ env: { RUNLENS_EXAMPLES: "on" } });

  // Every tab of every example run on a phone is checked in honest-views.test.ts, on the pages
  // its walk over every view opens (each page loaded once, looked at 1440 and 390 px wide).

  it("keeps wide tables scrolling inside their card", async () => {
    const { runs } = (await (await fetch(`${t.app.url}/api/runs`)).json()) as {
      runs: Array<{ id: string; name: string }>;
    };
    const trt = runs.find((r) => /300 requests/.test(r.name)) ?? runs[0];
    // One page load, looked at in light and then in dark.
    const context = await t.browser.newContext({ viewport: PHONE, colorScheme: "light" });
    const page = await context.newPage();
    await page.goto(`${t.app.url}/runs/${trt.id}?view=breakdown`);
    await page.getByText("Where the time goes").first().waitFor({ timeout: 30_000 });
    await page.waitForLoadState("networkidle");
    for (const scheme of ["light", "dark"] as const) {
      await setLook(page, { ...PHONE, scheme });
      const tables = await page.locator("table.table-base").evaluateAll((els) =>
        els.map((el) => ({
          scroll: el.scrollWidth,
          box: el.clientWidth,
          right: el.getBoundingClientRect().right,
        })),
      );
      expect(tables.length).toBeGreaterThan(0);
      for (const tb of tables) expect(tb.right).toBeLessThanOrEqual(PHONE.width);
      expect(tables.some((tb) => tb.scroll > tb.box)).toBe(true);
      await shot(page, `mobile-breakdown-${scheme}.png`, { fullPage: false });
    }
    await context.close();
  });

  it("shows that more tabs lie past the edge of the tab row, and scrolls the chosen tab into it", async () => {
    const { runs } = (await (await fetch(`${t.app.url}/api/runs`)).json()) as {
      runs: Array<{ id: string; name: string }>;
    };
    const run = runs.find((r) => /mock-llama-8b/.test(r.name))!;
    const context = await t.browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    // Overview, the first tab: more tabs to the right only.
    await page.goto(`${t.app.url}/runs/${run.id}`);
    await page.getByRole("tablist").waitFor();
    await page.locator("[data-more-tabs=right]").waitFor();
    expect(await page.locator("[data-more-tabs=left]").count()).toBe(0);
    // Cache sits past the right edge of a 390 px row: opened by link, it is scrolled into view.
    await page.goto(`${t.app.url}/runs/${run.id}?view=cache`);
    await page.getByRole("tabpanel").waitFor();
    await page.locator("[data-more-tabs=left]").waitFor();
    const { tab, row } = await page.evaluate(() => {
      const box = (el: Element) => {
        const r = el.getBoundingClientRect();
        return { left: r.left, right: r.right };
      };
      return {
        tab: box(document.querySelector("[role=tab][aria-selected=true]")!),
        row: box(document.querySelector("[role=tablist]")!),
      };
    });
    expect(tab.left).toBeGreaterThanOrEqual(row.left);
    expect(tab.right).toBeLessThanOrEqual(row.right);
    await shot(page, "mobile-tabs-cache.png", { fullPage: false });
    await context.close();
  });

  it("reads the compare page of every example on a phone: no sideways page, tables scroll in their card", async () => {
    const { runs } = (await (await fetch(`${t.app.url}/api/runs`)).json()) as {
      runs: Array<{ id: string; name: string; status: string }>;
    };
    const ids = runs
      .filter((r) => r.status === "ready")
      .slice(0, 8)
      .map((r) => r.id);
    const context = await t.browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${t.app.url}/compare?runs=${ids.join(",")}`);
    await page.getByTestId("delta-table").waitFor({ timeout: 30_000 });
    await page.waitForLoadState("networkidle");
    const facts = await page.evaluate(() => {
      const table = document.querySelector("[data-testid=delta-table]")!;
      const firstCell = table.querySelector("tbody td")!;
      return {
        scrollWidth: document.documentElement.scrollWidth,
        tableRight: table.getBoundingClientRect().right,
        tableScrolls: table.scrollWidth > table.clientWidth,
        // The metric names stay in view while the run columns scroll, in a narrow column.
        sticky: getComputedStyle(firstCell).position,
        metricWidth: firstCell.getBoundingClientRect().width,
      };
    });
    expect(facts.scrollWidth).toBeLessThanOrEqual(PHONE.width);
    expect(facts.tableRight).toBeLessThanOrEqual(PHONE.width);
    expect(facts.tableScrolls).toBe(true);
    expect(facts.sticky).toBe("sticky");
    expect(facts.metricWidth).toBeLessThanOrEqual(PHONE.width / 2);
    // Hit rate by endpoint: on a phone its value labels do not fit above the bars, so the
    // endpoints run down y, one named row each (an address in several runs is one row, a bar per
    // run that has it), and no row for an endpoint without a value (decode endpoints).
    const hit = page.locator('figure[data-chart="compare-hit-rate-by-endpoint"]');
    // The chart draws once its payload has arrived and its bars have grown: wait for both.
    const categoryTicks = () => hit.locator(".recharts-yAxis .recharts-cartesian-axis-tick").count();
    await expect.poll(categoryTicks, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
    const rows = await categoryTicks();
    const barsPerRow = () =>
      hit.locator(".recharts-bar-rectangle path").evaluateAll((els, n) => {
        const drawn = els.filter((el) => el.getBoundingClientRect().width > 1);
        const plot = els[0]
          ?.closest("svg")
          ?.querySelector(".recharts-cartesian-grid")
          ?.getBoundingClientRect();
        if (!plot || drawn.length === 0) return [];
        const band = plot.height / n;
        const count = Array.from({ length: n }, () => 0);
        for (const el of drawn) {
          const r = el.getBoundingClientRect();
          count[Math.min(n - 1, Math.floor((r.top + r.height / 2 - plot.top) / band))] += 1;
        }
        return count;
      }, rows);
    await expect
      .poll(
        async () => {
          const counts = await barsPerRow();
          return counts.length === rows && counts.every((c) => c > 0);
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    await shot(page, "mobile-compare.png");
    await context.close();
  });
});
