// Times an aiperf run's ingest in one process, without a server or upload: the records file read
// by the run's analyzers (`IngestSession.ingest`, the line reader and its parse thread by
// default), then `IngestSession.finish` up to "summary ready" (every analyzer's `finish`, the
// request file's COPY, the merge and the commit), then the drill-down. Wall time and process CPU
// (every thread), the minimum of --repeat runs, each on a fresh SQLite data dir:
//   JITI_ALIAS='{"@":"'$PWD'"}' node node_modules/jiti/lib/jiti-cli.mjs \
//     test/bench/aiperf-summary-path.ts <profile_export.jsonl> [--repeat 3] [--windows <file.json>]
// Make the bench's default input (200,000 records, 126 MB) with
//   node -e 'import("./test/generators/aiperf.mjs").then((m) =>
//     m.generateAiperfRun("/tmp/aiperf-200k", { records: 200000, csv: false }))'
// With `node --cpu-prof --cpu-prof-dir <dir>` (in place of `node`) and test/bench/cpu-top.mjs the
// main thread's profile shows where each step's time goes; --windows writes the finish steps'
// intervals for its --windows, --read-windows the records reads'; BENCH_TRACE=1 names each step on stderr as it starts. Memory is
// sampled every 20 ms: each step's peak RSS, peak heapUsed and peak external (arrayBuffers) over
// the process's own figures just before the ingest (the app context open, no records read), the
// maximum over the runs (memory, unlike time, is not disturbed by other processes' load); with
// --heap-snapshot <dir> a heap snapshot is written when the ingest's heapUsed first passes
// --snapshot-mb (default 100). Not part of `npm test` or `npm run bench`.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import v8 from "node:v8";
import type { IngestFile } from "@/lib/ingest/analyzer";
import { IngestSession } from "@/lib/ingest/ingest-run";
import { drilldownsSettled } from "@/lib/ingest/drilldown";
import { createAppContext } from "@/lib/server/app-context";
import { readConfig } from "@/lib/server/config";
import { AGGREGATOR_VERSION } from "@/lib/ingest/version";
import { queryRows } from "@/lib/store/columnar/engine";
import { insertRun, type FileRow } from "@/lib/store/runs-repo";

const input = process.argv[2];
const at = process.argv.indexOf("--repeat");
const repeat = at > 0 ? Number(process.argv[at + 1]) : 3;
const windowsAt = process.argv.indexOf("--windows");
const readWindowsAt = process.argv.indexOf("--read-windows");
/** Each finish's interval, and each records read's, for `cpu-top.mjs --windows` */
const windows: Array<{ startUs: number; endUs: number }> = [];
const readWindows: Array<{ startUs: number; endUs: number }> = [];
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

const snapshotAt = process.argv.indexOf("--heap-snapshot");
const snapshotDir = snapshotAt > 0 ? process.argv[snapshotAt + 1] : null;
const mbAt = process.argv.indexOf("--snapshot-mb");
const snapshotMb = mbAt > 0 ? Number(process.argv[mbAt + 1]) : 100;
let snapshotTaken = false;

/** Peaks of one step, in bytes over the baseline */
type Peak = { rss: number; heap: number; external: number; arrayBuffers: number };
const peaks = new Map<string, Peak>();
let baseline = process.memoryUsage();
let current: Peak | null = null;
function sample(): void {
  if (!current) return;
  const m = process.memoryUsage();
  current.rss = Math.max(current.rss, m.rss - baseline.rss);
  current.heap = Math.max(current.heap, m.heapUsed - baseline.heapUsed);
  current.external = Math.max(current.external, m.external - baseline.external);
  current.arrayBuffers = Math.max(current.arrayBuffers, m.arrayBuffers - baseline.arrayBuffers);
  if (snapshotDir && !snapshotTaken && current.heap > snapshotMb * 2 ** 20) {
    snapshotTaken = true;
    console.error(`heap snapshot: ${v8.writeHeapSnapshot(path.join(snapshotDir, "ingest.heapsnapshot"))}`);
  }
}
setInterval(sample, 20).unref();

/** DuckDB's own use (`duckdb_memory()`: its buffers, in memory and spilled), polled every 100 ms */
const duck = new Map<string, { memory: number; temp: number }>();
let duckStep: string | null = null;
async function pollDuck(): Promise<void> {
  for (;;) {
    await new Promise((r) => setTimeout(r, 100).unref());
    if (!duckStep) continue;
    const [row] = await queryRows<{ memory: number; temp: number }>(
      "select sum(memory_usage_bytes)::double as memory, sum(temporary_storage_bytes)::double as temp from duckdb_memory()",
    ).catch(() => [{ memory: 0, temp: 0 }]);
    const d = duck.get(duckStep) ?? { memory: 0, temp: 0 };
    duck.set(duckStep, { memory: Math.max(d.memory, row.memory), temp: Math.max(d.temp, row.temp) });
  }
}
void pollDuck();

