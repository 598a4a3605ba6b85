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
