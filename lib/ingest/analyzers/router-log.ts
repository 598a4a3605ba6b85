/**
 * Router log analyzer: a Dynamo frontend's log → its routing decisions (docs/formats.md §Router
 * logs). The decisions go to the feed; the server-metrics analyzer sets them beside the engines'
 * own cache counters once every scrape is read (docs/metrics.md §Predicted vs delivered per worker).
 */
import { WarningLog } from "@/lib/formats/json-lines";
import { readRouterLog } from "@/lib/formats/router-log";
import type { RouterLogFeed } from "@/lib/metrics/server-metrics/router-log-prediction";
import type { Analyzer, FileReport, IngestContext, IngestFile } from "../analyzer";

export function routerLogAnalyzer(feed: RouterLogFeed): Analyzer {
  async function ingestFile(file: IngestFile, ctx: IngestContext): Promise<FileReport> {
    const warnings = new WarningLog();
    const counts = { records: 0, skipped: 0 };
    const log = await readRouterLog(await file.open(), warnings, counts, ctx.limits.maxLineBytes);
    feed.logs.push({ file: file.name, log });
    return {
      records: counts.records,
      skipped: counts.skipped,
      warnings: warnings.toList(),
      meta: {
        workers: log.workers.length,
        selectedLines: log.selectedLines,
        note:
          counts.records > 0
            ? `${counts.records.toLocaleString("en-US")} routing decisions`
            : "no [ROUTING] Best line (written at DEBUG)",
      },
    };
  }

  return {
    name: "router-log",
    tables: [],
    accepts: (file) => file.kind === "router-log",
    ingestFile,
    finish: async () => ({}),
  };
}
