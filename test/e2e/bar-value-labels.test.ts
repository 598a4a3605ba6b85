import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { MIN_BAR_PX } from "@/lib/metrics/bar-labels";
import { forEachLook, gotoHydrated, shot } from "./harness";
import { useAppAndBrowser } from "./harness";

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
  height: number;
}

/** A chart's bars and its value labels, as the browser laid them out. */
async function barsAndLabels(
  chart: Locator,
): Promise<{ bars: Box[]; labels: Array<{ t: string; r: Box }>; frame: Box }> {
  return chart.evaluate((fig) => {
    const box = (e: Element) => {
      const r = e.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height };
    };
    const svg = fig.querySelector(".recharts-wrapper > svg.recharts-surface")!;
    return {
      frame: box(svg),
      bars: [...svg.querySelectorAll(".recharts-bar-rectangle path, .recharts-bar-rectangle rect")]
        .map(box)
        .filter((r) => r.width > 0 && r.height > 0),
      labels: [...svg.querySelectorAll(".recharts-label-list text")]
        .filter((t) => (t.textContent ?? "").trim() !== "")
        .map((t) => ({ t: (t.textContent ?? "").trim(), r: box(t) })),
    };
  });
}

const overlap = (a: Box, b: Box, inset = 1) =>
  a.left + inset < b.right - inset &&
  b.left + inset < a.right - inset &&
  a.top + inset < b.bottom - inset &&
  b.top + inset < a.bottom - inset;

