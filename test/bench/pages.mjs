#!/usr/bin/env node
// Page speed of every example run in headless Chromium, on the page's own clock:
//   - first chart: a cold visit (fresh browser context, no HTTP cache) to the run's chart view
//     (its first enabled tab after the Overview that draws a chart), to the frame that paints the
//     first chart, the drawing the server sent in the HTML or the first Recharts surface
//     (measure.mjs); the script received by then (compressed bytes on the wire);
//   - tab switch: Overview → that view, not yet loaded in the page, click to the frame that paints
//     a chart of that view, one not on the page before the click (chart-wait.mjs);
//   - toggle: each button of the view's first toggle row, click to the frame that paints the
//     chart below the row showing another chart than before the click, with the pending mark
//     gone (and when the pending mark first showed).
// Median of `--repeat` (3) cold tries each. The build in RUNLENS_DIST_DIR (default .next) is
// started on a fresh DATA_DIR, where the example runs seed themselves. `--dist a,b` starts one
// server per build and alternates between them try by try (an A/B on a shared, loaded machine).
//
//   RUNLENS_DIST_DIR=.next-x node test/bench/pages.mjs [--repeat 3] [--runs 'name part|name part'] [--dist a,b]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH, freePort, startNextServer } from "../helpers/next-server.mjs";
import { installWaiter, timedClick } from "./chart-wait.mjs";
import { percentile, recordFirstChart } from "./measure.mjs";

const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? argv[i + 1] : dflt;
};
const repeat = Number(opt("repeat", "3"));
/** Runs whose name contains one of these ("|"-separated); all when empty. */
const only = opt("runs", "").split("|");
const distDirs = opt("dist", process.env.RUNLENS_DIST_DIR || ".next").split(",");
const PANEL = "#run-view-panel";
/** A chart as drawn: a Recharts surface, a canvas of dense marks, or the server's drawing. */
const DRAWN = ":is(.recharts-wrapper > svg.recharts-surface, canvas, svg[data-first-figure])";

const median = (xs) => {
  const v = xs.filter((x) => typeof x === "number").sort((a, b) => a - b);
  return v.length ? percentile(v, 50) : null;
};

async function readyRuns(url) {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const { runs } = await (await fetch(`${url}/api/runs?limit=200`)).json();
    if (runs.length > 0 && runs.every((r) => r.status !== "ingesting")) return runs;
    if (Date.now() > deadline) throw new Error("the example runs did not finish seeding");
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function newPage(browser) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  await context.addInitScript(recordFirstChart);
  await context.addInitScript(installWaiter);
  return { context, page: await context.newPage() };
}

/**
 * The run's chart view: its first enabled tab after the Overview, not Files, that draws a chart
 * (a view of one request draws its latency as a table: "a distribution needs more than one").
 */
async function chartView(browser, url, run) {
  const { context, page } = await newPage(browser);
  try {
    await page.goto(`${url}/runs/${run.id}`);
    await page.getByRole("tablist").waitFor();
    const tabs = await page.$$eval("[role=tab][data-view]", (ts) =>
      ts.map((t) => ({ id: t.dataset.view, enabled: t.getAttribute("aria-disabled") !== "true" })),
    );
    for (const t of tabs) {
      if (!t.enabled || t.id === "overview" || t.id === "files") continue;
      await page.goto(`${url}/runs/${run.id}?view=${t.id}`);
      await hydrated(page);
      await page.waitForLoadState("networkidle");
      const drawn = await page
        .waitForSelector(`${PANEL} ${DRAWN}`, { timeout: 20_000 })
        .then(() => true)
        .catch(() => false);
      if (drawn) return t.id;
      console.error(`${run.name}: the ${t.id} view draws no chart; the next enabled view is measured`);
    }
    return null;
  } finally {
    await context.close();
  }
}

/** The page has hydrated (app/providers.tsx marks it): a click is handled. */
const hydrated = (page) =>
  page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 30_000 });

