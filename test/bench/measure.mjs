// Read-side measurements: summary GET latency, chart payload sizes, first chart in Chromium.
import path from "node:path";
import SQLite from "better-sqlite3";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../helpers/next-server.mjs";
import { pgChartKeys } from "./pg.mjs";

/** numpy's default (linear) percentile on an ascending array. */
export function percentile(sorted, q) {
  if (sorted.length === 0) return null;
  const rank = (q / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}

export async function summaryLatency(baseUrl, runId, count) {
  const times = [];
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    const res = await fetch(`${baseUrl}/api/runs/${runId}`);
    const body = await res.arrayBuffer();
    times.push(performance.now() - t0);
    if (!res.ok) throw new Error(`summary GET ${res.status}`);
    bytes = body.byteLength;
  }
  times.sort((a, b) => a - b);
  return { p50Ms: percentile(times, 50), p99Ms: percentile(times, 99), bytes };
}

/** An instant of the run GET as epoch ms (a number as stored, or an ISO string); null when absent. */
function instantMs(v) {
  if (typeof v === "number" && Number.isFinite(v)) return v;
  if (typeof v === "string" && !Number.isNaN(Date.parse(v))) return Date.parse(v);
  return null;
}

/**
 * Seconds from the upload's start to "summary ready" and "drill-down ready", from the run GET's
 * `summaryReadyAt` and `drilldownReadyAt` (epoch ms or ISO). A field the server does not send is
 * null (printed "—"); one it sends as null is polled until it is set or `waitMs` has passed.
 */
