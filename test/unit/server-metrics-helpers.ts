/** Runs the server-metrics analyzer end to end on files from disk, detecting each file's kind by content. */
import fs from "node:fs";
import path from "node:path";
import { detectKind } from "@/lib/formats/detect";
import type { AnalyzerResult, IngestContext, IngestFile } from "@/lib/ingest/analyzer";
import { serverMetricsAnalyzer } from "@/lib/ingest/analyzers/server-metrics";
import { openSqlite } from "@/lib/store/db";
import { createHash } from "node:crypto";

export async function analyzeFiles(paths: string[]): Promise<AnalyzerResult & { accepted: string[] }> {
  const h = openSqlite(":memory:");
  const ctx: IngestContext = {
    runId: "r1",
    db: h.db,
    dialect: "sqlite",
    limits: { maxLineBytes: 64 << 20, maxJsonDocumentBytes: 256 << 20 },
  };
  const analyzer = serverMetricsAnalyzer();
  const accepted: string[] = [];
  for (const [ord, p] of paths.entries()) {
    const bytes = fs.readFileSync(p);
    const detected = detectKind(bytes.subarray(0, 1 << 20), bytes.length <= 1 << 20);
    const file: IngestFile = {
      id: `f${ord}`,
      ord,
      name: path.basename(p),
      kind: detected.kind,
      format: detected.format,
      bytes: bytes.length,
      sha256: createHash("sha256").update(bytes).digest("hex"),
      open: async () => fs.createReadStream(p),
    };
    if (!analyzer.accepts(file)) continue;
    accepted.push(file.name);
    await analyzer.ingestFile(file, ctx);
  }
  const result = await analyzer.finish(ctx);
  await h.close();
  return { ...result, accepted };
}

export function caseFiles(caseDir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.push(p);
    }
  };
  const input = path.join(caseDir, "input");
  if (fs.existsSync(input)) walk(input);
  return out.sort();
}