async function coldFirstChart(browser, url) {
  const { context, page } = await newPage(browser);
  try {
    await page.goto(url);
    await page.waitForFunction(() => window.__runlensFirstChart?.frameMs !== undefined, null, {
      timeout: 30_000,
      polling: 50,
    });
    return await page.evaluate(() => {
      let received = 0;
      for (const e of performance.getEntriesByType("resource"))
        if (e.initiatorType === "script") received += e.encodedBodySize;
      const fcp = performance.getEntriesByName("first-contentful-paint")[0]?.startTime ?? null;
      return {
        ms: window.__runlensFirstChart.frameMs,
        chart: window.__runlensFirstChart.chart,
        by: window.__runlensFirstChart.by,
        fcp,
        kb: received / 1024,
      };
    });
  } catch {
    return { ms: null, chart: null, by: null, fcp: null, kb: null };
  } finally {
    await context.close();
  }
}

const settle = (page) =>
  page.evaluate(
    () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 300)))),
  );

async function tabSwitch(browser, url, run, view) {
  const { context, page } = await newPage(browser);
  try {
    await page.goto(`${url}/runs/${run.id}`);
    await page.getByRole("tablist").waitFor();
    await hydrated(page);
    await page.waitForLoadState("networkidle");
    await settle(page);
    return await timedClick(page, `[role=tab][data-view="${view}"]`, {
      tab: { panel: PANEL, labelledBy: `run-view-tab-${view}` },
    });
  } catch {
    return { ms: null, pendingMs: null, by: null };
  } finally {
    await context.close();
  }
}

/** Every button of the view's first toggle group (the latency metric, the breakdown statistic…), each clicked in turn. */
async function toggles(browser, url, run, view) {
  const { context, page } = await newPage(browser);
  const out = [];
  try {
    await page.goto(`${url}/runs/${run.id}?view=${view}`);
    await hydrated(page);
    // The charts the library draws (the server's drawing stands in until then).
    await page.waitForSelector(`${PANEL} :is(.recharts-wrapper > svg.recharts-surface, canvas)`, {
      timeout: 30_000,
    });
    await page.waitForLoadState("networkidle");
    await settle(page);
    const groups = await page.$$eval('#run-view-panel [role="group"][aria-label]', (gs) =>
      gs.map((g) => ({
        label: g.getAttribute("aria-label"),
        buttons: [...g.querySelectorAll("button")].map((b) => ({
          text: b.textContent,
          pressed: b.getAttribute("aria-pressed") === "true",
        })),
      })),
    );
    const group = groups.find((g) => g.buttons.length > 1);
    if (!group) return [];
    const order = [...group.buttons.filter((b) => !b.pressed), ...group.buttons.filter((b) => b.pressed)];
    for (const b of order) {
      const sel = `#run-view-panel [role="group"][aria-label="${group.label}"] button:nth-child(${group.buttons.findIndex((x) => x.text === b.text) + 1})`;
      // The chart the group changes: the figure whose caption holds it, else the first after it.
      const r = await timedClick(page, sel, { toggle: { panel: PANEL, group: group.label } });
      out.push({ label: `${group.label}=${b.text}`, ...r });
      await settle(page);
    }
  } catch (err) {
    out.push({ label: `error ${err.message.split("\n")[0]}`, ms: null, pendingMs: null });
  } finally {
    await context.close();
  }
  return out;
}

/** The example runs of a fresh server on `distDir`, once seeded, by name. */
async function startApp(distDir) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-pages-"));
  const server = await startNextServer({
    port: await freePort(),
    env: { DATA_DIR: dataDir, RUNLENS_EXAMPLES: "on", DATABASE_URL: "", RUNLENS_DIST_DIR: distDir },
  });
  const runs = (await readyRuns(server.url)).filter(
    (r) => r.status === "ready" && only.some((o) => r.name.includes(o)),
  );
  // One visit of every page first, so the server's own first render is not measured.
  for (const run of runs) await fetch(`${server.url}/runs/${run.id}`).then((r) => r.text());
  return { distDir, url: server.url, runs: new Map(runs.map((r) => [r.name, r])), server, dataDir };
}

