/** Test helper: runs the TensorRT-LLM analyzer over files on a fresh in-memory store. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { onTestFinished } from "vitest";
import type { IngestFile } from "@/lib/ingest/analyzer";
import { trtllmAnalyzer } from "@/lib/ingest/analyzers/trtllm";
import { diskIngestFile, runAnalyzer, type AnalyzedRun } from "../helpers/analyze";

export const TRTLLM_FIXTURES = path.resolve(__dirname, "../fixtures/trtllm");

export function trtllmDiskFile(filePath: string, ord = 0, name = path.basename(filePath)): IngestFile {
  return diskIngestFile(filePath, ord, name);
}

/** Writes `content` to a temporary file and returns it as an IngestFile. */
export function trtllmTextFile(name: string, content: string, ord = 0): IngestFile {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-trtllm-"));
  const p = path.join(dir, name);
  fs.writeFileSync(p, content);
  return trtllmDiskFile(p, ord, name);
}

export type TrtllmRun = AnalyzedRun;

/** Analyzes `files` inside a test; the run's store is closed when that test finishes. */
export async function analyzeTrtllm(files: IngestFile[]): Promise<TrtllmRun> {
  const run = await runAnalyzer(trtllmAnalyzer(), files);
  onTestFinished(() => run.handle.close());
  return run;
}
