import { describe, expect, it } from "vitest";
import { useAppAndBrowser, gotoHydrated } from "./harness";

const DECODE = '[fill="var(--seg-decode)"]';

/** The columns of a chart's "View as table" fallback (the per-request bars are on a canvas). */
async function tableColumns(chart: import("playwright-core").Locator): Promise<string[]> {
  await chart.getByRole("button", { name: "View as table" }).click();
  const headers = chart.locator("table th");
  await headers.first().waitFor();
  const names = (await headers.allTextContents()).map((s) => s.trim());
  await chart.getByRole("button", { name: "View as chart" }).click();
  await chart.locator("canvas[data-canvas-marks]").waitFor();
  return names;
}

describe("breakdown: TTFT segments only, on the TensorRT-LLM example runs", () => {
  const t = useAppAndBrowser({ env: { RUNLENS_EXAMPLES: "on" } });

  it("hides decode in the per-request and share charts, keeps it in the URL, and Back restores it", async () => {
    const { runs } = (await (await fetch(`${t.app.url}/api/runs`)).json()) as {
      runs: Array<{ id: string; kinds: string[]; requestCount: number | null }>;
    };
    // The largest TensorRT-LLM example: its per-request chart has hundreds of bars.
    const run = runs
      .filter((r) => r.kinds.includes("trtllm-perf-metrics"))
      .sort((a, b) => (b.requestCount ?? 0) - (a.requestCount ?? 0))[0];
    expect(run).toBeDefined();
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/runs/${run!.id}?view=breakdown&sort=ttft`);
    const perRequest = page.locator('[data-chart="per-request-breakdown"]');
    const share = page.locator('[data-chart="segment-share-over-time"]');
    await perRequest.locator("canvas[data-canvas-marks]").waitFor({ timeout: 30_000 });
    await share.locator(".recharts-area").first().waitFor({ timeout: 30_000 });
    // The table is the figure's: a column per segment, its unit in the header.
    expect(await tableColumns(perRequest)).toContain("decode (ms)");
    expect(await share.locator(`.recharts-area path${DECODE}`).count()).toBeGreaterThan(0);
    const before = await page.evaluate(() => history.length);

    await perRequest
      .getByRole("group", { name: "segments shown" })
      .getByRole("button", { name: "TTFT segments only" })
      .click();
    await page.waitForURL(/segments=ttft/);
    await perRequest.getByText("decode left out").first().waitFor();
    expect(await share.locator(`${DECODE}`).count()).toBe(0);
    // The headline bar follows: its TTFT segments fill the bar instead of 1–5 px beside decode.
    const headline = page.locator('[data-chart="time-breakdown-ttft-p50"]');
    await headline.getByText("Where the time to first token goes (p50)").waitFor();
    expect(
      await headline.locator(`.recharts-bar-rectangle path${DECODE}, .recharts-bar ${DECODE}`).count(),
    ).toBe(0);
    expect(await headline.locator(".recharts-bar-rectangle").count()).toBeGreaterThan(2);
    expect(
      await headline
        .getByRole("group", { name: "segments shown" })
        .getByRole("button", { name: "TTFT segments only" })
        .getAttribute("aria-pressed"),
    ).toBe("true");
    expect(await page.evaluate(() => history.length)).toBe(before + 1);
    const ttftColumns = await tableColumns(perRequest);
    expect(ttftColumns).not.toContain("decode (ms)");
    expect(ttftColumns.length).toBeGreaterThan(4);

    // The tooltip lists the shown segments in pipeline order, without decode.
    const chart = perRequest.locator("svg.recharts-surface").first();
    const box = (await chart.boundingBox())!;
    await chart.hover({ position: { x: box.width * 0.2, y: box.height * 0.85 } });
    const tip = perRequest.locator(".recharts-tooltip-wrapper li");
    await tip.first().waitFor();
    const names = (await tip.allTextContents()).map((s) =>
      s.replace(/[\d.,]+\s*(ms|s)$|not recorded$/, "").trim(),
    );
    expect(names).not.toContain("decode");
    expect(names[0]).toMatch(/^(disagg_preprocessing|ctx_preprocessing)/);

    // The log axis is a URL step too.
    await perRequest.getByRole("group", { name: "time axis" }).getByRole("button", { name: "log" }).click();
    await page.waitForURL(/scale=log/);
    await perRequest.locator("canvas[data-canvas-marks]").waitFor();

    // A reload keeps the state; Back steps out of the log axis, then out of TTFT-only.
    await page.reload();
    await perRequest.getByText("decode left out").first().waitFor({ timeout: 30_000 });
    await page.goBack();
    await page.waitForURL((u) => !u.search.includes("scale=log"));
    await page.goBack();
    await page.waitForURL((u) => !u.search.includes("segments=ttft"));
    const fullBar = page.locator('[data-chart="time-breakdown-p50"]');
    await fullBar.getByText("Where the time goes (p50)").waitFor();
    expect(await fullBar.locator(`.recharts-bar ${DECODE}`).count()).toBeGreaterThan(0);
    await perRequest.locator("canvas[data-canvas-marks]").waitFor({ timeout: 30_000 });
    expect(await tableColumns(perRequest)).toContain("decode (ms)");
    await page.close();
  });
});
