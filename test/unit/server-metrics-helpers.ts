/** Runs the server-metrics analyzer end to end on files from disk, detecting each file's kind by content. */
import fs from "node:fs";
import path from "node:path";
import type { AnalyzerResult } from "@/lib/ingest/analyzer";
import { serverMetricsAnalyzer } from "@/lib/ingest/analyzers/server-metrics";
import { diskIngestFile, runAnalyzer } from "../helpers/analyze";

export async function analyzeFiles(paths: string[]): Promise<AnalyzerResult & { accepted: string[] }> {
  const run = await runAnalyzer(
    serverMetricsAnalyzer(),
    paths.map((p, ord) => diskIngestFile(p, ord)),
    { skipRefused: true },
  );
  await run.handle.close();
  return { ...run.result, accepted: run.accepted };
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
