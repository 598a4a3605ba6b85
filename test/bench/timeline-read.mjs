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
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-timeline-read-"));
const res = spawnSync(
  process.execPath,
  [
    path.join(ROOT, "node_modules/jiti/lib/jiti-cli.mjs"),
    path.join(ROOT, "test/bench/timeline-read-child.ts"),
    dir,
    String(opt("--requests", 1_000_000)),
    String(opt("--rounds", 3)),
  ],
  { cwd: ROOT, stdio: "inherit", env: { ...process.env, JITI_ALIAS: JSON.stringify({ "@": ROOT }) } },
);
fs.rmSync(dir, { recursive: true, force: true });
process.exit(res.status ?? 1);
