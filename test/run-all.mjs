#!/usr/bin/env node
/**
 * Runs every suite — unit and route-handler tests (plus PostgreSQL when RUNLENS_TEST_DATABASE_URL
 * is set) while the production build and then the browser tests on that build run beside them
 * (vitest gives the unit tests one worker on a 2-core machine: the build, then the browser tests,
 * take the other core) — and ends with one line "N passed, N failed, N skipped" over all of them.
 * The browser tests' output is held back while the unit tests print, then shown; all of it is also
 * in test-results/e2e.log. Before the closing line it names every failed test (file, test, the
 * error's first line), so the last lines of a long log say what failed. Exit status is non-zero on
 * any failure.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const out = path.join(root, "test-results");
fs.mkdirSync(out, { recursive: true });
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };
const bin = (name) => path.join(root, "node_modules", ".bin", name);

const totals = { passed: 0, failed: 0, skipped: 0 };
const steps = [];
/** One line per failed test or file that failed to load: "project › file › test: first error line". */
const failures = [];

/** The failures a vitest JSON report names, added to `failures`. */
function listFailures(project, json) {
  const firstLine = (messages) =>
    String((messages ?? [])[0] ?? "")
      .replace(/\u001b\[[0-9;]*m/g, "")
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.trim()
      .slice(0, 240) ?? "";
  for (const file of json.testResults ?? []) {
    const name = path.relative(root, file.name ?? "");
    const failed = (file.assertionResults ?? []).filter((t) => t.status === "failed");
    for (const t of failed)
      failures.push(`${project} › ${name} › ${t.fullName ?? t.title}: ${firstLine(t.failureMessages)}`);
    if (file.status === "failed" && failed.length === 0)
      failures.push(`${project} › ${name}: ${firstLine([file.message])}`);
  }
}

/**
 * Runs vitest projects in one process, named `step` (its report test-results/<step>.json);
 * resolves with whether they passed, their tests counted in totals. With `held`, the output goes
 * to test-results/<step>.log and is shown on the terminal only once `held.until` has resolved
 * (what it printed before, then the rest as it comes).
 */
async function vitest(step, projects, held) {
  const report = path.join(out, `${step}.json`);
  fs.rmSync(report, { force: true });
  const child = spawn(
    bin("vitest"),
    [
      "run",
      ...projects.flatMap((p) => ["--project", p]),
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${report}`,
    ],
    { cwd: root, env, stdio: held ? ["ignore", "pipe", "pipe"] : "inherit" },
  );
  if (held) {
    const log = fs.createWriteStream(path.join(out, `${step}.log`));
    const pending = [];
    let showing = false;
    const pass = (to) => (chunk) => {
      log.write(chunk);
      if (showing) to.write(chunk);
      else pending.push([to, chunk]);
    };
    child.stdout.on("data", pass(process.stdout));
    child.stderr.on("data", pass(process.stderr));
    held.until.then(() => {
      for (const [to, chunk] of pending.splice(0)) to.write(chunk);
      showing = true;
    });
    child.on("close", () => log.end());
  }
  const status = await new Promise((resolve) => child.on("close", (code) => resolve(code)));
  let counted = false;
  if (fs.existsSync(report)) {
    const json = JSON.parse(fs.readFileSync(report, "utf8"));
    totals.passed += json.numPassedTests ?? 0;
    totals.failed += json.numFailedTests ?? 0;
    totals.skipped += (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
    counted = true;
    // A suite that failed to load has no failed test but a failed file: count it.
    const brokenFiles = (json.testResults ?? []).filter(
      (f) => f.status === "failed" && (f.assertionResults ?? []).length === 0,
    ).length;
    totals.failed += brokenFiles;
    listFailures(step, json);
  }
  if (status !== 0 && (!counted || totals.failed === 0)) {
    totals.failed += 1;
    failures.push(`${step}: vitest exited with ${status} and no failed test in its report`);
  }
  steps.push(`${step}: ${status === 0 ? "ok" : "failed"}`);
  return status === 0;
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
    failures.push(`build: next build exited with ${status} (${path.relative(root, logFile)})`);
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

const skipBuild = process.env.RUNLENS_SKIP_BUILD === "1" && built();
if (skipBuild) steps.push("build: skipped");
// The unit files that share a worker and those that get one each (vitest.config.mts), in one
// vitest process: one report, one worker between them.
const unit = vitest("unit", ["unit", "unit-isolated"]);
// The browser tests start as soon as the build is there, not after the unit tests: until then the
// second core did nothing once the build was done.
const browser = (async () => {
  const buildOk = skipBuild ? true : await build();
  if (buildOk && built()) await vitest("e2e", ["e2e"], { until: unit });
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
if (failures.length > 0) console.log(`\nFailed:\n${failures.map((f) => `  ${f}`).join("\n")}`);
console.log(`\n${steps.join(" · ")}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
