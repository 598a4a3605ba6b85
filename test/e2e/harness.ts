import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, expect, inject } from "vitest";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { generateTrtllmRun } from "../generators/trtllm.mjs";
import { CHROMIUM_ARGS, CHROMIUM_PATH, freePort, ROOT, startNextServer } from "../helpers/next-server.mjs";
import { waitUntil } from "../helpers/wait.mjs";
import { TEMPLATE_CLAIM, TEMPLATE_DATA, TEMPLATE_FAILED, TEMPLATE_READY } from "./examples-setup";

export interface RunningApp {
  url: string;
  dataDir: string;
  process: ChildProcess;
  logs: () => string;
  stop(): Promise<void>;
}

/**
 * Starts the built app as `npm start` serves it (bin/server.mjs, so `next build` must have run) on a free port with its
 * own temporary data directory. Examples are off unless `env` turns them on.
 */
export async function startApp(
  opts: { env?: Record<string, string>; dataDir?: string } = {},
): Promise<RunningApp> {
  const distDir = process.env.RUNLENS_DIST_DIR || ".next";
  if (!fs.existsSync(path.join(ROOT, distDir, "BUILD_ID")))
    throw new Error(`no production build in ${distDir}: run \`npx next build\` first`);
  const port = await freePort();
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "runlens-e2e-"));
  const started = Date.now();
  const server = await startNextServer({
    port,
    env: { DATA_DIR: dataDir, RUNLENS_EXAMPLES: "off", DATABASE_URL: "", ...opts.env },
  });
  // One line per server start, for counting them and their cost (test-results/e2e.log).
  console.error(`[runlens e2e] server up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return {
    url: server.url,
    dataDir,
    process: server.child,
    logs: server.logs,
    async stop() {
      await server.stop();
      if (!opts.dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The browser for a test file: a connection to the Chromium the global set-up launched
 * (browser-setup.ts), or one of its own when there is none. Close it when done.
 */
export async function launchBrowser(): Promise<Browser> {
  const shared = inject("browserWsEndpoint");
  const browser = shared
    ? await chromium.connect(shared)
    : await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  // Every page it opens may take NAVIGATION_MS to load, not Playwright's 30 s.
  const newContext = browser.newContext.bind(browser);
  const newPage = browser.newPage.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultNavigationTimeout(NAVIGATION_MS);
    return context;
  };
  browser.newPage = async (options) => {
    const page = await newPage(options);
    page.context().setDefaultNavigationTimeout(NAVIGATION_MS);
    return page;
  };
  return browser;
}

/**
 * How long a page may take to load: on 2 cores with two browser-test files at once beside other
 * work, a page the server renders has taken over Playwright's 30 s to reach "load".
 */
const NAVIGATION_MS = 90_000;

/** Uploads files through the HTTP API (multipart) and returns the parsed 201 body. */
export async function apiUpload(
  url: string,
  files: Array<{ path: string; name?: string }>,
  fields: Record<string, string> = {},
): Promise<{
  id: string;
  url: string;
  files: Array<{ kind: string; records: number }>;
  /** The sweep the upload made, when its files are run folders */
  sweep?: { id: string; url: string };
}> {
  const form = new FormData();
  for (const f of files)
    form.append("file", new Blob([fs.readFileSync(f.path)]), f.name ?? path.basename(f.path));
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await fetch(`${url}/api/runs`, { method: "POST", body: form });
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  return res.json();
}

/**
 * Uploads files that make a sweep (a folder of run folders, by their names) through the HTTP API,
 * as apiUpload does, and returns the new sweep's id.
 */
export async function apiUploadSweep(
  url: string,
  files: Parameters<typeof apiUpload>[1],
  fields: Record<string, string> = {},
): Promise<string> {
  const body = await apiUpload(url, files, fields);
  if (!body.sweep) throw new Error(`the upload made no sweep: ${JSON.stringify(body).slice(0, 500)}`);
  return body.sweep.id;
}

/** How long seeding the example runs may take (a server start and 9 ingests), on a loaded machine. */
const SEED_MS = 120_000;

/**
 * Seeds the example runs into `dataDir` with the built app (a server started with
 * RUNLENS_EXAMPLES=on, stopped once every example is ready with its drill-down); a timeout says
 * what it waited for, the runs it still waited on and what the server printed.
 */
async function seedExamples(dataDir: string): Promise<void> {
  const server = await startApp({ dataDir, env: { RUNLENS_EXAMPLES: "on" } });
  try {
    let seen = "no answer from /api/runs yet";
    await waitUntil(
      "every example run ready with its drill-down",
      async () => {
        const { runs } = (await (await fetch(`${server.url}/api/runs`)).json()) as {
          runs: Array<{ name: string; status: string; drilldownReadyAt?: unknown }>;
        };
        const waiting = runs.filter(
          (r) => r.status === "ingesting" || (r.status === "ready" && r.drilldownReadyAt == null),
        );
        seen = `${runs.length} runs, waiting for: ${waiting.map((r) => r.name).join("; ") || "none"}`;
        return runs.length > 0 && waiting.length === 0;
      },
      { timeoutMs: SEED_MS, intervalMs: 200, seen: () => seen, output: server.logs },
    );
  } finally {
    await server.stop();
  }
}

/**
 * A new data directory holding the example runs, copied from the one seeded once for every test
 * file (examples-setup.ts): the first file to ask seeds it, the others wait for it if they must.
 * The caller removes the directory.
 */
export async function seededExamplesDataDir(): Promise<string> {
  const folder = inject("examplesTemplate");
  const ready = path.join(folder, TEMPLATE_READY);
  const failed = path.join(folder, TEMPLATE_FAILED);
  let claimed = false;
  try {
    fs.closeSync(fs.openSync(path.join(folder, TEMPLATE_CLAIM), "wx"));
    claimed = true;
  } catch {
    // another file seeds them
  }
  if (claimed) {
    try {
      await seedExamples(path.join(folder, TEMPLATE_DATA));
      fs.writeFileSync(ready, "");
    } catch (err) {
      fs.writeFileSync(failed, (err as Error).message);
      throw err;
    }
  } else {
    await waitUntil(
      `the example runs seeded once for the browser tests (test/e2e/examples-setup.ts, in ${folder})`,
      () => fs.existsSync(ready) || fs.existsSync(failed),
      { timeoutMs: SEED_MS, intervalMs: 100 },
    );
    if (fs.existsSync(failed))
      throw new Error(`seeding the example runs failed: ${fs.readFileSync(failed, "utf8")}`);
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-e2e-"));
  // The server was stopped cleanly: its write-ahead log is checkpointed, its shared memory stale.
  fs.cpSync(path.join(folder, TEMPLATE_DATA), dataDir, {
    recursive: true,
    filter: (src) => !src.endsWith("-shm"),
  });
  return dataDir;
}

/** A run as `GET /api/runs` lists it: what the browser tests pick example runs by. */
export interface ListedRun {
  id: string;
  name: string;
  status: string;
}

/**
 * The app's runs once the example runs are seeded (nine at least, none still ingesting), as
 * `GET /api/runs` lists them; fails after `timeoutMs` saying how many it saw.
 */
export async function seededExampleRuns(url: string, timeoutMs = 180_000): Promise<ListedRun[]> {
  let runs: ListedRun[] = [];
  await waitUntil(
    "the example runs seeded",
    async () => {
      runs = ((await (await fetch(`${url}/api/runs?limit=200`)).json()) as { runs: ListedRun[] }).runs;
      return runs.length >= 9 && runs.every((r) => r.status !== "ingesting");
    },
    { timeoutMs, intervalMs: 500, seen: () => `${runs.length} runs` },
  );
  return runs;
}

/**
 * Generates a TensorRT-LLM run of `opts` (test/generators/trtllm.mjs) in a temporary folder and
 * uploads its files through the HTTP API, as apiUpload does.
 */
export async function uploadGeneratedTrtllm(
  url: string,
  opts: Record<string, unknown>,
  fields: Record<string, string> = {},
): ReturnType<typeof apiUpload> {
  return inTempDir("runlens-e2e-trtllm-", (dir) => {
    const gen = generateTrtllmRun({ dir, ...opts });
    return apiUpload(
      url,
      gen.files.map((p: string) => ({ path: p })),
      fields,
    );
  });
}

/** Runs `fn` in a new temporary folder named from `prefix`, removed once `fn` has settled. */
async function inTempDir<T>(prefix: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  try {
    return await fn(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * An aiperf run's records and summary in `dir`, as apiUpload takes them: `prefix` is what their
 * names there start with (the fixtures' `qwen-c4__`), left out of the names uploaded.
 */
export function aiperfExportFiles(dir: string, prefix = ""): Array<{ path: string; name: string }> {
  return ["profile_export.jsonl", "profile_export_aiperf.json"].map((name) => ({
    path: path.join(dir, prefix + name),
    name,
  }));
}

/**
 * Generates an aiperf run of `opts` (test/generators/aiperf.mjs, records only, no CSV) in a
 * temporary folder and uploads its records and summary through the HTTP API, as apiUpload does.
 */
export async function uploadGeneratedAiperf(
  url: string,
  opts: Record<string, unknown>,
  fields: Record<string, string> = {},
): ReturnType<typeof apiUpload> {
  return inTempDir("runlens-e2e-aiperf-", async (dir) => {
    await generateAiperfRun(dir, { csv: false, ...opts });
    return apiUpload(url, aiperfExportFiles(dir), fields);
  });
}

/**
 * For a describe block: starts the built app and a browser before its tests and stops both
 * after. Read `.app` and `.browser` inside tests (they are set once beforeAll has run). With
 * RUNLENS_EXAMPLES=on the app starts on a copy of the examples seeded once for every file
 * (seededExamplesDataDir), as a server that had seeded them itself would have them.
 */
export function useAppAndBrowser(opts: Parameters<typeof startApp>[0] = {}): {
  app: RunningApp;
  browser: Browser;
} {
  const env = {} as { app: RunningApp; browser: Browser };
  let copied: string | undefined;
  beforeAll(
    async () => {
      if (opts.env?.RUNLENS_EXAMPLES === "on" && !opts.dataDir) copied = await seededExamplesDataDir();
      env.app = await startApp(copied ? { ...opts, dataDir: copied } : opts);
      env.browser = await launchBrowser();
      // The first file wanting the examples seeds them first: two server starts, nine ingests.
    },
    opts.env?.RUNLENS_EXAMPLES === "on" ? 360_000 : undefined,
  );
  afterAll(async () => {
    await env.browser?.close();
    await env.app?.stop();
    if (copied) fs.rmSync(copied, { recursive: true, force: true });
  });
  return env;
}

/** A look at a view: its viewport and colour scheme. */
export interface Look {
  width: number;
  height: number;
  scheme: "light" | "dark";
}

/** The viewports a view is looked at in: a desktop and a phone. */
export const LOOK_VIEWPORTS: ReadonlyArray<readonly [number, number]> = [
  [1440, 1100],
  [390, 900],
];

/** A laptop's screen and a phone's (390 × 844): the looks of a view opened at one request. */
export const DEVICE_VIEWPORTS: ReadonlyArray<readonly [number, number]> = [
  [1440, 900],
  [390, 844],
];

/**
 * Opens `url` hydrated in a fresh browser context for each viewport in light and in dark, and runs
 * `fn` on its page; each context is closed before the next opens.
 */
export async function forEachLook(
  browser: Browser,
  url: string,
  fn: (page: Page, look: Look) => Promise<void>,
  viewports = LOOK_VIEWPORTS,
): Promise<void> {
  for (const [width, height] of viewports)
    for (const scheme of ["light", "dark"] as const) {
      const context = await browser.newContext({ viewport: { width, height }, colorScheme: scheme });
      try {
        const page = await context.newPage();
        await gotoHydrated(page, url);
        await fn(page, { width, height, scheme });
      } finally {
        await context.close();
      }
    }
}

/** Every look a view is checked in: each of LOOK_VIEWPORTS in light and in dark. */
export const LOOKS: readonly Look[] = LOOK_VIEWPORTS.flatMap(([width, height]) =>
  (["light", "dark"] as const).map((scheme) => ({ width, height, scheme })),
);

/** Frames in a row with the same measurement and no resize inside the scope before a layout counts as settled. */
export const FIT_QUIET_FRAMES = 10;
/** How long to wait at the most for a layout that keeps changing, in ms. */
export const SETTLE_TIMEOUT_MS = 30_000;

/** How a wait for a settled layout ended. */
export interface Settled {
  /** Whether the layout stood still for FIT_QUIET_FRAMES frames before SETTLE_TIMEOUT_MS. */
  settled: boolean;
  /** Frames waited. */
  frames: number;
  /** The last measurement: the viewport, the scope's box and scroll width, how many marks and their boxes' hash. */
  last: string;
}

/**
 * The one wait for a settled layout, run in the page: frame by frame until `scope` stands still, that
 * is FIT_QUIET_FRAMES frames in a row with the same measurement (the viewport, the scope's box and
 * scroll width, and the box of every chart's drawing, bar, text and axis, tab panel and main in it),
 * no ResizeObserver callback inside it and the viewport `width` wide when given. A chart re-measures
 * its box and redraws a few frames after the viewport changes (its container's ResizeObserver, then
 * a render): measured at once it is still as wide as before. Gives up after `timeoutMs`.
 */
function waitForStillLayout(
  scope: Element,
  { width, quiet, timeoutMs }: { width: number | undefined; quiet: number; timeoutMs: number },
): Promise<Settled> {
  return new Promise<Settled>((resolve) => {
    let resized = true;
    const observer = new ResizeObserver(() => (resized = true));
    observer.observe(scope);
    for (const d of Array.from(scope.querySelectorAll("*")).slice(0, 2000)) observer.observe(d);
    const measure = () => {
      const marks = scope.querySelectorAll(
        "figure[data-chart] svg, figure[data-chart] .recharts-bar-rectangle, figure[data-chart] text, figure[data-chart] path, [role=tabpanel], main",
      );
      let sum = 0;
      for (const m of marks) {
        const r = m.getBoundingClientRect();
        sum =
          (sum * 31 +
            Math.round(r.left * 10) * 7 +
            Math.round(r.top * 10) * 5 +
            Math.round(r.width * 10) * 3 +
            Math.round(r.height * 10)) %
          2_147_483_647;
      }
      const box = scope.getBoundingClientRect();
      return `viewport ${window.innerWidth}x${window.innerHeight}, box ${box.left}..${box.right}, scroll ${scope.scrollWidth}/${scope.clientWidth}, ${marks.length} marks ${sum}`;
    };
    const deadline = performance.now() + timeoutMs;
    let last = "";
    let still = 0;
    let frames = 0;
    const frame = () => {
      frames++;
      const now = measure();
      const sized = width === undefined || window.innerWidth === width;
      still = now === last && !resized && sized ? still + 1 : 0;
      last = now;
      resized = false;
      const settled = still >= quiet;
      if (settled || performance.now() > deadline) {
        observer.disconnect();
        resolve({ settled, frames, last });
      } else requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
}

/** Waits for `target`'s layout to settle (a page: its whole document), `width` wide when given (waitForStillLayout). */
async function stillLayout(target: Page | Locator, width?: number): Promise<Settled> {
  const scope = "goto" in target ? target.locator(":root") : target;
  return scope.evaluate(waitForStillLayout, { width, quiet: FIT_QUIET_FRAMES, timeoutMs: SETTLE_TIMEOUT_MS });
}

/**
 * Waits until the layout of `target` (a page: its whole document) has settled, the viewport `width`
 * wide when given (waitForStillLayout). A timeout says what it last measured.
 */
export async function settleLayout(target: Page | Locator, width?: number): Promise<void> {
  const s = await stillLayout(target, width);
  if (!s.settled)
    throw new Error(
      `waited ${SETTLE_TIMEOUT_MS / 1000} s (${s.frames} frames) for the layout to settle` +
        `${width === undefined ? "" : ` ${width} px wide`}; last seen: ${s.last}`,
    );
}

/**
 * Puts a loaded page in `look` without reloading it: the colour scheme (the theme follows the
 * system's), then the viewport, scrolled to the top as a fresh load would be; resolves once the
 * theme and the width are applied and the layout has settled.
 */
export async function setLook(page: Page, look: Look): Promise<void> {
  await page.emulateMedia({ colorScheme: look.scheme });
  await page.setViewportSize({ width: look.width, height: look.height });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForFunction(
    ({ width, scheme }) =>
      window.innerWidth === width &&
      window.matchMedia(`(prefers-color-scheme: ${scheme})`).matches &&
      (document.documentElement.dataset.themeChoice !== "system" ||
        document.documentElement.dataset.theme === scheme),
    look,
    { timeout: 30_000 },
  );
  await settleLayout(page, look.width);
}

/**
 * Pages each loaded once for every look, for the tests of one file: `forEachLook` opens `url`
 * hydrated in a context of its own the first time (later calls, in any test of the file, reuse
 * that page), then puts it in each of LOOKS in turn (setLook) and runs `fn` on it; `page` gives the
 * same page in the first of LOOKS, for a test that looks at it once. A `fn` or a test that changes
 * what the page shows (a toggle, another tab) puts it back before it returns. `close` in afterAll.
 */
export function lookPages(browser: () => Browser): {
  forEachLook(url: string, fn: (page: Page, look: Look) => Promise<void>): Promise<void>;
  /** The page of `url` (loaded the first time, as forEachLook does), in the first of LOOKS. */
  page(url: string): Promise<Page>;
  /** How many pages were loaded. */
  loads(): number;
  close(): Promise<void>;
} {
  const open = new Map<string, Promise<Page>>();
  const load = (url: string) => {
    let loaded = open.get(url);
    if (!loaded) {
      const [first] = LOOKS;
      loaded = (async () => {
        const context = await browser().newContext({
          viewport: { width: first.width, height: first.height },
          colorScheme: first.scheme,
        });
        const page = await context.newPage();
        await gotoHydrated(page, url);
        return page;
      })();
      open.set(url, loaded);
      loaded.catch(() => open.delete(url));
    }
    return loaded;
  };
  return {
    async forEachLook(url, fn) {
      const page = await load(url);
      for (const look of LOOKS) {
        await setLook(page, look);
        await fn(page, look);
      }
    },
    async page(url) {
      const page = await load(url);
      await setLook(page, LOOKS[0]);
      return page;
    },
    loads: () => open.size,
    async close() {
      // One line per file, for counting page loads (test-results/e2e.log).
      console.error(`[runlens e2e] ${open.size} pages loaded, each looked at in ${LOOKS.length} looks`);
      for (const loaded of open.values()) await loaded.then((page) => page.context().close()).catch(() => {});
      open.clear();
    },
  };
}

/**
 * Opens `url` and waits until the app has hydrated: pages are server-rendered with their data, so
 * text can be on screen before its controls respond, and an early click or select would be lost.
 */
export async function gotoHydrated(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.locator("html[data-hydrated]").waitFor({ state: "attached", timeout: 30_000 });
}

/**
 * A screenshot for a person to look at, never checked: taken only when RUNLENS_SCREENSHOT_DIR names
 * a folder (`npm run screenshots` and reviews set it), of the whole page unless `fullPage` is false,
 * after `settleMs` for the charts' animations. Without the folder a locator is still awaited
 * visible, as its screenshot would have awaited it.
 */
export async function shot(
  target: Page | Locator,
  name: string,
  opts: { fullPage?: boolean; settleMs?: number } = {},
): Promise<void> {
  const dir = process.env.RUNLENS_SCREENSHOT_DIR;
  const isPage = "goto" in target;
  if (!dir) {
    if (!isPage) await target.waitFor({ state: "visible" });
    return;
  }
  fs.mkdirSync(dir, { recursive: true });
  if (opts.settleMs) await (isPage ? target : target.page()).waitForTimeout(opts.settleMs);
  const file = path.join(dir, name);
  if (isPage) await target.screenshot({ path: file, fullPage: opts.fullPage ?? true });
  else await target.screenshot({ path: file });
}

/** What `settledFit` found: whether `el` fits, and when it does not, what runs over and by how much. */
export interface Fit {
  fits: boolean;
  /** Frames waited until the layout stood still (or gave up, when it never did). */
  frames: number;
  settled: boolean;
  /** The viewport's width when judged. */
  innerWidth: number;
  /** `el`'s content wider than its box, in px (0 when none). */
  overScroll: number;
  /** `el`'s right edge past the viewport's, in px (0 when none). */
  overViewport: number;
  /** The outermost elements inside `el` that run past its box or the viewport, widest first, and by how many px. */
  over: Array<{ what: string; px: number }>;
}

/**
 * Waits until `el` has laid itself out for the viewport it is in (waitForStillLayout, the viewport
 * `width` wide when given), then judges whether anything of it runs off: its content wider than its
 * box, or its right edge past the viewport's. A layout that never settles is judged as it stands.
 */
export async function settledFit(el: Locator, width?: number): Promise<Fit> {
  const { settled, frames } = await stillLayout(el, width);
  const fit = await el.evaluate((e) => {
    const describe = (d: Element) => {
      const id = d.id ? `#${d.id}` : "";
      const data = Array.from(d.attributes)
        .filter((a) => a.name.startsWith("data-") || a.name === "aria-label")
        .map((a) => `[${a.name}="${a.value.slice(0, 40)}"]`)
        .join("");
      const cls =
        typeof d.className === "string" && d.className
          ? `.${d.className.trim().split(/\s+/).slice(0, 2).join(".")}`
          : "";
      const text = (d.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 40);
      return `${d.tagName.toLowerCase()}${id}${data}${cls}${text ? ` "${text}"` : ""}`;
    };
    const box = e.getBoundingClientRect();
    const edge = Math.min(box.right, window.innerWidth);
    const running = Array.from(e.querySelectorAll("*"))
      .map((d) => ({ d, px: Math.round(d.getBoundingClientRect().right - edge) }))
      .filter((o) => o.px > 0);
    // The outermost of each: the cells of a table that runs over run over with it.
    const outer = new Set(running.map((o) => o.d));
    const over = running
      .filter((o) => {
        for (let a = o.d.parentElement; a && a !== e; a = a.parentElement) if (outer.has(a)) return false;
        return true;
      })
      .sort((a, b) => b.px - a.px)
      .slice(0, 5)
      .map((o) => ({ what: describe(o.d), px: o.px }));
    const overScroll = Math.max(0, e.scrollWidth - e.clientWidth);
    return {
      fits: overScroll === 0 && box.right <= window.innerWidth,
      innerWidth: window.innerWidth,
      overScroll,
      overViewport: Math.max(0, Math.round(box.right - window.innerWidth)),
      over,
    };
  });
  return { ...fit, frames, settled };
}

