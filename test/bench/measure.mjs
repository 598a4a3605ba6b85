// Read-side measurements: summary GET latency, chart payload sizes, first chart in Chromium.
import path from "node:path";
import SQLite from "better-sqlite3";
import { chromium } from "playwright-core";
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

const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];

async function timeToChart(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  try {
    const page = await context.newPage();
    const t0 = performance.now();
    await page.goto(url);
    await page.waitForSelector(".recharts-surface", { timeout: 30_000 });
    return performance.now() - t0;
  } catch {
    return null;
  } finally {
    await context.close();
  }
}

/**
 * Milliseconds from navigation start until a Recharts surface is in the run page view (null:
 * none within 30 s): `coldMs` is the first visit (empty browser cache, the server's first render
 * of the run), `warmMs` a second visit in a fresh browser context (server warm, browser cold).
 */
export async function firstChartMs(baseUrl, runId, view) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
    args: CHROMIUM_ARGS,
    headless: true,
  });
  try {
    const url = `${baseUrl}/runs/${runId}?view=${view}`;
    const coldMs = await timeToChart(browser, url);
    const warmMs = await timeToChart(browser, url);
    return { coldMs, warmMs };
  } finally {
    await browser.close();
  }
}
