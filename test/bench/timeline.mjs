// The Timeline view in headless Chromium: first paint of the canvas (server cold: the run's
// timeline read for the first time, from its stored columns or, for a run stored before them,
// its rows; then warm), the frame time of wheel zoom and Shift+wheel pan, and the
// time from a gesture's end to the new window's bars; plus the timeline route's own latency.
import { chromium } from "playwright-core";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../helpers/next-server.mjs";
import { percentile } from "./measure.mjs";

/** Runs in the page before its scripts: the navigation-relative time of the canvas' first draw and its frame. */
function recordFirstDraw() {
  new MutationObserver((_, observer) => {
    const c = document.querySelector("[data-timeline-canvas][data-drawn-from]");
    if (!c) return;
    observer.disconnect();
    const first = { drawnMs: performance.now(), bars: Number(c.getAttribute("data-bars")) };
    window.__runlensTimeline = first;
    requestAnimationFrame((frameMs) => {
      // Where the time went: the server's answer (first byte, last byte of the HTML), the
      // scripts (the last one's last byte) and the document parsed, all on the same clock.
      const nav = performance.getEntriesByType("navigation")[0];
      const scripts = performance
        .getEntriesByType("resource")
        .filter((r) => r.initiatorType === "script" && r.startTime < first.drawnMs);
      first.phases = {
        firstByteMs: nav?.responseStart ?? null,
        htmlMs: nav?.responseEnd ?? null,
        scriptsMs: scripts.length ? Math.max(...scripts.map((r) => r.responseEnd)) : null,
        domContentLoadedMs: nav?.domContentLoadedEventEnd || null,
        drawnMs: first.drawnMs,
      };
      first.frameMs = frameMs;
    });
  }).observe(document, {
    childList: true,
    subtree: true,
    attributes: true,
    attributeFilter: ["data-drawn-from"],
  });
}

async function firstPaint(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  try {
    await context.addInitScript(recordFirstDraw);
    const page = await context.newPage();
    await page.goto(url, { timeout: 120_000 });
    await page.waitForFunction(() => window.__runlensTimeline?.frameMs !== undefined, null, {
      timeout: 120_000,
      polling: 50,
    });
    return { page, context, first: await page.evaluate(() => window.__runlensTimeline) };
  } catch (err) {
    await context.close();
    throw err;
  }
}

/**
 * In the page: `n` wheel zooms in, `2n` Shift+wheel pans (left and right in turn, so the window
 * stays inside the run and every pan moves it), `n` zooms out; each timed from its dispatch to
 * the frame after the canvas redrew (the frame the user sees). A wheel that moved nothing (the
 * window already at the run's edge) draws nothing and is not counted.
 */
function gestureFrames(n) {
  const c = document.querySelector("[data-timeline-canvas]");
  const r = c.getBoundingClientRect();
  const nextDraw = (before) =>
    new Promise((resolve) => {
      const t0 = performance.now();
      const check = () =>
        c.dataset.drawnTo !== before
          ? requestAnimationFrame(() => resolve(true))
          : performance.now() - t0 > 1000
            ? resolve(false)
            : requestAnimationFrame(check);
      check();
    });
  const wheel = (deltaY, shiftKey) =>
    c.dispatchEvent(
      new WheelEvent("wheel", {
        deltaY,
        shiftKey,
        clientX: r.left + r.width * 0.55,
        clientY: r.top + 20,
        bubbles: true,
        cancelable: true,
      }),
    );
  return (async () => {
    const zoom = [];
    const pan = [];
    const steps = [
      ...Array.from({ length: n }, () => [-150, false]),
      ...Array.from({ length: 2 * n }, (_, i) => [i % 2 ? -80 : 80, true]),
      ...Array.from({ length: n }, () => [150, false]),
    ];
    for (const [deltaY, shiftKey] of steps) {
      const before = c.dataset.drawnTo;
      const t0 = performance.now();
      wheel(deltaY, shiftKey);
      if (await nextDraw(before)) (shiftKey ? pan : zoom).push(performance.now() - t0);
    }
    return { zoom, pan };
  })();
}

const stats = (times) => {
  const s = [...times].sort((a, b) => a - b);
  return {
    count: s.length,
    p50Ms: percentile(s, 50),
    p95Ms: percentile(s, 95),
    maxMs: s[s.length - 1] ?? null,
    over100: s.filter((v) => v > 100).length,
    all: times.map((v) => Math.round(v)),
  };
};

async function timed(url) {
  const t0 = performance.now();
  const res = await fetch(url);
  const body = await res.arrayBuffer();
  return { ms: performance.now() - t0, status: res.status, bytes: body.byteLength };
}

