import type { RunSummary } from "@/lib/api/schemas";
import type { FileWarning } from "@/lib/formats/json-lines";
import type { Kind } from "@/lib/api/kinds";
import type { Db } from "@/lib/store/db";
import { runHead, runReadiness } from "@/lib/store/run-list";
import { rowFacts } from "@/lib/store/run-facts";
import { runDerived } from "./run-derived";
import { storedSummary } from "./stored-summary";
import { getFiles, getRun, type FileRow, type RunRow } from "@/lib/store/runs-repo";
import { seriesRunIds } from "@/lib/store/series-repo";

export { EMPTY_BLOCKS } from "./stored-summary";

/** The run summary (docs/http-api.md): catalog fields plus the blocks computed at ingest. */
export function composeRunSummary(run: RunRow, files: FileRow[]): RunSummary {
  const { blocks, ingestedAt, recompute } = storedSummary(run);
  const facts = rowFacts(run);
  return {
    ...runHead(run),
    aggregatorVersion: run.aggregator_version,
    ingestedAt,
    recompute,
    ...runReadiness(run),
    error: run.error,
    series: run.series ?? null,
    commit: run.commit_ref ?? null,
    branch: run.branch ?? null,
    order: run.series_order ?? null,
    files: files.map((f) => ({
      id: f.id,
      name: f.name,
      kind: f.kind as Kind,
      format: f.format,
      bytes: f.bytes,
      sha256: f.sha256,
      records: f.records,
      skipped: f.skipped,
      warnings: JSON.parse(f.warnings) as FileWarning[],
      meta: JSON.parse(f.meta) as Record<string, unknown>,
    })),
    ...blocks,
    facts,
    derived: runDerived(blocks, facts),
  };
}

export async function readRunSummary(db: Db, id: string): Promise<RunSummary | null> {
  const run = await getRun(db, id);
  if (!run) return null;
  const summary = composeRunSummary(run, await getFiles(db, id));
  return { ...summary, seriesPosition: await seriesPosition(db, run) };
}

/** "Run 12 of 30" of the run's series, in series order (docs/metrics.md §Regressions). */
async function seriesPosition(db: Db, run: RunRow): Promise<RunSummary["seriesPosition"]> {
  if (!run.series) return null;
  const ids = await seriesRunIds(db, run.series);
  const at = ids.indexOf(run.id);
  return at === -1 ? null : { at: at + 1, of: ids.length };
}
