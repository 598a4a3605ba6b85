#!/usr/bin/env node
// Series page benchmark (docs/metrics.md §Regressions): the data of /series/{name} for a series of
// 30 runs of 1,000,000 requests each, first with run-level verdicts only (what the page opens
// with: stored headline figures), then with every latency verdict (a bootstrap over each run's
// requests against the pooled requests of the 10 runs before it).
//
//   node test/bench/series.mjs [--runs 30] [--requests 1000000]
//
// The TypeScript sources run through jiti; values are lognormal (TTFT median 60 ms), runs 20 and
// 26 are 10% slower in TTFT. Prints the time of each. Not part of `npm test`.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const opt = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-series-bench-"));
const res = spawnSync(
  process.execPath,
  [
    path.join(ROOT, "node_modules/jiti/lib/jiti-cli.mjs"),
    path.join(ROOT, "test/bench/series-child.ts"),
    dir,
    String(opt("--runs", 30)),
    String(opt("--requests", 1_000_000)),
  ],
  { cwd: ROOT, stdio: "inherit", env: { ...process.env, JITI_ALIAS: JSON.stringify({ "@": ROOT }) } },
);
fs.rmSync(dir, { recursive: true, force: true });
process.exit(res.status ?? 1);
