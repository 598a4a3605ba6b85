import fs from "node:fs";
import path from "node:path";
import { detectKind, DETECT_HEAD_BYTES } from "@/lib/formats/detect";
import type { AnalyzerResult, FileReport, IngestContext, IngestFile } from "@/lib/ingest/analyzer";
import { aiperfAnalyzer } from "@/lib/ingest/analyzers/aiperf";
import { migrate, openSqlite, type DbHandle } from "@/lib/store/db";

export const AIPERF_FIXTURES = path.resolve(__dirname, "../fixtures/aiperf");

/** An IngestFile for a file on disk, its kind detected the way the upload does. */
export function diskFile(filePath: string, name = path.basename(filePath), ord = 0): IngestFile {
  const buf = fs.readFileSync(filePath);
  const head = buf.subarray(0, DETECT_HEAD_BYTES);
  const detected = detectKind(head, buf.length <= DETECT_HEAD_BYTES);
  return {
    id: `f${ord}`,
    ord,
    name,
    kind: detected.kind,
    format: detected.format,
    bytes: buf.length,
    sha256: "",
    open: async () => fs.createReadStream(filePath),
  };
}

export interface AnalyzedRun {
  handle: DbHandle;
  ctx: IngestContext;
  reports: FileReport[];
  result: AnalyzerResult;
}

/** Runs the aiperf analyzer over files (in order) on a fresh in-memory store. */
export async function analyze(files: IngestFile[]): Promise<AnalyzedRun> {
  const handle = openSqlite(":memory:");
  await migrate(handle);
  const ctx: IngestContext = {
    runId: "r1",
    db: handle.db,
    dialect: "sqlite",
    limits: { maxLineBytes: 64 << 20, maxJsonDocumentBytes: 256 << 20 },
  };
  const a = aiperfAnalyzer();
  const reports: FileReport[] = [];
  for (const f of files) {
    if (!a.accepts(f)) throw new Error(`aiperf analyzer refused ${f.name} (${f.kind})`);
    reports.push(await a.ingestFile(f, ctx));
  }
  return { handle, ctx, reports, result: await a.finish(ctx) };
}

export function fixtureFile(name: string, ord = 0, uploadName = name): IngestFile {
  return diskFile(path.join(AIPERF_FIXTURES, name), uploadName, ord);
}
