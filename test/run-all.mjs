#!/usr/bin/env node
/**
 * Runs every suite — unit and route-handler tests (plus PostgreSQL when RUNLENS_TEST_DATABASE_URL
 * is set) while the production build and then the browser tests on that build run beside them
 * (vitest gives the unit tests one worker on a 2-core machine: the build, then the browser tests,
 * take the other core) — and ends with one line "N passed, N failed, N skipped" over all of them.
 *
 * The browser tests run in batches of files, one vitest run each, longest files first (by the
 * durations the last run left in test-results/e2e-durations.json, else test/e2e/durations.json):
 * one batch at a time while the unit tests run, two at a time once they are done, so the second
 * core is not idle for the browser tests' last minutes. Each file starts its own servers on its
 * own data, so two files at once share nothing but the example runs' template, seeded once for
 * every batch (RUNLENS_E2E_EXAMPLES_TEMPLATE), and each lane takes its servers' ports from a range
 * of its own (RUNLENS_E2E_PORTS). A batch's output is shown once the unit tests' is done and the
 * batch has ended (never two batches interleaved); all of it is also in test-results/e2e.log.
 * Exit status is non-zero on any failure.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.join(root, "test-results");
fs.mkdirSync(out, { recursive: true });
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const bin = (name) => path.join(root, "node_modules", ".bin", name);

const totals = { passed: 0, failed: 0, skipped: 0 };
const steps = [];

/**
 * Runs one vitest project (only `files` when given); resolves with whether it passed and its JSON
 * report, its tests counted in totals. With `held`, its output is kept and handed to `held.log`
 * and `held.show` once the run has ended; `name` names its report (test-results/<name>.json).
 */
