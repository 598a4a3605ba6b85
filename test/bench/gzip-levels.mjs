#!/usr/bin/env node
/**
 * The background gzip of a stored upload at several zlib levels (lib/store/blob-encoding.ts,
 * docs/performance.md §Data dir growth): a generated aiperf run (test/generators/aiperf.mjs),
 * each file gzipped through zlib's stream API (its work on the thread pool, the event loop free),
 * one level after another; bytes out, wall time and the process's CPU time for each.
 *
 *   node test/bench/gzip-levels.mjs [--records 100000] [--levels 1,6,9]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { generateAiperfRun } from "../generators/aiperf.mjs";

const arg = (name, fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const records = Number(arg("--records", "100000"));
const levels = arg("--levels", "1,6,9").split(",").map(Number);

/** Bytes gzip writes for `files` at `level`, as the store writes them (256 KiB output pieces). */
async function gzipped(files, level) {
  let bytes = 0;
  for (const file of files)
    await pipeline(
      fs.createReadStream(file, { highWaterMark: 1 << 20 }),
      createGzip({ level, chunkSize: 256 << 10 }),
      new Writable({
        write(chunk, _enc, done) {
          bytes += chunk.length;
          done();
        },
      }),
    );
  return bytes;
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-gzip-levels-"));
try {
  await generateAiperfRun(work, { records, csv: false });
  const files = fs.readdirSync(work).map((n) => path.join(work, n));
  const input = files.reduce((s, f) => s + fs.statSync(f).size, 0);
  console.log(`input: ${records.toLocaleString("en")} records, ${input.toLocaleString("en")} B`);
  // Once unmeasured, so the first level measured does not also pay for a cold page cache.
  await gzipped(files, 1);
  for (const level of levels) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const bytes = await gzipped(files, level);
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    console.log(
      `  level ${level}: ${bytes.toLocaleString("en").padStart(12)} B (${(bytes / input).toFixed(3)}× the input), ` +
        `${wall.toFixed(0)} ms wall, ${((cpu.user + cpu.system) / 1000).toFixed(0)} ms CPU`,
    );
  }
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
