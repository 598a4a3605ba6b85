/**
 * The browser tests' "fits at 1440 and 390 px" check (test/e2e/harness.ts), in Chromium on pages
 * made for it: a chart that re-lays itself out a few frames after a resize (its container's
 * ResizeObserver, then a render) is judged once it has, not while it is still as wide as before
 * (the Overview's chart once failed so at 390 px under load and passed alone); an element that
 * really runs over still fails, saying what runs over and by how many px.
 */
import fs from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectFitsEachLook, fitFailure, settledFit } from "../e2e/harness";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../helpers/next-server.mjs";

const HAVE_CHROMIUM = fs.existsSync(CHROMIUM_PATH);
if (!HAVE_CHROMIUM) console.log(`fits-each-look: skipped, no Chromium at ${CHROMIUM_PATH}`);

/** Frames between the container's resize and the chart starting to follow it. */
const LATE_FRAMES = 4;
/** Frames the chart then takes to reach its new width, a step each. */
const STEP_FRAMES = 24;

/**
 * A chart as wide as its container, which follows a resize LATE_FRAMES frames later, a step a frame
 * over STEP_FRAMES frames (a render, then a transition): measured as soon as the viewport has its new
 * width, it is still wider than a phone.
 */
const LATE_CHART = `<!doctype html><html><head><style>
  body { margin: 0 }
  #chart { overflow-x: auto }
  #plot { height: 60px; background: #68a }
</style></head><body>
<div id="chart"><div id="plot" style="width: 1440px"></div></div>
<script>
  const chart = document.getElementById("chart");
  const plot = document.getElementById("plot");
  let target = 0;
  new ResizeObserver(() => {
    if (chart.clientWidth === target) return;
    target = chart.clientWidth;
    const aim = target;
    const from = plot.offsetWidth;
    let frames = 0;
    const step = () => {
      if (aim !== target) return;
      frames++;
      const k = Math.min(1, Math.max(0, frames - ${LATE_FRAMES}) / ${STEP_FRAMES});
      plot.style.width = Math.round(from + (aim - from) * k) + "px";
      if (k < 1) requestAnimationFrame(step);
      else plot.dataset.width = String(aim);
    };
    requestAnimationFrame(step);
  }).observe(chart);
</script>
</body></html>`;

/** A box with a 500 px wide table in it: it runs off a 390 px screen however long one waits. */
const WIDE_TABLE = `<!doctype html><html><head><style>
  body { margin: 0 }
  #panel { overflow-x: auto }
</style></head><body>
<section id="panel"><p>Collectors</p><table id="wide" style="width: 500px"><tr><td>a</td></tr></table></section>
</body></html>`;

describe.skipIf(!HAVE_CHROMIUM)("the check that a view fits at 1440 and 390 px", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  });
  afterAll(async () => browser?.close());

  async function open(html: string): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.setContent(html);
    return page;
  }

  it("judges a chart that re-lays itself out a few frames after a resize once it has", async () => {
    const page = await open(LATE_CHART);
    // Laid out for 1440 px before the check starts, as a hydrated page's chart is.
    await expect
      .poll(() => page.locator("#plot").getAttribute("data-width"), { timeout: 30_000 })
      .toBe("1440");
    await expectFitsEachLook(page, page.locator("#chart"), "late-chart");
    const fit = await settledFit(page.locator("#chart"), 390);
    expect(fit).toMatchObject({ fits: true, settled: true, overScroll: 0, over: [] });
    expect(await page.locator("#plot").getAttribute("data-width")).toBe("390");
    await page.close();
  });

  it("still fails on what really runs over, naming it and by how many px", async () => {
    const page = await open(WIDE_TABLE);
    const panel = page.locator("#panel");
    await page.setViewportSize({ width: 390, height: 900 });
    const fit = await settledFit(panel, 390);
    expect(fit).toMatchObject({ fits: false, settled: true, overScroll: 110, overViewport: 0 });
    expect(fit.over).toEqual([{ what: 'table#wide "a"', px: 110 }]);
    expect(fitFailure(fit)).toBe('its content is 110 px wider than its box; table#wide "a" runs 110 px over');
    await page.setViewportSize({ width: 1440, height: 900 });
    await expect(expectFitsEachLook(page, panel, "wide-table")).rejects.toThrow(
      /wide-table fits at 390 px, light: its content is 110 px wider than its box; table#wide "a" runs 110 px over/,
    );
    await page.close();
  });
});