/** Each app's figures for one run, the tries alternating between apps. */
async function measureRun(browser, apps, name) {
  const byApp = apps.map(() => ({ cold: [], tabs: [] }));
  const view = await chartView(browser, apps[0].url, apps[0].runs.get(name));
  if (!view) return null;
  for (const app of apps)
    await fetch(`${app.url}/runs/${app.runs.get(name).id}?view=${view}`).then((r) => r.text());
  for (let i = 0; i < repeat; i++)
    for (const [k, app] of apps.entries())
      byApp[k].cold.push(
        await coldFirstChart(browser, `${app.url}/runs/${app.runs.get(name).id}?view=${view}`),
      );
  for (let i = 0; i < repeat; i++)
    for (const [k, app] of apps.entries())
      byApp[k].tabs.push(await tabSwitch(browser, app.url, app.runs.get(name), view));
  const rows = [];
  for (const [k, app] of apps.entries()) {
    const tg = await toggles(browser, app.url, app.runs.get(name), view);
    const { cold, tabs } = byApp[k];
    rows.push({
      build: app.distDir,
      run: name,
      view,
      firstChartMs: median(cold.map((c) => c.ms)),
      firstChartAll: cold.map((c) => (c.ms === null ? null : Math.round(c.ms))),
      fcpMs: median(cold.map((c) => c.fcp)),
      chart: cold[0]?.chart,
      drawnBy: cold[0]?.by,
      scriptKB: median(cold.map((c) => c.kb)),
      tabSwitchMs: median(tabs.map((t) => t.ms)),
      tabSwitchAll: tabs.map((t) => (t.ms === null ? null : Math.round(t.ms))),
      tabSwitchDrawnBy: tabs[0]?.by ?? null,
      toggles: tg.map((t) => ({
        label: t.label,
        ms: t.ms === null ? null : Math.round(t.ms),
        pendingMs: t.pendingMs === null ? null : Math.round(t.pendingMs),
      })),
    });
  }
  return rows;
}

async function main() {
  const apps = [];
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  const rows = [];
  const loads = [os.loadavg()[0]];
  try {
    for (const d of distDirs) apps.push(await startApp(d));
    for (const name of apps[0].runs.keys()) {
      if (!apps.every((a) => a.runs.has(name))) continue;
      const measured = await measureRun(browser, apps, name);
      loads.push(os.loadavg()[0]);
      for (const row of measured ?? []) {
        rows.push(row);
        console.log(JSON.stringify(row));
      }
    }
  } finally {
    await browser.close();
    for (const app of apps) {
      await app.server.stop();
      fs.rmSync(app.dataDir, { recursive: true, force: true });
    }
  }
  const fmt = (v) => (v === null || v === undefined ? "—" : String(Math.round(v)));
  const worst = (xs) => (xs.some((x) => x !== null) ? Math.max(...xs.filter((x) => x !== null)) : null);
  console.log(
    `\n1-min load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} on ${os.cpus().length} cores · median of ${repeat} cold tries`,
  );
  console.log(
    [
      "build",
      "run",
      "view",
      "first chart ms",
      "FCP ms",
      "script KB",
      "tab switch ms",
      "slowest toggle ms",
      "pending shown ms",
    ].join(" | "),
  );
  for (const r of rows)
    console.log(
      [
        r.build,
        r.run.slice(0, 48),
        r.view,
        // "server": the first chart painted was the server's drawing in the HTML.
        `${fmt(r.firstChartMs)}${r.drawnBy === "server" ? " (server)" : ""}`,
        fmt(r.fcpMs),
        fmt(r.scriptKB),
        fmt(r.tabSwitchMs),
        fmt(worst(r.toggles.map((t) => t.ms))),
        fmt(worst(r.toggles.map((t) => t.pendingMs))),
      ].join(" | "),
    );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
