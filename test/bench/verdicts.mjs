#!/usr/bin/env node
// Verdict benchmark (docs/metrics.md §Regressions): a 1,000,000-request run judged against a
// 1,000,000-request baseline, every default latency verdict (TTFT, ITL, E2E at mean, p50, p90,
// p99), through judgeRun (the verdicts route's service), from reading the per-request values out
// of SQLite to the last interval.
//
//   node test/bench/verdicts.mjs [--requests 1000000] [--no-rows] [--store sqlite|postgres]
//
// --store postgres uses a fresh schema at RUNLENS_BENCH_PG_URL, dropped after.
// The TypeScript sources run through jiti; the values are lognormal (TTFT median 60 ms) and the
// run's TTFT is 10% slower. Both runs are stored as an ingest stores them: request rows plus one
// sorted value blob per metric. The verdicts are timed from the blobs, then (unless --no-rows)
// with the blobs dropped, as for a run ingested before they existed, read from its rows. Each
// phase runs in its own process and prints its time and peak RSS. Not part of `npm test`.
import { dropPgSchema, freshPgSchema } from "./pg.mjs";
import { numberOption, runTsChild, withTempDir } from "./ts-child.mjs";

const requests = numberOption("--requests", 1_000_000);
const phases = ["setup", "blobs", ...(process.argv.includes("--no-rows") ? [] : ["rows"])];
const storeArg = process.argv.indexOf("--store");
const pgUrl =
  storeArg > 0 && process.argv[storeArg + 1] === "postgres" ? process.env.RUNLENS_BENCH_PG_URL : null;
if (storeArg > 0 && process.argv[storeArg + 1] === "postgres" && !pgUrl) {
  console.error("--store postgres needs RUNLENS_BENCH_PG_URL");
  process.exit(2);
}
const pgEnv = pgUrl ? { BENCH_PG_URL: pgUrl, BENCH_PG_SCHEMA: await freshPgSchema(pgUrl) } : {};
const status = await withTempDir("runlens-verdict-bench-", (dir) => {
  for (const phase of phases) {
    const code = runTsChild("test/bench/verdicts-child.ts", [dir, String(requests), phase], pgEnv);
    if (code !== 0) return code;
  }
  return 0;
});
if (pgUrl) await dropPgSchema(pgUrl, pgEnv.BENCH_PG_SCHEMA);
process.exit(status);