async function vitest(project, { files = [], name = project, held, extraEnv = {} } = {}) {
  const report = path.join(out, `${name}.json`);
  fs.rmSync(report, { force: true });
  const child = spawn(
    bin("vitest"),
    [
      "run",
      "--project",
      project,
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${report}`,
      ...files,
    ],
    { cwd: root, env: { ...env, ...extraEnv }, stdio: held ? ["ignore", "pipe", "pipe"] : "inherit" },
  );
  const chunks = [];
  if (held) {
    child.stdout.on("data", (c) => chunks.push(c));
    child.stderr.on("data", (c) => chunks.push(c));
  }
  const status = await new Promise((resolve) => child.on("close", (code) => resolve(code)));
  if (held) {
    const text = Buffer.concat(chunks);
    held.log.write(text);
    held.show(text);
  }
  const failedBefore = totals.failed;
  let json;
  if (fs.existsSync(report)) {
    json = JSON.parse(fs.readFileSync(report, "utf8"));
    totals.passed += json.numPassedTests ?? 0;
    totals.failed += json.numFailedTests ?? 0;
    totals.skipped += (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
    // A suite that failed to load has no failed test but a failed file: count it.
    const brokenFiles = (json.testResults ?? []).filter(
      (f) => f.status === "failed" && (f.assertionResults ?? []).length === 0,
    ).length;
    totals.failed += brokenFiles;
  }
  // A run that failed without a failed test (a crash, a global set-up error) counts once.
  if (status !== 0 && totals.failed === failedBefore) totals.failed += 1;
  if (!held) steps.push(`${project}: ${status === 0 ? "ok" : "failed"}`);
  return { ok: status === 0, json };
}

const distDir = process.env.RUNLENS_DIST_DIR || ".next";
const built = () => fs.existsSync(path.join(root, distDir, "BUILD_ID"));

/**
 * `next build`, its output kept in test-results/build.log (it runs beside the unit tests, whose
 * output goes to the terminal) and shown when it fails.
 */
async function build() {
  const logFile = path.join(out, "build.log");
  const log = fs.openSync(logFile, "w");
  const child = spawn(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
    cwd: root,
    env,
    stdio: ["ignore", log, log],
  });
  const status = await new Promise((resolve) => child.on("close", (code) => resolve(code)));
  fs.closeSync(log);
  if (status === 0) totals.passed += 1;
  else {
    totals.failed += 1;
    console.error(`\nnext build failed (${logFile}):\n${fs.readFileSync(logFile, "utf8")}`);
  }
  steps.push(`build: ${status === 0 ? "ok" : "failed"}`);
  return status === 0;
}

/**
 * The browser tests need Chromium. A fresh machine has none: as root with apt-get (as CI runs),
 * install Debian's package; otherwise stop at once with the one command that installs it,
 * instead of letting every browser test fail.
 */
function ensureChromium() {
  const chromium = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
  if (fs.existsSync(chromium)) return true;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const hasApt = fs.existsSync("/usr/bin/apt-get");
  if (isRoot && hasApt && !process.env.CHROMIUM_PATH) {
    console.log("Chromium is missing: installing Debian's chromium package (apt-get, ~1 min)");
    const aptEnv = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
    const update = spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env: aptEnv });
    const install =
      update.status === 0 &&
      spawnSync("apt-get", ["install", "-y", "-qq", "chromium"], { stdio: "inherit", env: aptEnv });
    if (install && install.status === 0 && fs.existsSync(chromium)) return true;
  }
  console.error(
    `The browser tests need Chromium at ${chromium}. Install it first: ` +
      (hasApt ? "sudo apt-get install -y chromium" : "install Chromium") +
      " (or set CHROMIUM_PATH to a Chromium binary), then run npm test again.",
  );
  return false;
}

if (!ensureChromium()) {
  fs.writeFileSync(path.join(out, "totals.json"), JSON.stringify({ passed: 0, failed: 1, skipped: 0 }));
  console.log("0 passed, 1 failed, 0 skipped");
  process.exit(1);
}

/** Seconds each browser-test file took: in this machine's last run, else the committed figures. */
function lastDurations() {
  for (const file of [path.join(out, "e2e-durations.json"), path.join(root, "test/e2e/durations.json")])
    try {
      return JSON.parse(fs.readFileSync(file, "utf8"));
    } catch {
      // none there
    }
  return {};
}

/** A file not timed yet counts as this many seconds (the untimed files of the last CI averaged 30). */
const UNTIMED_S = 30;
/** Seconds of files in one batch while the unit tests run (each batch starts vitest and Chromium). */
const BATCH_ALONE_S = 150;
/** The least seconds of files in one batch once two batches run at a time. */
const BATCH_MIN_S = 30;

/**
 * The browser tests: batches of files taken longest first from one queue, by one lane while the
 * unit tests run and by two once they have ended. Resolves once every batch has ended.
 */
async function browserTests(unitDone) {
  const seconds = lastDurations();
  const cost = (f) => seconds[f] ?? UNTIMED_S;
  const queue = fs
    .readdirSync(path.join(root, "test/e2e"))
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => `test/e2e/${f}`)
    .sort((a, b) => cost(b) - cost(a) || a.localeCompare(b));
  let unitEnded = false;
  const log = fs.createWriteStream(path.join(out, "e2e.log"));
  const pending = [];
  const show = (text) => (unitEnded ? process.stdout.write(text) : pending.push(text));
  const template = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-e2e-examples-"));
  const took = {};
  let ok = true;
  let batches = 0;

  const take = () => {
    const left = queue.reduce((sum, f) => sum + cost(f), 0);
    const target = unitEnded ? Math.max(BATCH_MIN_S, left / 4) : BATCH_ALONE_S;
    const files = [];
    let sum = 0;
    while (queue.length > 0 && (files.length === 0 || sum + cost(queue[0]) <= target)) {
      sum += cost(queue[0]);
      files.push(queue.shift());
    }
    return files;
  };
  const lane = async (index) => {
    for (let files = take(); files.length > 0; files = take()) {
      batches += 1;
      const run = await vitest("e2e", {
        files,
        name: `e2e-${batches}`,
        held: { log, show },
        extraEnv: {
          RUNLENS_E2E_EXAMPLES_TEMPLATE: template,
          // Below the kernel's ephemeral ports (32768 and up), one range per lane.
          RUNLENS_E2E_PORTS: index === 0 ? "20000-25999" : "26000-31999",
        },
      });
      ok &&= run.ok;
      for (const f of run.json?.testResults ?? [])
        if (f.endTime && f.startTime)
          took[path.relative(root, f.name)] = Math.round((f.endTime - f.startTime) / 100) / 10;
    }
  };

  const first = lane(0);
  await unitDone;
  unitEnded = true;
  for (const text of pending.splice(0)) process.stdout.write(text);
  await Promise.all([first, lane(1)]);
  log.end();
  fs.rmSync(template, { recursive: true, force: true });
  fs.writeFileSync(path.join(out, "e2e-durations.json"), JSON.stringify({ ...seconds, ...took }, null, 2));
  steps.push(`e2e: ${ok ? "ok" : "failed"} (${batches} batches)`);
}

const skipBuild = process.env.RUNLENS_SKIP_BUILD === "1" && built();
if (skipBuild) steps.push("build: skipped");
const unit = vitest("unit");
// The browser tests start as soon as the build is there, not after the unit tests: until then the
// second core did nothing once the build was done.
const browser = (async () => {
  const buildOk = skipBuild ? true : await build();
  if (buildOk && built()) await browserTests(unit);
  else {
    totals.failed += 1;
    steps.push("e2e: not run (no build)");
  }
})();
await Promise.all([unit, browser]);

fs.writeFileSync(path.join(out, "totals.json"), JSON.stringify(totals));
// In the order they start (they end in any order).
const order = ["unit", "build", "e2e"];
steps.sort((a, b) => order.indexOf(a.split(":")[0]) - order.indexOf(b.split(":")[0]));
console.log(`\n${steps.join(" · ")}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
