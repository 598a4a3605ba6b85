/** Runs the server-metrics analyzer end to end on files from disk, detecting each file's kind by content. */
import fs from "node:fs";
import path from "node:path";
import type { AnalyzerResult } from "@/lib/ingest/analyzer";
import { aiperfAnalyzer } from "@/lib/ingest/analyzers/aiperf";
import { serverMetricsAnalyzer } from "@/lib/ingest/analyzers/server-metrics";
import { ProfilingClock } from "@/lib/metrics/profiling-window";
import { migrate, openSqlite } from "@/lib/store/db";
import { diskIngestFile, ingestContext, runAnalyzer } from "../helpers/analyze";

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

/**
 * Runs aiperf's records and summary and the server-metrics exports through the aiperf and
 * server-metrics analyzers sharing one profiling clock, as one ingest does, and returns the
 * server-metrics result: the records place the profiling phase the raw scrapes are cut to.
 */
export async function analyzeWithRecords(paths: string[]): Promise<AnalyzerResult> {
  const handle = openSqlite(":memory:");
  await migrate(handle);
  const ctx = ingestContext(handle);
  const clock = new ProfilingClock();
  const aiperf = aiperfAnalyzer(clock);
  const serverMetrics = serverMetricsAnalyzer(clock);
  for (const [ord, p] of paths.entries()) {
    const f = diskIngestFile(p, ord);
    const a = [aiperf, serverMetrics].find((x) => x.accepts(f));
    if (a) await a.ingestFile(f, ctx);
  }
  await aiperf.finish(ctx);
  const result = await serverMetrics.finish(ctx);
  await handle.close();
  return result;
}
