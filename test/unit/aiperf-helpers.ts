import path from "node:path";
import type { IngestFile } from "@/lib/ingest/analyzer";
import { aiperfAnalyzer } from "@/lib/ingest/analyzers/aiperf";
import { diskIngestFile, runAnalyzer, type AnalyzedRun } from "../helpers/analyze";

export const AIPERF_FIXTURES = path.resolve(__dirname, "../fixtures/aiperf");

/** An IngestFile for a file on disk, its kind detected the way the upload does. */
export function diskFile(filePath: string, name = path.basename(filePath), ord = 0): IngestFile {
  return diskIngestFile(filePath, ord, name);
}

export type { AnalyzedRun };

/** Runs the aiperf analyzer over files (in order) on a fresh in-memory store. */
export async function analyze(files: IngestFile[]): Promise<AnalyzedRun> {
  return runAnalyzer(aiperfAnalyzer(), files);
}

export function fixtureFile(name: string, ord = 0, uploadName = name): IngestFile {
  return diskFile(path.join(AIPERF_FIXTURES, name), uploadName, ord);
}

/** A generated aiperf run's records and JSON summary, uploaded as aiperf names them inside `folder`. */
export function generatedFiles(
  gen: { jsonlPath: string; summaryPath: string },
  folder = "",
  ord = 0,
): IngestFile[] {
  return [
    diskFile(gen.jsonlPath, `${folder}profile_export.jsonl`, ord),
    diskFile(gen.summaryPath, `${folder}profile_export_aiperf.json`, ord + 1),
  ];
}
