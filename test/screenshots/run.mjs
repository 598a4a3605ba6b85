#!/usr/bin/env node
// Full-page screenshots of the built app, for judging every view by eye (README.md §Test):
// the runs list, every view (tab) of every example run, the compare page empty and with all the
// example runs, each in light and dark at 1440 px and 390 px.
//
//   npm run build && npm run screenshots -- [output folder, default screenshots/] [--views id,id]
//
// `--views sessions,latency` shoots only those views of the example runs that have them (not the runs list
// or compare pages): a re-shoot after a change to a few views.
//
// It starts the built app (bin/server.mjs) on a temporary DATA_DIR, where the example runs seed
// themselves, and drives headless Chromium (CHROMIUM_PATH, default /usr/bin/chromium). The views
// are read from each run page's tabs, so a view added to the manifest is photographed without
// editing this script. Prints the number of PNGs written.
import fs from "node:fs";
import path from "node:path";
import { ROOT } from "../helpers/next-server.mjs";
import { withAppAndBrowser } from "./shoot-session.mjs";

const VIEWPORTS = [
  { name: "1440", width: 1440, height: 900 },
  { name: "390", width: 390, height: 844 },
];
const SCHEMES = ["light", "dark"];
/** Views draw their later charts after the first has painted; this lets them land. */
const SETTLE_MS = 400;

const args = process.argv.slice(2);
const viewsAt = args.indexOf("--views");
const onlyViews = viewsAt === -1 ? null : new Set(args.splice(viewsAt, 2)[1]?.split(",").filter(Boolean));
if (onlyViews?.size === 0) {
  console.error("--views needs view ids, comma separated (sessions,latency)");
  process.exit(1);
}
const out = path.resolve(args[0] ?? "screenshots");
const distDir = process.env.RUNLENS_DIST_DIR || ".next";
if (!fs.existsSync(path.join(ROOT, distDir, "BUILD_ID"))) {
  console.error(`no production build in ${distDir}: run \`npm run build\` first`);
  process.exit(1);
}

/** A file-name part from a run or view name: lower case, dashes, at most 48 characters. */
const slug = (s) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 48)
    .replace(/-$/, "");

/** The example runs once they are all ready (they seed while the server starts). */
async function readyRuns(url) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const { runs } = await (await fetch(`${url}/api/runs?limit=200`)).json();
    if (runs.length > 0 && runs.every((r) => r.status !== "ingesting")) return runs;
    if (Date.now() > deadline) throw new Error("the example runs did not finish seeding within 120 s");
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function settle(page) {
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(SETTLE_MS);
}

/** The views a run page offers, read from its tablist: [{ id, label, enabled }]. */
async function runTabs(page) {
  await page.getByRole("tablist").waitFor();
  return page.$$eval("[role=tab][data-view]", (tabs) =>
    tabs.map((t) => ({
      id: t.getAttribute("data-view"),
      label: t.textContent?.trim() ?? "",
      enabled: t.getAttribute("aria-disabled") !== "true",
    })),
  );
}

/** Every page to photograph, in order: [{ name, url, ready? }] (ready: a locator to wait for). */
async function pagesToShoot(browser, url, runs) {
  const page = await browser.newPage();
  const list = onlyViews
    ? []
    : [
        { name: "runs", url: `${url}/` },
        { name: "compare-empty", url: `${url}/compare` },
      ];
  for (const run of runs) {
    await page.goto(`${url}/runs/${run.id}`);
    for (const tab of await runTabs(page))
      if (!onlyViews || (tab.enabled && onlyViews.has(tab.id)))
        list.push({
          name: `run-${slug(run.name)}-${tab.id}${tab.enabled ? "" : "-disabled"}`,
          url: `${url}/runs/${run.id}?view=${tab.id}`,
          panel: true,
        });
  }
  const ready = runs.filter((r) => r.status === "ready").slice(0, 8);
  if (!onlyViews)
    list.push({ name: "compare-examples", url: `${url}/compare?runs=${ready.map((r) => r.id).join(",")}` });
  await page.close();
  return list;
}

async function main() {
  fs.mkdirSync(out, { recursive: true });
  const written = await withAppAndBrowser(
    { prefix: "runlens-screenshots-", examples: true },
    async (server, browser) => {
      let written = 0;
      const runs = await readyRuns(server.url);
      const pages = await pagesToShoot(browser, server.url, runs);
      // One browser context per scheme and width, reused across pages: a fresh one per shot
      // doubled the run time on a shared machine.
      for (const scheme of SCHEMES)
        for (const vp of VIEWPORTS) {
          const context = await browser.newContext({
            viewport: { width: vp.width, height: vp.height },
            colorScheme: scheme,
            deviceScaleFactor: 1,
          });
          const page = await context.newPage();
          for (const [i, target] of pages.entries()) {
            await page.goto(target.url);
            if (target.panel) await page.getByRole("tabpanel").waitFor();
            await settle(page);
            const file = path.join(
              out,
              `${String(i + 1).padStart(2, "0")}-${target.name}-${scheme}-${vp.name}.png`,
            );
            await page.screenshot({ path: file, fullPage: true });
            written++;
          }
          await context.close();
        }
      return written;
    },
  );
  console.log(`${written} screenshots written to ${path.relative(process.cwd(), out) || "."}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
