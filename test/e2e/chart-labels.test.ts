import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useAppAndBrowser } from "./harness";

interface Clash {
  where: string;
  chart: string;
  what: string;
}

/**
 * Every text label of every chart on the page (reference-line labels, axis ticks and titles, lane
 * labels): none may leave its drawing, no two may intersect, and no mark's name (a percentile)
 * may sit on a bar. Boxes come from the browser's
 * layout (getBoundingClientRect), so rotated axis titles and haloes count as drawn.
 */
async function labelClashes(page: Page, where: string): Promise<Clash[]> {
  const found = await page.evaluate(() => {
    const out: Array<{ chart: string; what: string }> = [];
    const text = (e: Element) => (e.textContent ?? "").trim();
    for (const fig of document.querySelectorAll("figure[data-chart]")) {
      const chart = fig.getAttribute("data-chart") ?? "?";
      const svg =
        fig.querySelector<SVGSVGElement>(".recharts-wrapper > svg.recharts-surface") ??
        fig.querySelector<SVGSVGElement>("svg[role=img]");
      if (!svg) continue;
      const frame = svg.getBoundingClientRect();
      const labels = [...svg.querySelectorAll("text")]
        .filter((t) => text(t) !== "")
        .map((t) => ({ t: text(t), r: t.getBoundingClientRect() }))
        .filter(({ r }) => r.width > 0 && r.height > 0);
      const slack = 0.5;
      for (const { t, r } of labels)
        if (
          r.left < frame.left - slack ||
          r.right > frame.right + slack ||
          r.top < frame.top - slack ||
          r.bottom > frame.bottom + slack
        )
          out.push({ chart, what: `"${t}" leaves the drawing` });
      // Text boxes include the font's line gap, so boxes that merely touch are not a clash.
      const inset = 1;
      for (let i = 0; i < labels.length; i++)
        for (let j = i + 1; j < labels.length; j++) {
          const a = labels[i].r;
          const b = labels[j].r;
          if (
            a.left + inset < b.right - inset &&
            b.left + inset < a.right - inset &&
            a.top + inset < b.bottom - inset &&
            b.top + inset < a.bottom - inset
          )
            out.push({ chart, what: `"${labels[i].t}" overlaps "${labels[j].t}"` });
        }
      // A mark's name (a percentile) is never drawn on a bar: it sat on the tallest one.
      const bars = [...svg.querySelectorAll(".recharts-bar-rectangle path, .recharts-bar-rectangle rect")]
        .map((b) => b.getBoundingClientRect())
        .filter((r) => r.width > 0 && r.height > 0);
      for (const m of svg.querySelectorAll("text.chart-mark-label")) {
        const r = m.getBoundingClientRect();
        if (r.width === 0) continue;
        const on = bars.find(
          (b) => r.left < b.right && b.left < r.right && r.top < b.bottom - inset && b.top < r.bottom - inset,
        );
        if (on) out.push({ chart, what: `"${text(m)}" is drawn on a bar` });
      }
    }
    return out;
  });
  return found.map((c) => ({ where, ...c }));
}

async function settle(page: Page) {
  await page.getByRole("tabpanel").or(page.locator("main")).first().waitFor();
  await page.waitForLoadState("networkidle");
  // Views draw their later charts after the first has painted.
  await page.waitForTimeout(400);
}

describe("chart labels on every example run", () => {
  const t = useAppAndBrowser({ env: { RUNLENS_EXAMPLES: "on" } });

  it("never overlap and never leave their chart, on the views, a request drill-down and compare", async () => {
    const { runs } = (await (await fetch(`${t.app.url}/api/runs`)).json()) as {
      runs: Array<{ id: string; kinds: string[]; requestCount: number | null }>;
    };
    expect(runs.length).toBeGreaterThanOrEqual(5);
    const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    const clashes: Clash[] = [];
    let charts = 0;
    const visit = async (url: string) => {
      await page.goto(`${t.app.url}${url}`);
      await settle(page);
      charts += await page.locator("figure[data-chart] svg").count();
      clashes.push(...(await labelClashes(page, url)));
    };
    for (const run of runs) {
      for (const view of ["latency", "throughput", "breakdown", "cache", "kv", "offload", "gpu"])
        await visit(`/runs/${run.id}?view=${view}`);
      if (run.kinds.includes("trtllm-perf-metrics")) {
        await visit(`/runs/${run.id}?view=breakdown&req=0`);
        await page
          .locator('[data-chart^="request-0-steps"] svg')
          .first()
          .waitFor({ timeout: 15_000 })
          .catch(() => {});
        clashes.push(...(await labelClashes(page, `/runs/${run.id}?view=breakdown&req=0 (steps)`)));
      }
    }
    await visit(`/compare?runs=${runs.map((r) => r.id).join(",")}`);
    const trt = runs.filter((r) => r.kinds.includes("trtllm-perf-metrics")).map((r) => r.id);
    if (trt.length > 1) await visit(`/compare?runs=${trt.join(",")}`);
    await page.close();
    expect(charts).toBeGreaterThan(20);
    expect(clashes).toEqual([]);
    // About fifty pages, each settled: past the project's two minutes on a loaded machine.
  }, 600_000);
});