/** A `Fit` that failed, in words: what runs over and by how many px. */
export function fitFailure(fit: Fit): string {
  const parts = [
    fit.overScroll ? `its content is ${fit.overScroll} px wider than its box` : "",
    fit.overViewport ? `its right edge is ${fit.overViewport} px past the viewport's` : "",
    ...fit.over.map((o) => `${o.what} runs ${o.px} px over`),
    fit.settled
      ? ""
      : `(the layout was still changing after ${fit.frames} frames, the viewport ${fit.innerWidth} px wide)`,
  ];
  return parts.filter(Boolean).join("; ");
}

/**
 * Checks that nothing of `el` runs off the screen (its own width and the viewport's) in each of
 * LOOKS on the page as it stands (setLook, no reload), once it has laid itself out for each
 * (`settledFit`), with a screenshot of each as `<name>-<scheme>-<width>.png`.
 */
export async function expectFitsEachLook(page: Page, el: Locator, name: string): Promise<void> {
  for (const look of LOOKS) {
    await setLook(page, look);
    const fit = await settledFit(el, look.width);
    expect(
      fit.fits,
      `${name} fits at ${look.width} px, ${look.scheme}${fit.fits ? "" : `: ${fitFailure(fit)}`}`,
    ).toBe(true);
    await shot(el, `${name}-${look.scheme}-${look.width}.png`);
  }
}

/**
 * Opens a saved report from disk in an offline context: the report's own file is the one load
 * allowed; anything else it asked for is recorded in `attempted` and refused.
 */
export async function openOffline(
  browser: Browser,
  file: string,
  viewport?: { width: number; height: number },
  colorScheme?: "light" | "dark",
): Promise<{ context: BrowserContext; page: Page; attempted: string[] }> {
  const context = await browser.newContext({
    offline: true,
    ...(viewport ? { viewport } : {}),
    ...(colorScheme ? { colorScheme } : {}),
  });
  const own = pathToFileURL(file).href;
  const attempted: string[] = [];
  await context.route("**/*", (route) => {
    if (route.request().url() === own) return route.continue();
    attempted.push(route.request().url());
    return route.abort();
  });
  const page = await context.newPage();
  page.on("request", (r) => {
    if (r.url() !== own && !attempted.includes(r.url())) attempted.push(r.url());
  });
  await page.goto(own);
  await page.waitForLoadState("load");
  return { context, page, attempted };
}
