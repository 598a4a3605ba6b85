#!/usr/bin/env node
// Where the server's resident memory goes at the peak of an upload: the built server (as
// `npm run bench` starts it) with test/bench/memory-probe.mjs loaded into it and into each of its
// worker threads, idle after the warm-up and then during one upload of each input. At the moment
// the RSS peaked it prints RSS (anonymous / file-backed), each thread's V8 heap (used / committed)
// and the external and ArrayBuffer memory; what anonymous memory is left is native (SQLite's page
// cache, malloc arenas, thread stacks). Not part of `npm test`; `npm run bench` remains the
// measurement of record (docs/performance.md, "Peak memory during ingest").
//
//   node test/bench/memory-breakdown.mjs [--kinds aiperf,server-metrics-json] [--dist .next-bench]
//                                        [--port 3117] [--flags "--max-semi-space-size=4 …"]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { prepareInputs } from "./inputs.mjs";
import { ensureBuild, ROOT, startServer } from "./server.mjs";
import { streamUpload } from "./upload.mjs";
import { warmUp } from "./warm-up.mjs";

function arg(name, dflt) {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? dflt : process.argv[i + 1];
}

const kinds = arg("kinds", "aiperf,server-metrics-json").split(",");
const distDir = arg("dist", process.env.RUNLENS_DIST_DIR || ".next-bench");
const port = Number(arg("port", "3117"));
// V8 flags in place of bin/node-flags.mjs's, e.g. --flags "--max-semi-space-size=4 --heap-growing-percent=20"
const flagsArg = arg("flags", null);
const nodeFlags = flagsArg === null ? undefined : flagsArg.split(" ").filter(Boolean);
const MB = (b) => (b / 1e6).toFixed(0);

function status(pid) {
  const text = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (f) => Number(text.match(new RegExp(`^${f}:\\s+(\\d+) kB`, "m"))?.[1] ?? 0) * 1024;
  return { rss: kb("VmRSS"), anon: kb("RssAnon"), file: kb("RssFile") };
}

/** CPU seconds the process has used (user + system, all threads). */
function cpuSeconds(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function readProbes(dir) {
  return fs
    .readdirSync(dir)
    .map((f) => {
      try {
        return JSON.parse(fs.readFileSync(path.join(dir, f), "utf8"));
      } catch {
        return null;
      }
    })
    .filter(Boolean);
}

/** Each thread's last sample at or before time t: [used, committed, external, arrayBuffers, malloced]. */
function threadsAt(probes, t) {
  const names = new Map();
  for (const p of probes) for (const s of p.scripts) names.set(s.threadId, path.basename(s.script));
  return probes
    .map((p) => {
      const before = p.samples.filter((s) => s[0] <= t);
      const s = before[before.length - 1];
      return s && t - s[0] < 2000
        ? { name: p.isMainThread ? "main" : (names.get(p.threadId) ?? `thread ${p.threadId}`), s }
        : null;
    })
    .filter(Boolean);
}

function print(label, st, threads) {
  let heap = 0;
  let ext = 0;
  const parts = threads.map(({ name, s }) => {
    heap += s[2];
    ext += s[3];
    return `${name} heap ${MB(s[1])}/${MB(s[2])} ext ${MB(s[3])} (ab ${MB(s[4])}) malloc ${MB(s[5])}`;
  });
  console.log(
    `${label}: RSS ${MB(st.rss)} MB = anon ${MB(st.anon)} + file ${MB(st.file)}; ` +
      `V8 heaps committed ${MB(heap)}, external ${MB(ext)}, other anon ${MB(st.anon - heap - ext)}`,
  );
  for (const p of parts) console.log(`    ${p}`);
}

const probeDir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-memory-probe-"));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-memory-data-"));
ensureBuild(distDir);
const inputs = await prepareInputs("default", kinds);
process.env.NODE_OPTIONS = `--import=${path.join(ROOT, "test/bench/memory-probe.mjs")}`;
process.env.RUNLENS_MEMORY_PROBE_DIR = probeDir;
const server = await startServer({ distDir, port, dataDir, nodeFlags });
delete process.env.NODE_OPTIONS;
try {
  await warmUp(server.url);
  await new Promise((r) => setTimeout(r, 3000));
  print("idle after warm-up", status(server.pid), threadsAt(readProbes(probeDir), Date.now()));
  for (const input of inputs) {
    const cpu0 = cpuSeconds(server.pid);
    let peak = { ...status(server.pid), t: Date.now() };
    const timer = setInterval(() => {
      const st = status(server.pid);
      if (st.rss > peak.rss) peak = { ...st, t: Date.now() };
    }, 20);
    const up = await streamUpload(server.url, input.files, { name: `memory ${input.kind}` });
    clearInterval(timer);
    const cpu = cpuSeconds(server.pid) - cpu0;
    await new Promise((r) => setTimeout(r, 2500));
    print(
      `${input.kind} (${MB(input.bytes)} MB, ${up.seconds.toFixed(1)} s, CPU ${cpu.toFixed(1)} s, ${up.body.status}) at the RSS peak`,
      peak,
      threadsAt(readProbes(probeDir), peak.t),
    );
  }
} finally {
  await server.stop();
  fs.rmSync(probeDir, { recursive: true, force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
}
