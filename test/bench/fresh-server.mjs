#!/usr/bin/env node
// The server's side of a first visit (docs/performance.md, "Timeline first paint"): starts the
// built app fresh, waits for its own warm-up when it has one, and times page requests in turn,
// each from request to last byte, with the idle RSS. The runs are an aiperf upload of the
// default-size bench input, stored once in a data dir of its own and reused.
//
//   RUNLENS_DIST_DIR=.next-bench node test/bench/fresh-server.mjs [--rounds 2] [--port 3377]
//        [--paths "/runs/ID?view=timeline,/runs/ID?view=timeline"]   (ID: the stored run)
//   RUNLENS_WARM_UP=off …   the same without the server's warm-up
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { prepareInputs } from "./inputs.mjs";
import { readyTimes } from "./measure.mjs";
import { startServer } from "./server.mjs";
import { streamUpload } from "./upload.mjs";

function arg(name, dflt) {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? dflt : process.argv[i + 1];
}

const distDir = process.env.RUNLENS_DIST_DIR || ".next-bench";
const port = Number(arg("port", "3377"));
const rounds = Number(arg("rounds", "2"));
const paths = arg("paths", "/runs/ID?view=timeline,/runs/ID?view=timeline").split(",");
const dataDir = path.join(os.tmpdir(), `runlens-fresh-server-${distDir.replace(/\W/g, "")}`);
const runFile = path.join(dataDir, "bench-run-id");

if (!fs.existsSync(runFile)) {
  fs.mkdirSync(dataDir, { recursive: true });
  const [input] = await prepareInputs("default", ["aiperf"]);
  const s = await startServer({ distDir, port, dataDir });
  try {
    const up = await streamUpload(s.url, input.files, { name: "fresh-server bench" });
    await readyTimes(s.url, up.body.id, up.startedAt);
    fs.writeFileSync(runFile, up.body.id);
  } finally {
    await s.stop();
  }
}
const id = fs.readFileSync(runFile, "utf8");
for (let round = 0; round < rounds; round++) {
  const s = await startServer({ distDir, port, dataDir });
  try {
    const until = Date.now() + 60_000;
    while (process.env.RUNLENS_WARM_UP !== "off" && !/warmed/.test(s.logs()) && Date.now() < until)
      await new Promise((r) => setTimeout(r, 100));
    const warm = s.logs().match(/warmed the run page in \d+ ms/)?.[0] ?? "no warm-up";
    await new Promise((r) => setTimeout(r, 500));
    const rss = Number(fs.readFileSync(`/proc/${s.pid}/status`, "utf8").match(/VmRSS:\s+(\d+)/)[1]) / 1024;
    const times = [];
    for (const p of paths.map((x) => x.replace("ID", id))) {
      const t0 = performance.now();
      const res = await fetch(s.url + p);
      await res.arrayBuffer();
      times.push(`${p.replace(id, "ID")} ${res.status} ${Math.round(performance.now() - t0)} ms`);
    }
    console.log(`${warm}; idle RSS ${rss.toFixed(0)} MiB | ${times.join(" | ")}`);
  } finally {
    await s.stop();
  }
}
