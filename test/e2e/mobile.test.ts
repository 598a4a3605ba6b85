import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { RUN_VIEWS } from "@/lib/api/run-views";
import { useAppAndBrowser } from "./harness";

const SHOTS = process.env.RUNLENS_SCREENSHOT_DIR || os.tmpdir();
const PHONE = { width: 390, height: 844 };

describe("a 390 px phone, every tab of every example run", () => {
  const t = useAppAndBrowser({ env: { RUNLENS_EXAMPLES: "on" } });

  it("never scrolls the page sideways; the view, and a chart it opens with, start on the first screen", async () => {
    const { runs } = (await (await fetch(`${t.app.url}/api/runs`)).json()) as {
      runs: Array<{ id: string; name: string }>;
    };
    expect(runs.length).toBeGreaterThanOrEqual(5);
    const context = await t.browser.newContext({ viewport: PHONE, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const overflow: string[] = [];
    const late: string[] = [];
    for (const run of runs)
      for (const view of RUN_VIEWS) {
        await page.goto(`${t.app.url}/runs/${run.id}?view=${view.id}`);
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
        if (scrollWidth > PHONE.width) overflow.push(`${run.name} › ${view.id}: ${scrollWidth}px`);
        // The header, folded facts and tabs leave most of the first screen to the view.
        if (panelTop > PHONE.height * 0.4)
          late.push(`${run.name} › ${view.id}: view starts at ${Math.round(panelTop)}px`);
        // The first chart, where a view has one, starts high enough that its plot shows on the
        // first screen: no table or note of the view comes before it (the aiperf Latency view
        // once opened with its statistics table, which pushed the histogram below the fold).
        if (firstChartTop !== undefined && firstChartTop > PHONE.height * 0.7)
          late.push(`${run.name} › ${view.id}: first chart at ${Math.round(firstChartTop)}px`);
      }
    expect(overflow).toEqual([]);
    expect(late).toEqual([]);
    await context.close();
  });

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
      await page.screenshot({ path: path.join(SHOTS, `mobile-breakdown-${scheme}.png`) });
      await context.close();
    }
  });
});
