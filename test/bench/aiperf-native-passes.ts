// Times each pass of the aiperf records read, natively by DuckDB and by the line reader, on one
// profile_export.jsonl: wall time and process CPU (every thread, DuckDB's included), the minimum
// of --repeat runs. Run through jiti with the "@" alias (see test/bench/series.mjs):
//   JITI_ALIAS='{"@":"'$PWD'"}' node node_modules/jiti/lib/jiti-cli.mjs \
//     test/bench/aiperf-native-passes.ts <profile_export.jsonl> [--repeat 3] [--explain]
// --reads native:33554432,native:1e12,lines picks the whole reads timed: the reader and, for the
// native one, its part size in bytes (default: parts of 32 MB, one part, the line reader).
// Not part of `npm test` or `npm run bench`.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { IngestContext, IngestFile } from "@/lib/ingest/analyzer";
import { ingestRecordFileNative, nativeReadOptions } from "@/lib/ingest/analyzers/aiperf-native-ingest";
import { spoolJsonlParts, type SpoolPart } from "@/lib/ingest/jsonl-spool";
import { AiperfRequestStage } from "@/lib/store/columnar/aiperf-request-file";
import * as native from "@/lib/store/columnar/aiperf-records-native";
import { openConnection, quote } from "@/lib/store/columnar/engine";
import { runFileTmpPath } from "@/lib/store/columnar/run-files";
import { migrate, openSqlite } from "@/lib/store/db";
import { freshRecordSinks } from "../helpers/record-sinks";
import { BestTimes } from "./best-times";

const input = process.argv[2];
const at = process.argv.indexOf("--repeat");
const repeat = at > 0 ? Number(process.argv[at + 1]) : 3;
const MAX_LINE = 16 << 20;
const readsAt = process.argv.indexOf("--reads");
const reads = (readsAt > 0 ? process.argv[readsAt + 1] : "native:33554432,native:1e12,lines")
  .split(",")
  .map((r) => r.split(":"));

const times = new BestTimes();
const timed = <T>(name: string, fn: () => Promise<T>) => times.timed(name, fn);

(globalThis as { __passes?: unknown }).__passes = (k: string, c0: NodeJS.CpuUsage, t0: number) =>
  times.note(k, c0, t0);

/** The whole file spooled as one part, scanned as the native read scans it */
async function spool(file: IngestFile): Promise<SpoolPart> {
  let part: SpoolPart | null = null;
  await spoolJsonlParts(
    (await file.open()) as AsyncIterable<Buffer>,
    () => runFileTmpPath(db!, "jsonl"),
    {
      maxLineBytes: MAX_LINE,
      refused: ["NaN", "Infinity", "\\ud", "\\uD", "\\u0000"],
      counted: ['"request_start_ns"', '"request_end_ns"'],
      partBytes: Infinity,
    },
    (p) => (part = p),
  );
  return part!;
}
let db: IngestContext["db"] | null = null;

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-native-passes-"));
  const handle = openSqlite(path.join(dir, "bench.db"));
  await migrate(handle);
  db = handle.db;
  const ctx: IngestContext = {
    runId: "bench",
    db: handle.db,
    dialect: "sqlite",
    limits: { maxLineBytes: MAX_LINE, maxJsonDocumentBytes: 1 << 30 },
  };
  const file: IngestFile = {
    id: "f",
    ord: 0,
    name: "profile_export.jsonl",
    kind: "aiperf-records",
    format: "jsonl",
    bytes: fs.statSync(input).size,
    sha256: "x",
    open: async () => fs.createReadStream(input, { highWaterMark: 1 << 20 }),
  } as IngestFile;
  const sinks = (stage: AiperfRequestStage) => freshRecordSinks(stage);
  for (let r = 0; r < repeat; r++) {
    // The passes of the native read, one by one.
    const scan = await timed("1 spool + scan, one part", () => spool(file));
    const local = scan.path;
    const read = await timed("2 read_json → raw columns", () =>
      native.AiperfRecordsRead.open(handle.db, local, Math.max(16 << 20, scan.maxLine + 1024)),
    );
    await read.close();
    fs.rmSync(local, { force: true });
    // The whole native read (spool, read, feed, segment), then the request file's COPY.
    for (const [mode, part = ""] of reads) {
      process.env.RUNLENS_AIPERF_READ = mode;
      nativeReadOptions.partBytes = Number(part);
      const stage = new AiperfRequestStage(`bench-${mode}-${r}`, handle.db);
      await stage.open();
      const s = sinks(stage);
      await timed(`${mode} ${part}: whole read`, () => ingestRecordFileNative(file, ctx, s, stage));
      await timed(`${mode} ${part}: request file COPY`, () => stage.write(handle.db, 0));
    }
  }
  if (process.argv.includes("--explain")) {
    const local = (await spool(file)).path;
    const c = await openConnection();
    const text = (native as unknown as { rawSelect?: (j: string, m: number) => string }).rawSelect;
    if (text) {
      const out = await c.runAndReadAll(`explain analyze ${text(local, 16 << 20)}`);
      for (const row of out.getRowsJS()) console.log(String(row[1]));
    }
    const bare = await c.runAndReadAll(
      `explain analyze select count(*) from read_json(${quote(local)}, format = 'newline_delimited')`,
    );
    for (const row of bare.getRowsJS()) console.log(String(row[1]));
    c.closeSync();
    fs.rmSync(local, { force: true });
  }
  times.print(input, repeat);
  fs.rmSync(dir, { recursive: true, force: true });
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