/**
 * Timeline figures of one run (docs/performance.md): `firstPaintColdMs` is the first visit
 * (the server reads the run's stored timeline columns then, or its rows for a run stored before them), `firstPaintWarmMs` a second visit in a fresh browser
 * context; frame times are p50/p95/max of `2 × frames` zooms and pans each; `refetchMs` from the last
 * gesture to the new window's bars drawn; `api` the route alone, warm, whole run and a tenth of it.
 */
export async function timelineBench(baseUrl, runId, { frames = 10 } = {}) {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  const url = `${baseUrl}/runs/${runId}?view=timeline`;
  try {
    const cold = await firstPaint(browser, url);
    await cold.context.close();
    const warm = await firstPaint(browser, url);
    const { page } = warm;
    const g = await page.evaluate(gestureFrames, frames);
    const t0 = Date.now();
    // The gesture's window reaches the URL and the server once it settles; its bars then replace the old ones.
    await page.waitForFunction(
      () => {
        const s = document.querySelector("[data-timeline-summary]")?.textContent ?? "";
        return new URL(location.href).searchParams.has("tto") && !s.includes("Loading");
      },
      null,
      { timeout: 60_000, polling: 20 },
    );
    const refetchMs = Date.now() - t0;
    await warm.context.close();
    const api = `${baseUrl}/api/runs/${runId}/timeline`;
    const whole = await timed(api);
    const meta = await (await fetch(api)).json();
    const span = meta.run.endMs - meta.run.startMs;
    const tenth = await timed(
      `${api}?from=${meta.run.startMs + span * 0.45}&to=${meta.run.startMs + span * 0.55}`,
    );
    return {
      runId,
      requests: meta.run.requests,
      barsDrawn: warm.first.bars,
      firstPaintColdMs: cold.first.frameMs,
      firstPaintWarmMs: warm.first.frameMs,
      phasesCold: cold.first.phases,
      phasesWarm: warm.first.phases,
      zoomFrame: stats(g.zoom),
      panFrame: stats(g.pan),
      refetchMs,
      api: { wholeMs: whole.ms, wholeBytes: whole.bytes, tenthMs: tenth.ms, tenthBytes: tenth.bytes },
    };
  } finally {
    await browser.close();
  }
}

export function printTimeline(list) {
  if (list.length === 0) return;
  console.log(
    "\nrequest timeline (headless Chromium; budgets: first paint ≤ 1,000 ms, pan/zoom ≤ 100 ms a frame):",
  );
  const fix = (v) => (v === null || v === undefined ? "–" : v.toFixed(0));
  for (const t of list) {
    if (t.error) {
      console.log(`  ${t.store} ${t.kind}: not measured: ${t.error}`);
      continue;
    }
    console.log(
      `  ${t.store} ${t.kind}${t.warmUp ? ` (RUNLENS_WARM_UP=${t.warmUp})` : ""}${t.firstWindow ? ` (first window ${t.firstWindow === "stored" ? "stored" : "cut from the columns"})` : ""}, ${t.requests.toLocaleString("en")} requests (${t.barsDrawn.toLocaleString("en")} bars drawn): first paint ${fix(t.firstPaintColdMs)} ms cold, ${fix(t.firstPaintWarmMs)} ms warm; zoom frame p50 ${fix(t.zoomFrame.p50Ms)} / p95 ${fix(t.zoomFrame.p95Ms)} / max ${fix(t.zoomFrame.maxMs)} ms (${t.zoomFrame.over100} of ${t.zoomFrame.count} over 100 ms); pan frame p50 ${fix(t.panFrame.p50Ms)} / p95 ${fix(t.panFrame.p95Ms)} / max ${fix(t.panFrame.maxMs)} ms (${t.panFrame.over100} of ${t.panFrame.count} over 100 ms); new window drawn ${fix(t.refetchMs)} ms after the gesture; route ${fix(t.api.wholeMs)} ms whole run (${(t.api.wholeBytes / 1e6).toFixed(2)} MB), ${fix(t.api.tenthMs)} ms a tenth`,
    );
    const ph = (p) =>
      p
        ? `first byte ${fix(p.firstByteMs)}, HTML ${fix(p.htmlMs)}, scripts ${fix(p.scriptsMs)}, DOMContentLoaded ${fix(p.domContentLoadedMs)}, canvas drawn ${fix(p.drawnMs)} ms`
        : "–";
    console.log(`    cold: ${ph(t.phasesCold)}\n    warm: ${ph(t.phasesWarm)}`);
    if (t.idleRssBytes)
      console.log(
        `    fresh server: ${t.warmUpMs === null ? "no warm-up" : `warmed its run page in ${fix(t.warmUpMs)} ms`}; idle RSS ${(t.idleRssBytes / 2 ** 20).toFixed(0)} MiB, ${(t.rssAfterBytes / 2 ** 20).toFixed(0)} MiB after the visits`,
      );
  }
}
