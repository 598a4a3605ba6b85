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
// intervals for its --windows; BENCH_TRACE=1 names each step on stderr as it starts. Not part of
// `npm test` or `npm run bench`.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { IngestFile } from "@/lib/ingest/analyzer";
import { IngestSession } from "@/lib/ingest/ingest-run";
import { drilldownsSettled } from "@/lib/ingest/drilldown";
import { createAppContext } from "@/lib/server/app-context";
import { readConfig } from "@/lib/server/config";
import { AGGREGATOR_VERSION } from "@/lib/ingest/version";
import { insertRun, type FileRow } from "@/lib/store/runs-repo";
import { BestTimes } from "./best-times";

const input = process.argv[2];
const at = process.argv.indexOf("--repeat");
const repeat = at > 0 ? Number(process.argv[at + 1]) : 3;
const windowsAt = process.argv.indexOf("--windows");
/** Each finish's interval, for `cpu-top.mjs --windows` */
const windows: Array<{ startUs: number; endUs: number }> = [];
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

const times = new BestTimes();
function timed<T>(name: string, fn: () => Promise<T>): Promise<T> {
  if (process.env.BENCH_TRACE) console.error(`… ${name}`);
  return times.timed(name, fn);
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
    await timed("1 records read (ingest)", () => session.ingest(file));
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

async function main() {
  for (let r = 0; r < repeat; r++) await once(r);
  if (windowsAt > 0) fs.writeFileSync(process.argv[windowsAt + 1], JSON.stringify(windows));
  times.print(input, repeat);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