export async function readyTimes(baseUrl, runId, startedAt, { waitMs = 300_000, everyMs = 250 } = {}) {
  const until = Date.now() + waitMs;
  for (;;) {
    const res = await fetch(`${baseUrl}/api/runs/${runId}`);
    if (!res.ok) throw new Error(`summary GET ${res.status}`);
    const run = await res.json();
    const summary = instantMs(run.summaryReadyAt);
    const drilldown = instantMs(run.drilldownReadyAt);
    const pending = "drilldownReadyAt" in run && drilldown === null;
    if (!pending || Date.now() > until)
      return {
        summaryReadySeconds: summary === null ? null : (summary - startedAt) / 1000,
        drilldownReadySeconds: drilldown === null ? null : (drilldown - startedAt) / 1000,
      };
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The longest array anywhere in a payload: a chart's largest series. */
export function largestArray(value) {
  if (Array.isArray(value)) return Math.max(value.length, ...value.map(largestArray));
  if (value && typeof value === "object") return Math.max(0, ...Object.values(value).map(largestArray));
  return 0;
}

async function chartKeys(runId, { store, dataDir, databaseUrl }) {
  if (store === "postgres") return pgChartKeys(databaseUrl, runId);
  const db = new SQLite(path.join(dataDir, "runlens.sqlite"), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare("select key from chart_data where run_id = ? order by key")
      .all(runId)
      .map((r) => r.key);
  } finally {
    db.close();
  }
}

export async function chartSizes(baseUrl, runId, storeInfo) {
  const out = [];
  for (const key of await chartKeys(runId, storeInfo)) {
    const t0 = performance.now();
    const res = await fetch(`${baseUrl}/api/runs/${runId}/charts/${encodeURIComponent(key)}`);
    const text = await res.text();
    const ms = performance.now() - t0;
    out.push({
      key,
      status: res.status,
      bytes: Buffer.byteLength(text),
      largestSeries: largestArray(JSON.parse(text)),
      ms,
    });
  }
  return out;
}

/**
 * Runs in the page before its scripts: notes the first chart to enter the DOM, a Recharts surface
 * or the drawing the server sent in the HTML (`svg[data-first-figure]`, lib/runs/first-figures.ts),
 * which chart (`data-chart` of its ChartContainer) it belongs to, who drew it (`by`: "server" or
 * "recharts"), and the frame that paints it (the next animation frame), on the page's clock
 * (milliseconds from navigation start).
 */
export function recordFirstChart() {
  const note = () => {
    // Not one still in a hidden streamed segment (React moves it into place with an inline script).
    const svg = [...document.querySelectorAll(".recharts-surface, svg[data-first-figure]")].find(
      (el) => !el.closest("[hidden]"),
    );
    if (!svg) return false;
    const first = {
      domMs: performance.now(),
      chart: svg.closest("[data-chart]")?.getAttribute("data-chart") ?? null,
      by: svg.hasAttribute("data-first-figure") ? "server" : "recharts",
    };
    window.__runlensFirstChart = first;
    requestAnimationFrame((frameMs) => (first.frameMs = frameMs));
    return true;
  };
  new MutationObserver((_, observer) => {
    if (note()) observer.disconnect();
  }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ["hidden"] });
}

/**
 * The page's own clock, not the test driver's: the driver only learns of the chart when the
 * page's main thread lets it look, which heavy rendering after the first chart (a second chart,
 * a table) can delay by seconds.
 */
async function timeToChart(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  try {
    await context.addInitScript(recordFirstChart);
    const page = await context.newPage();
    const t0 = performance.now();
    await page.goto(url);
    await page.waitForFunction(() => window.__runlensFirstChart?.frameMs !== undefined, null, {
      timeout: 30_000,
      polling: 100,
    });
    const driverMs = performance.now() - t0;
    const first = await page.evaluate(() => window.__runlensFirstChart);
    // Script the page received by its first chart: bytes on the wire (compressed) and decoded.
    const script = await page.evaluate(() => {
      let received = 0;
      let decoded = 0;
      for (const e of performance.getEntriesByType("resource")) {
        if (e.initiatorType !== "script") continue;
        received += e.encodedBodySize;
        decoded += e.decodedBodySize;
      }
      return { received, decoded };
    });
    return { ms: first.frameMs, chart: first.chart, by: first.by, driverMs, script };
  } catch {
    return { ms: null, chart: null, by: null, driverMs: null, script: null };
  } finally {
    await context.close();
  }
}

/**
 * Milliseconds from navigation start to the frame that paints the first chart of the run page
 * view, the server's drawing or a Recharts surface (null: none within 30 s): `coldMs` is the first visit (empty browser cache, the
 * server's first render of the run), `warmMs` a second visit in a fresh browser context (server
 * warm, browser cold). `coldChart`/`warmChart` name the chart drawn first (its `data-chart`);
 * `*DriverMs` is when the test driver saw it (what earlier reports called the first chart).
 */
export async function firstChartMs(baseUrl, runId, view) {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  try {
    const url = `${baseUrl}/runs/${runId}?view=${view}`;
    const cold = await timeToChart(browser, url);
    const warm = await timeToChart(browser, url);
    return {
      view,
      coldMs: cold.ms,
      warmMs: warm.ms,
      coldChart: cold.chart,
      warmChart: warm.chart,
      coldDrawnBy: cold.by,
      coldDriverMs: cold.driverMs,
      warmDriverMs: warm.driverMs,
      scriptKB: cold.script ? cold.script.received / 1024 : null,
      scriptDecodedKB: cold.script ? cold.script.decoded / 1024 : null,
    };
  } finally {
    await browser.close();
  }
}

/** p50/p99/max of a list of milliseconds, and how many requests were answered. */
function latencyStats(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted.length ? sorted[sorted.length - 1] : null,
  };
}

/**
 * Read latency under load: while `upload()` runs, `concurrency` clients per path keep issuing
 * GET /api/runs/{runId} (a summary read that goes to the store) and GET /api/health (the
 * shortest route there is), each sending its next request once the last one is answered. A
 * stalled event loop in the server shows up as the max; a store held by the ingest as the p99.
 */
export async function readsDuringUpload(baseUrl, runId, upload, { concurrency = 4 } = {}) {
  const paths = { summary: `/api/runs/${runId}`, health: "/api/health" };
  const times = { summary: [], health: [] };
  let uploading = true;
  let failures = 0;
  const client = async (which) => {
    while (uploading) {
      const t0 = performance.now();
      try {
        const res = await fetch(`${baseUrl}${paths[which]}`);
        await res.arrayBuffer();
        if (res.ok) times[which].push(performance.now() - t0);
        else failures++;
      } catch {
        failures++;
      }
    }
  };
  const clients = [];
  for (let i = 0; i < concurrency; i++) clients.push(client("summary"), client("health"));
  let result;
  try {
    result = await upload();
  } finally {
    uploading = false;
    await Promise.all(clients);
  }
  return {
    upload: result,
    concurrency,
    failures,
    summary: latencyStats(times.summary),
    health: latencyStats(times.health),
  };
}
