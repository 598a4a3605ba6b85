/** Test helper: runs the TensorRT-LLM analyzer over files on a fresh in-memory store. */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { detectKind, DETECT_HEAD_BYTES } from "@/lib/formats/detect";
import type { AnalyzerResult, FileReport, IngestContext, IngestFile } from "@/lib/ingest/analyzer";
import { trtllmAnalyzer } from "@/lib/ingest/analyzers/trtllm";
import { migrate, openSqlite, type DbHandle } from "@/lib/store/db";

export const TRTLLM_FIXTURES = path.resolve(__dirname, "../fixtures/trtllm");

export function trtllmDiskFile(filePath: string, ord = 0, name = path.basename(filePath)): IngestFile {
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

/** Writes `content` to a temporary file and returns it as an IngestFile. */
export function trtllmTextFile(name: string, content: string, ord = 0): IngestFile {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-trtllm-"));
  const p = path.join(dir, name);
  fs.writeFileSync(p, content);
  return trtllmDiskFile(p, ord, name);
}

export interface TrtllmRun {
  handle: DbHandle;
  ctx: IngestContext;
  reports: FileReport[];
  result: AnalyzerResult;
}

export async function analyzeTrtllm(files: IngestFile[]): Promise<TrtllmRun> {
  const handle = openSqlite(":memory:");
  await migrate(handle);
  const ctx: IngestContext = {
    runId: "r1",
    db: handle.db,
    dialect: "sqlite",
    limits: { maxLineBytes: 64 << 20, maxJsonDocumentBytes: 256 << 20 },
  };
  const a = trtllmAnalyzer();
  const reports: FileReport[] = [];
  for (const f of files) {
    if (!a.accepts(f)) throw new Error(`trtllm analyzer refused ${f.name} (${f.kind}/${f.format})`);
    reports.push(await a.ingestFile(f, ctx));
  }
  return { handle, ctx, reports, result: await a.finish(ctx) };
}
