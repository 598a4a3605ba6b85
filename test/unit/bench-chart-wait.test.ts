/**
 * The page bench's wait after a click (test/bench/chart-wait.mjs), in Chromium on a page made for
 * it: a tab switch is timed to a chart of the new view, not to the Overview's chart still in the
 * panel at the click; a toggle to the chart below its row showing something else, not to the old
 * chart, the chart marked pending, nor another figure above the row; a toggle in a figure's caption
 * to that figure, not the one after it. Before, both were timed to a
 * chart already on the page: −9 ms tab switches and −14 … 10 ms toggles.
 */
import fs from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installWaiter, timedClick } from "../bench/chart-wait.mjs";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../helpers/next-server.mjs";

const HAVE_CHROMIUM = fs.existsSync(CHROMIUM_PATH);
if (!HAVE_CHROMIUM) console.log(`bench-chart-wait: skipped, no Chromium at ${CHROMIUM_PATH}`);

const DELAY_MS = 300;
/** A frame's time is when it began, up to a frame (16.7 ms) before the change it paints. */
const AFTER_MS = DELAY_MS - 20;

/** A Recharts-like chart: the wrapper and surface the bench looks for, `marks` inside. */
const chart = (name: string, title: string, marks: string) =>
  `<figure data-chart="${name}"><h3>${title}</h3><div class="recharts-wrapper"><svg class="recharts-surface" width="200" height="100">${marks}</svg></div></figure>`;

const PAGE = `<!doctype html><html><body>
<div role="tablist"><button role="tab" data-view="overview">Overview</button><button role="tab" id="latency-tab" data-view="latency">Latency</button></div>
<div id="run-view-panel" role="tabpanel" aria-labelledby="run-view-tab-overview">
  ${chart("overview-ttft", "TTFT distribution", '<rect width="10" height="10"/>')}
  <div role="group" aria-label="metric"><button id="itl">ITL</button><button id="same">TTFT</button></div>
  <div id="below">${chart("latency-histogram", "TTFT distribution", '<rect width="20" height="10"/>')}</div>
  <figure data-chart="segment-stats" id="captioned"><figcaption><h3>Segments (mean)</h3>
    <div role="group" aria-label="statistic"><button id="p50">p50</button><button>mean</button></div></figcaption>
    <div class="recharts-wrapper"><svg class="recharts-surface" width="200" height="100"><rect width="30" height="10"/></svg></div></figure>
  ${chart("segment-share", "Share of E2E by segment", '<rect width="50" height="10"/>')}
</div>
<script>
  const panel = document.getElementById("run-view-panel");
  // The view's code loads, then it replaces the Overview's chart.
  document.getElementById("latency-tab").onclick = () =>
    setTimeout(() => {
      panel.setAttribute("aria-labelledby", "run-view-tab-latency");
      panel.querySelector('[data-chart="overview-ttft"]').outerHTML = ${JSON.stringify(chart("latency-cdf", "TTFT CDF", '<path d="M0 0H5"/>'))};
    }, ${DELAY_MS});
  // The chart below is marked pending at once, redrawn in place later (same element, same title).
  document.getElementById("itl").onclick = () => {
    const fig = document.querySelector("#below figure");
    fig.setAttribute("data-pending", "");
    setTimeout(() => {
      fig.querySelector("svg").innerHTML = '<rect width="40" height="10"/>';
      fig.removeAttribute("data-pending");
    }, ${DELAY_MS});
  };
  // A toggle in its own figure's caption: that figure is redrawn, the one after it is not.
  document.getElementById("p50").onclick = () => {
    const fig = document.getElementById("captioned");
    setTimeout(() => {
      fig.querySelector("h3").textContent = "Segments (p50)";
      fig.querySelector("svg").innerHTML = '<rect width="35" height="10"/>';
    }, ${DELAY_MS});
  };
</script>
</body></html>`;

describe.skipIf(!HAVE_CHROMIUM)("the page bench's wait for the chart a click brings", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  });
  afterAll(async () => browser?.close());

  async function page(): Promise<Page> {
    const p = await browser.newPage();
    await p.setContent(PAGE);
    await p.evaluate(installWaiter);
    return p;
  }

  it("times a tab switch to the new view's chart, not the Overview's still in the panel", async () => {
    const p = await page();
    const r = await timedClick(p, "#latency-tab", {
      tab: { panel: "#run-view-panel", labelledBy: "run-view-tab-latency" },
    });
    expect(r.ms).not.toBeNull();
    expect(r.ms!).toBeGreaterThanOrEqual(AFTER_MS);
    expect(r.by).toBe("recharts");
    await p.close();
  });

  it("times a toggle to the chart below its row redrawn, past its pending mark, not to the figure above", async () => {
    const p = await page();
    const r = await timedClick(p, "#itl", { toggle: { panel: "#run-view-panel", group: "metric" } });
    expect(r.ms).not.toBeNull();
    expect(r.ms!).toBeGreaterThanOrEqual(AFTER_MS);
    // The pending mark showed at the click.
    expect(r.pendingMs).not.toBeNull();
    expect(r.pendingMs!).toBeLessThan(DELAY_MS);
    await p.close();
  });

  it("times a toggle in a figure's caption to that figure redrawn, not to the figure after it", async () => {
    const p = await page();
    await p.evaluate(() => {
      // @ts-expect-error the page's own wait, shortened for the test
      const wait = window.__runlensWait;
      // @ts-expect-error as above
      window.__runlensWait = (s: unknown) => wait(s, 3_000);
    });
    const r = await timedClick(p, "#p50", { toggle: { panel: "#run-view-panel", group: "statistic" } });
    expect(r.ms).not.toBeNull();
    expect(r.ms!).toBeGreaterThanOrEqual(AFTER_MS);
    expect(r.by).toBe("recharts");
    await p.close();
  });

  it("says no chart came (null) when a click changes nothing, rather than timing the old one", async () => {
    const p = await page();
    await p.evaluate(() => {
      // @ts-expect-error the page's own wait, shortened for the test
      const wait = window.__runlensWait;
      // @ts-expect-error as above
      window.__runlensWait = (s: unknown) => wait(s, 600);
    });
    const r = await timedClick(p, "#same", { toggle: { panel: "#run-view-panel", group: "metric" } });
    expect(r.ms).toBeNull();
    await p.close();
  });
});
