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
import { numberOption, runTsChild, withTempDir } from "./ts-child.mjs";

const status = await withTempDir("runlens-series-bench-", (dir) =>
  runTsChild("test/bench/series-child.ts", [
    dir,
    String(numberOption("--runs", 30)),
    String(numberOption("--requests", 1_000_000)),
  ]),
);
process.exit(status);