describe("bar charts: value labels and a visible bar for every value above 0", () => {
  const t = useAppAndBrowser({ env: { RUNLENS_EXAMPLES: "on" } });

  async function runsByName() {
    const { runs } = (await (await fetch(`${t.app.url}/api/runs`)).json()) as {
      runs: Array<{ id: string; name: string; kinds: string[]; requestCount: number | null }>;
    };
    return runs;
  }

  it("Compare › Offload bandwidth: 5 MB/s beside 9.5 GB/s is a bar with its label, at 1440 and 390 px, light and dark", async () => {
    const runs = await runsByName();
    const small = runs.find((r) => r.name === "vLLM · KV offload to CPU");
    const big = runs.find((r) => r.name.startsWith("vLLM · KV offload, CPU and fs tiers"));
    expect(small && big).toBeTruthy();
    await forEachLook(t.browser, `${t.app.url}/compare?runs=${big!.id},${small!.id}`, async (page, look) => {
      const chart = page.locator('figure[data-chart="compare-offload-bandwidth"]');
      await chart.locator(".recharts-bar-rectangle").first().waitFor({ timeout: 60_000 });
      await chart.scrollIntoViewIfNeeded();
      const { bars, labels, frame } = await barsAndLabels(chart);
      const where = `${look.width} ${look.scheme}`;
      await shot(chart, `compare-offload-bandwidth-${look.scheme}-${look.width}.png`);
      // Every bar drawn is at least MIN_BAR_PX long (they run sideways: their length is the width).
      expect(bars.length, where).toBeGreaterThanOrEqual(3);
      for (const b of bars)
        expect(
          Math.max(b.width, b.height) >= MIN_BAR_PX - 0.5 && Math.min(b.width, b.height) > 2,
          where,
        ).toBe(true);
      const shortest = Math.min(...bars.map((b) => b.width));
      expect(shortest, where).toBeGreaterThanOrEqual(MIN_BAR_PX - 0.5);
      // Both values written, each in its own unit.
      const texts = labels.map((l) => l.t);
      expect(
        texts.some((s) => /^\d+(\.\d+)? MB\/s$/.test(s)),
        `${where}: ${texts.join(" | ")}`,
      ).toBe(true);
      expect(
        texts.some((s) => /^9\.\d+ GB\/s$/.test(s)),
        `${where}: ${texts.join(" | ")}`,
      ).toBe(true);
      // No label on a bar, on another label, or outside the drawing.
      for (const l of labels) {
        for (const b of bars) expect(overlap(l.r, b), `${where}: "${l.t}" on a bar`).toBe(false);
        expect(
          l.r.left >= frame.left - 0.5 && l.r.right <= frame.right + 0.5,
          `${where}: "${l.t}" leaves the drawing`,
        ).toBe(true);
      }
      for (let i = 0; i < labels.length; i++)
        for (let j = i + 1; j < labels.length; j++)
          expect(overlap(labels[i].r, labels[j].r), `${where}: "${labels[i].t}" on "${labels[j].t}"`).toBe(
            false,
          );
      // Values spanning three decades: a log axis on offer.
      await chart.getByRole("group", { name: "value axis" }).getByRole("button", { name: "log" }).waitFor();
    });
  }, 600_000);

  it("run › Offload: each endpoint's bar has its value written beside it", async () => {
    const runs = await runsByName();
    const small = runs.find((r) => r.name === "vLLM · KV offload to CPU")!;
    const page = await t.browser.newPage({ viewport: { width: 390, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/runs/${small.id}?view=offload`);
    const chart = page.locator('figure[data-chart="endpoint-offload-gpuToCpu"]');
    await chart.locator(".recharts-bar-rectangle").first().waitFor({ timeout: 60_000 });
    const { bars, labels } = await barsAndLabels(chart);
    expect(bars.length).toBeGreaterThan(0);
    expect(labels.length).toBe(bars.length);
    for (const b of bars) expect(b.width).toBeGreaterThanOrEqual(MIN_BAR_PX - 0.5);
    expect(labels.every((l) => /\/s$/.test(l.t))).toBe(true);
    await page.close();
  }, 300_000);

  it("Breakdown › the headline bar: TTFT segments only fills it with the TTFT segments, and it has the log axis", async () => {
    const runs = await runsByName();
    const run = runs
      .filter((r) => r.kinds.includes("trtllm-perf-metrics"))
      .sort((a, b) => (b.requestCount ?? 0) - (a.requestCount ?? 0))[0];
    expect(run).toBeDefined();
    const page: Page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
    await gotoHydrated(page, `${t.app.url}/runs/${run!.id}?view=breakdown`);
    const segments = async (name: string) => {
      const chart = page.locator(`figure[data-chart="${name}"]`);
      await chart.locator(".recharts-bar-rectangle").first().waitFor({ timeout: 60_000 });
      return chart.evaluate((fig) => {
        const plot = fig.querySelector(".recharts-cartesian-grid")!.getBoundingClientRect();
        const bands = [...fig.querySelectorAll(".recharts-bar-rectangle path")].map((p) => ({
          decode: p.getAttribute("fill") === "var(--seg-decode)",
          width: p.getBoundingClientRect().width,
        }));
        return { plotWidth: plot.width, bands };
      });
    };
    const all = await segments("time-breakdown-p50");
    const ttftOfAll = all.bands.filter((b) => !b.decode).reduce((s, b) => s + b.width, 0);
    // Decode is most of the bar: the TTFT segments share a sliver.
    expect(ttftOfAll).toBeLessThan(0.5 * all.plotWidth);
    const headline = page.locator('figure[data-chart="time-breakdown-p50"]');
    await headline
      .getByRole("group", { name: "segments shown" })
      .getByRole("button", { name: "TTFT segments only" })
      .click();
    await page.waitForURL(/segments=ttft/);
    const ttft = await segments("time-breakdown-ttft-p50");
    expect(ttft.bands.some((b) => b.decode)).toBe(false);
    await shot(page.locator('figure[data-chart="time-breakdown-ttft-p50"]'), "headline-ttft.png");
    const ttftWidth = ttft.bands.reduce((s, b) => s + b.width, 0);
    // The TTFT segments now fill the bar: several times the room they had beside decode.
    expect(ttftWidth).toBeGreaterThan(0.8 * ttft.plotWidth);
    expect(ttftWidth).toBeGreaterThan(3 * ttftOfAll);
    // The same time-axis control as the per-request stacks (one URL parameter).
    const ttftHeadline = page.locator('figure[data-chart="time-breakdown-ttft-p50"]');
    await ttftHeadline.getByRole("group", { name: "time axis" }).getByRole("button", { name: "log" }).click();
    await page.waitForURL(/scale=log/);
    const log = await segments("time-breakdown-ttft-log-p50");
    await shot(page.locator('figure[data-chart="time-breakdown-ttft-log-p50"]'), "headline-ttft-log.png");
    // On the log axis, from the power of ten below the first band's end, every band is drawn and
    // the first ones (a fraction of a millisecond) open up.
    expect(log.bands.length).toBe(ttft.bands.length);
    expect(log.bands[0].width).toBeGreaterThan(ttft.bands[0].width);
    await page.close();
  }, 300_000);
});
