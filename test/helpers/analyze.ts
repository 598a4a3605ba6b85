/** Runs one analyzer end to end on files from disk, without the server: the harness of the analyzer tests. */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { detectKind, DETECT_HEAD_BYTES } from "@/lib/formats/detect";
import type { Analyzer, AnalyzerResult, FileReport, IngestContext, IngestFile } from "@/lib/ingest/analyzer";
import { migrate, openSqlite, type DbHandle } from "@/lib/store/db";

/** An IngestFile for a file on disk, its kind detected the way the upload does. */
export function diskIngestFile(filePath: string, ord = 0, name = path.basename(filePath)): IngestFile {
  const buf = fs.readFileSync(filePath);
  const detected = detectKind(buf.subarray(0, DETECT_HEAD_BYTES), buf.length <= DETECT_HEAD_BYTES);
  return {
    id: `f${ord}`,
    ord,
    name,
    kind: detected.kind,
    format: detected.format,
    bytes: buf.length,
    sha256: createHash("sha256").update(buf).digest("hex"),
    open: async () => fs.createReadStream(filePath),
  };
}

/** The ingest context of run "r1" on a migrated store, with the default line and document limits. */
export function ingestContext(handle: DbHandle): IngestContext {
  return {
    runId: "r1",
    db: handle.db,
    dialect: handle.dialect,
    limits: { maxLineBytes: 64 << 20, maxJsonDocumentBytes: 256 << 20 },
  };
}

export interface AnalyzedRun {
  handle: DbHandle;
  ctx: IngestContext;
  reports: FileReport[];
  result: AnalyzerResult;
  /** Names of the files the analyzer accepted */
  accepted: string[];
}

/**
 * Streams `files` (in order) through `analyzer` on a fresh in-memory store (or on `handle`,
 * migrated here) and finishes it. A file the analyzer refuses fails the run unless `skipRefused`
 * is set.
 */
export async function runAnalyzer(
  analyzer: Analyzer,
  files: IngestFile[],
  options: { skipRefused?: boolean; handle?: DbHandle } = {},
): Promise<AnalyzedRun> {
  const handle = options.handle ?? openSqlite(":memory:");
  await migrate(handle);
  const ctx = ingestContext(handle);
  const reports: FileReport[] = [];
  const accepted: string[] = [];
  for (const f of files) {
    if (!analyzer.accepts(f)) {
      if (options.skipRefused) continue;
      throw new Error(`${analyzer.name} analyzer refused ${f.name} (${f.kind}/${f.format})`);
    }
    accepted.push(f.name);
    reports.push(await analyzer.ingestFile(f, ctx));
  }
  return { handle, ctx, reports, accepted, result: await finishWithDrilldown(analyzer, ctx) };
}

/**
 * `analyzer.finish` followed by its drill-down step, as an ingest runs them (the summary first,
 * then the rows the drill-down reads and the charts it returns, merged into the result's).
 */
export async function finishWithDrilldown(analyzer: Analyzer, ctx: IngestContext): Promise<AnalyzerResult> {
  const { drilldown, ...result } = await analyzer.finish(ctx);
  if (!drilldown) return result;
  return { ...result, charts: { ...result.charts, ...(await drilldown()) } };
}
