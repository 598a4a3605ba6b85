#!/usr/bin/env node
// The request timeline's first read on the server (docs/metrics.md §Request timeline), without a
// browser: a run of 1,000,000 aiperf rows (lanes by worker and by conversation) read from its
// rows, as a run stored before the timeline columns is, against its stored columns (one blob
// read and unpacked), each followed by the whole-run window the view asks for first.
//
//   node test/bench/timeline-read.mjs [--requests 1000000] [--rounds 3]
//
// The TypeScript sources run through jiti. Prints each round's wall and CPU times in ms and the
// blob's size.
// Not part of `npm test`.
import { numberOption, runTsChild, withTempDir } from "./ts-child.mjs";

const status = await withTempDir("runlens-timeline-read-", (dir) =>
  runTsChild("test/bench/timeline-read-child.ts", [
    dir,
    String(numberOption("--requests", 1_000_000)),
    String(numberOption("--rounds", 3)),
  ]),
);
process.exit(status);