type Took = { wall: number; cpu: number };
const best = new Map<string, Took>();
async function timed<T>(name: string, fn: () => Promise<T>): Promise<T> {
  if (process.env.BENCH_TRACE) console.error(`… ${name}`);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  current = { rss: 0, heap: 0, external: 0, arrayBuffers: 0 };
  duckStep = name;
  const r = await fn();
  duckStep = null;
  sample();
  const p = peaks.get(name);
  peaks.set(
    name,
    p
      ? {
          rss: Math.max(p.rss, current.rss),
          heap: Math.max(p.heap, current.heap),
          external: Math.max(p.external, current.external),
          arrayBuffers: Math.max(p.arrayBuffers, current.arrayBuffers),
        }
      : current,
  );
  current = null;
  const wall = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  const cpu = (c.user + c.system) / 1e6;
  const b = best.get(name);
  best.set(name, { wall: Math.min(b?.wall ?? Infinity, wall), cpu: Math.min(b?.cpu ?? Infinity, cpu) });
  return r;
}

async function once(r: number): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-summary-path-"));
  process.env.DATA_DIR = dir;
  process.env.DATABASE_URL = "";
  const app = await createAppContext({ ...readConfig(), drilldown: "background" });
  try {
    const runId = `bench${r}`;
    const bytes = fs.statSync(input).size;
    const row: FileRow = {
      id: "f0",
      run_id: runId,
      ord: 0,
      name: "profile_export.jsonl",
      kind: "aiperf-records",
      format: "jsonl",
      bytes,
      sha256: "0".repeat(64),
      records: 0,
      skipped: 0,
      warnings: "[]",
      meta: "{}",
    };
    await insertRun(
      app.store.db,
      { id: runId, name: "bench", labels: [], createdAt: Date.now(), aggregatorVersion: AGGREGATOR_VERSION },
      [row],
    );
    const file = {
      id: row.id,
      ord: 0,
      name: row.name,
      kind: "aiperf-records",
      format: "jsonl",
      bytes,
      sha256: row.sha256,
      open: async () => fs.createReadStream(input, { highWaterMark: 1 << 20 }),
    } as IngestFile;
    const session = new IngestSession(app, runId);
    await session.begin();
    (globalThis as { gc?: () => void }).gc?.();
    baseline = process.memoryUsage();
    if (r === 0)
      console.log(
        `before the ingest: RSS ${mb(baseline.rss)} MB, heapUsed ${mb(baseline.heapUsed)} MB, ` +
          `external ${mb(baseline.external)} MB (arrayBuffers ${mb(baseline.arrayBuffers)} MB)`,
      );
    const readUs = nowUs();
    await timed("1 records read (ingest)", () => session.ingest(file));
    readWindows.push({ startUs: readUs, endUs: nowUs() });
    const startUs = nowUs();
    const outcome = await timed("2 finish → summary ready", () => session.finish([row]));
    windows.push({ startUs, endUs: nowUs() });
    if (outcome.status !== "ready") throw new Error(`ingest ${outcome.status}: ${outcome.warnings}`);
    await timed("3 drill-down", () => drilldownsSettled());
  } finally {
    app.stop();
    // Not closed: on this machine a close could leave nothing for the event loop to wait on, and
    // the script ended there without its table. The data dir goes; the process ends after the table.
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const mb = (b: number) => (b / 2 ** 20).toFixed(0);

async function main() {
  for (let r = 0; r < repeat; r++) await once(r);
  if (windowsAt > 0) fs.writeFileSync(process.argv[windowsAt + 1], JSON.stringify(windows));
  if (readWindowsAt > 0) fs.writeFileSync(process.argv[readWindowsAt + 1], JSON.stringify(readWindows));
  console.log(`input ${input}, ${repeat} runs, minimum of each (wall s / CPU s, all threads):`);
  for (const [k, v] of best)
    console.log(`${k.padEnd(32)} ${v.wall.toFixed(2).padStart(6)}  ${v.cpu.toFixed(2).padStart(6)}`);
  console.log("peak over the baseline, MB (maximum of the runs): RSS / heapUsed / external / arrayBuffers");
  for (const [k, v] of peaks)
    console.log(
      `${k.padEnd(32)} ${[v.rss, v.heap, v.external, v.arrayBuffers].map((x) => mb(x).padStart(6)).join("  ")}`,
    );
  console.log("DuckDB's peak (duckdb_memory(), polled every 100 ms), MB: in memory / spilled");
  for (const [k, v] of duck)
    console.log(`${k.padEnd(32)} ${mb(v.memory).padStart(6)}  ${mb(v.temp).padStart(6)}`);
  console.log(
    `load: ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}`,
  );
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
