// Interaction latency in headless Chromium: the Event Timing API's duration of each interaction
// (from the input to the next paint, what INP is made of), for the run page controls that redraw
// the most: the breakdown statistic and sort toggles and the switch to the Latency tab.
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../helpers/next-server.mjs";
import { percentile } from "./measure.mjs";

/**
 * Runs in the page before its scripts: keeps every event-timing entry that belongs to an
 * interaction. 16 ms is the lowest threshold the API allows; an interaction faster than that
 * leaves no entry.
 */
function observeInteractions() {
  window.__runlensEvents = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if (e.interactionId) window.__runlensEvents.push({ id: e.interactionId, ms: e.duration });
  }).observe({ type: "event", durationThreshold: 16, buffered: true });
}

/** Resolves once the page has painted twice more and its observers have had a turn. */
function settled(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 150))),
      ),
  );
}

/**
 * Clicks `selector`, waits for `done` (the page shows the outcome), and returns the interaction's
 * latency: the longest event entry of the click (pointerdown, pointerup, click share one
 * interaction id). No entry means it responded within 16 ms, counted as 16.
 */
async function timedClick(page, selector, done) {
  await page.evaluate(() => (window.__runlensEvents = []));
  await page.click(selector);
  await page.waitForFunction(done.fn, done.arg, { timeout: 60_000, polling: 50 });
  await settled(page);
  const events = await page.evaluate(() => window.__runlensEvents);
  return events.reduce((a, e) => Math.max(a, e.ms), 16);
}

const summary = (times) => {
  const sorted = [...times].sort((a, b) => a - b);
  return { count: sorted.length, p75Ms: percentile(sorted, 75), maxMs: sorted[sorted.length - 1] ?? null };
};

/** The per-request chart once drawn: an SVG surface, or the canvas layer of a dense chart. */
const PER_REQUEST_DRAWN =
  '[data-chart="per-request-breakdown"] :is(.recharts-wrapper > svg.recharts-surface, canvas)';
const LATENCY_OVER_TIME_DRAWN =
  '[data-chart="latency-over-time"] :is(.recharts-wrapper > svg.recharts-surface, canvas)';

const pressed = (group, text) => `[role="group"][aria-label="${group}"] button:text-is("${text}")`;

/** The statistic toggle of the breakdown (mean → p50 → p90 → p99, `rounds` times) and its sort toggle. */
async function breakdownToggles(browser, baseUrl, runId, rounds) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  try {
    await context.addInitScript(observeInteractions);
    const page = await context.newPage();
    await page.goto(`${baseUrl}/runs/${runId}?view=breakdown`);
    // The per-request chart is the heavy one: wait until it is drawn before toggling.
    await page.waitForSelector(PER_REQUEST_DRAWN, { timeout: 60_000 });
    await settled(page);
    const stat = [];
    for (let r = 0; r < rounds; r++)
      for (const s of ["mean", "p90", "p99", "p50"])
        stat.push(
          await timedClick(page, pressed("statistic", s), {
            fn: (want) => document.querySelector('[data-chart^="time-breakdown-"]')?.dataset.chart === want,
            arg: `time-breakdown-${s}`,
          }),
        );
    const sort = [];
    for (let r = 0; r < rounds; r++)
      for (const s of ["end to end", "TTFT"])
        sort.push(
          await timedClick(page, pressed("sort requests by", s), {
            fn: ([text, drawn]) =>
              [...document.querySelectorAll('[aria-label="sort requests by"] button')].some(
                (b) => b.textContent === text && b.getAttribute("aria-pressed") === "true",
              ) && document.querySelector(drawn) !== null,
            arg: [s, PER_REQUEST_DRAWN],
          }),
        );
    return { stat: summary(stat), sort: summary(sort) };
  } finally {
    await context.close();
  }
}

/** Overview → Latency tab `rounds` times; each switch is timed until the latency histogram is drawn. */
async function latencyTabSwitch(browser, baseUrl, runId, rounds) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  try {
    await context.addInitScript(observeInteractions);
    const page = await context.newPage();
    await page.goto(`${baseUrl}/runs/${runId}?view=overview`);
    await page.waitForSelector('[role="tab"][data-view="latency"]', { timeout: 60_000 });
    await settled(page);
    const times = [];
    for (let r = 0; r < rounds; r++) {
      times.push(
        await timedClick(page, '[role="tab"][data-view="latency"]', {
          fn: (drawn) => document.querySelector(drawn) !== null,
          arg: LATENCY_OVER_TIME_DRAWN,
        }),
      );
      await page.click('[role="tab"][data-view="overview"]');
      // The Overview draws the latency histogram too: the Latency view is gone once its
      // over-time chart is.
      await page.waitForFunction(() => !document.querySelector('[data-chart="latency-over-time"]'));
      await settled(page);
    }
    return summary(times);
  } finally {
    await context.close();
  }
}

/**
 * p75 and max interaction latency (ms) of each control, `rounds` rounds each; null for a control
 * the run does not have (or that failed, with the reason in `error`).
 */
export async function interactionLatency(baseUrl, { trtllmRunId, aiperfRunId }, { rounds = 3 } = {}) {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  const out = { rounds, breakdownStat: null, breakdownSort: null, latencyTab: null, errors: [] };
  try {
    if (trtllmRunId) {
      try {
        const b = await breakdownToggles(browser, baseUrl, trtllmRunId, rounds);
        out.breakdownStat = b.stat;
        out.breakdownSort = b.sort;
      } catch (err) {
        out.errors.push(`breakdown: ${err.message.split("\n")[0]}`);
      }
    }
    if (aiperfRunId) {
      try {
        out.latencyTab = await latencyTabSwitch(browser, baseUrl, aiperfRunId, rounds);
      } catch (err) {
        out.errors.push(`latency tab: ${err.message.split("\n")[0]}`);
      }
    }
  } finally {
    await browser.close();
  }
  return out;
}
