import { describe, expect, it } from "vitest";
import { RUN_VIEWS } from "@/lib/api/run-views";
import { runSummarySchema, type RunSummary } from "@/lib/api/schemas";
import { useAppAndBrowser, shot } from "./harness";

const PHONE = { width: 390, height: 844 };

describe("a 390 px phone, every tab of every example run", () => {
  const t = useAppAndBrowser({ env: { RUNLENS_EXAMPLES: "on" } });

  /** Every example run's summary, read once for every view's test. */
  let summaries: Promise<RunSummary[]> | undefined;
  const exampleRuns = () =>
    (summaries ??= (async () => {
      const { runs } = (await (await fetch(`${t.app.url}/api/runs`)).json()) as {
        runs: Array<{ id: string }>;
      };
      return Promise.all(
        runs.map(async (r) =>
          runSummarySchema.parse(await (await fetch(`${t.app.url}/api/runs/${r.id}`)).json()),
        ),
      );
    })());

  // One test per view: a single test over all of them outgrew its timeout on a loaded machine as
  // views were added. Each view is opened on every example run it has data for (its tab enabled)
  // and on the first run it has none for: its empty state, one component whatever the run (the
  // header, facts and tabs above it are the run's, the same on every view, and each run has views
  // with data). 75 pages of the 9 examples instead of 117: every view's empty state, every page with data.
  it.each(RUN_VIEWS.map((v) => [v.id]))(
    "%s: never scrolls the page sideways; the view, and a chart it opens with, start on the first screen",
    async (viewId) => {
      const all = await exampleRuns();
      expect(all.length).toBeGreaterThanOrEqual(5);
      const view = RUN_VIEWS.find((v) => v.id === viewId)!;
      const withData = all.filter((r) => view.hasData(r));
      const empty = all.find((r) => !view.hasData(r));
      const runs = empty ? [...withData, empty] : withData;
      expect(withData.length, `example runs with data for ${viewId}`).toBeGreaterThan(0);
      const context = await t.browser.newContext({ viewport: PHONE, deviceScaleFactor: 1 });
      const page = await context.newPage();
      const overflow: string[] = [];
      const late: string[] = [];
      for (const run of runs) {
        await page.goto(`${t.app.url}/runs/${run.id}?view=${viewId}`);
        await page.getByRole("tabpanel").waitFor();
        await page.waitForLoadState("networkidle");
        // Views draw their later charts after the first has painted.
        await page.waitForTimeout(250);
        const { scrollWidth, panelTop, firstChartTop } = await page.evaluate(() => {
          const panel = document.querySelector("[role=tabpanel]")!;
          const chart = panel.querySelector("figure[data-chart]");
          return {
            scrollWidth: document.documentElement.scrollWidth,
            panelTop: panel.getBoundingClientRect().top,
            firstChartTop: chart ? chart.getBoundingClientRect().top : undefined,
          };
        });
        if (scrollWidth > PHONE.width) overflow.push(`${run.name} › ${viewId}: ${scrollWidth}px`);
        // The header, folded facts and tabs leave most of the first screen to the view.
        if (panelTop > PHONE.height * 0.4)
          late.push(`${run.name} › ${viewId}: view starts at ${Math.round(panelTop)}px`);
        // The first chart, where a view has one, starts high enough that its plot shows on the
        // first screen: no table or note of the view comes before it (the aiperf Latency view
        // once opened with its statistics table, which pushed the histogram below the fold).
        // The Overview opens with its headline tiles, by design; its chart comes after them.
        if (viewId !== "overview" && firstChartTop !== undefined && firstChartTop > PHONE.height * 0.7)
          late.push(`${run.name} › ${viewId}: first chart at ${Math.round(firstChartTop)}px`);
      }
      await context.close();
      expect(overflow).toEqual([]);
      expect(late).toEqual([]);
    },
  );

  it("keeps wide tables scrolling inside their card", async () => {
    const { runs } = (await (await fetch(`${t.app.url}/api/runs`)).json()) as {
      runs: Array<{ id: string; name: string }>;
    };
    const trt = runs.find((r) => /300 requests/.test(r.name)) ?? runs[0];
    for (const scheme of ["light", "dark"] as const) {
      const context = await t.browser.newContext({ viewport: PHONE, colorScheme: scheme });
      const page = await context.newPage();
      await page.goto(`${t.app.url}/runs/${trt.id}?view=breakdown`);
      await page.getByText("Where the time goes").first().waitFor({ timeout: 30_000 });
      await page.waitForLoadState("networkidle");
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
      await context.close();
    }
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
