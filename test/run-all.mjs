#!/usr/bin/env node
/**
 * Runs every suite in order — unit and route-handler tests (plus PostgreSQL when
 * RUNLENS_TEST_DATABASE_URL is set), a production build, browser tests — and ends with one
 * line "N passed, N failed, N skipped" over all of them. Exit status is non-zero on any failure.
 */
import { spawnSync } from "node:child_process";
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

function vitest(project) {
  const report = path.join(out, `${project}.json`);
  fs.rmSync(report, { force: true });
  const r = spawnSync(
    bin("vitest"),
    ["run", "--project", project, "--reporter=default", "--reporter=json", `--outputFile.json=${report}`],
    {
      cwd: root,
      env,
      stdio: "inherit",
    },
  );
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
  }
  if (r.status !== 0 && (!counted || totals.failed === 0)) totals.failed += 1;
  steps.push(`${project}: ${r.status === 0 ? "ok" : "failed"}`);
  return r.status === 0;
}

function build() {
  const r = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
    cwd: root,
    env,
    stdio: "inherit",
  });
  if (r.status === 0) totals.passed += 1;
  else totals.failed += 1;
  steps.push(`build: ${r.status === 0 ? "ok" : "failed"}`);
  return r.status === 0;
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

vitest("unit");
if (process.env.RUNLENS_SKIP_BUILD === "1" && fs.existsSync(path.join(root, ".next", "BUILD_ID")))
  steps.push("build: skipped");
else build();
if (fs.existsSync(path.join(root, ".next", "BUILD_ID"))) vitest("e2e");
else {
  totals.failed += 1;
  steps.push("e2e: not run (no build)");
}

fs.writeFileSync(path.join(out, "totals.json"), JSON.stringify(totals));
console.log(`\n${steps.join(" · ")}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
