import { ProfilingClock } from "@/lib/metrics/profiling-window";
import { ReuseFeed } from "@/lib/metrics/reuse-intervals";
import { CacheFeed } from "@/lib/metrics/reuse-ledger";
import { RouterLogFeed } from "@/lib/metrics/server-metrics/router-log-prediction";
import type { Analyzer } from "../analyzer";
import { aiperfAnalyzer } from "./aiperf";
import { benchImportAnalyzer } from "./bench-import";
import { dynamoOtlpAnalyzer } from "./dynamo-otlp";
import { dynamoTraceAnalyzer } from "./dynamo-trace";
import { engineConfigAnalyzer } from "./engine-config";
import { skipIdenticalFiles } from "./identical-files";
import { recordCounter } from "./record-counter";
import { reuseLedgerAnalyzer } from "./reuse-ledger";
import { routerLogAnalyzer } from "./router-log";
import { serverMetricsAnalyzer } from "./server-metrics";
import { trtllmAnalyzer } from "./trtllm";
import { trtllmSideFilesAnalyzer } from "./trtllm-side-files";

/**
 * The analyzers of one ingest, fresh per run. A file goes to the first analyzer that accepts it;
 * the record counter takes whatever is left; a file identical to an earlier one goes to none.
 * Each family adds its factory here. The aiperf analyzer tells the server-metrics one when the
 * profiling phase ran (the clock), so raw scrapes are counted over that phase only, and what each
 * request could reuse (the reuse feed), stacked against the engines' cache counters. The router
 * log analyzer hands the router's decisions to it likewise (the router feed). The reuse ledger
 * reads no file: it combines the reuse feed and what the server-metrics analyzer hands on (the
 * cache feed), so it comes after both (`finish` runs in this order).
 */
export function createAnalyzers(): Analyzer[] {
  const clock = new ProfilingClock();
  const reuse = new ReuseFeed();
  const routed = new RouterLogFeed();
  const cache = new CacheFeed();
  return skipIdenticalFiles([
    trtllmAnalyzer(),
    trtllmSideFilesAnalyzer(),
    aiperfAnalyzer(clock, reuse),
    benchImportAnalyzer(),
    // After aiperf: a trace uploaded with aiperf records attaches to their run.
    dynamoTraceAnalyzer(),
    dynamoOtlpAnalyzer(),
    routerLogAnalyzer(routed),
    serverMetricsAnalyzer(clock, reuse, routed, cache),
    engineConfigAnalyzer(),
    recordCounter(),
    reuseLedgerAnalyzer(reuse, cache),
  ]);
}

/**
 * One set of analyzers for questions that need no ingest state (which tables, which files);
 * every ingest makes fresh ones of its own.
 */
let reference: Analyzer[] | null = null;
export const referenceAnalyzers = () => (reference ??= createAnalyzers());

/** Every table any analyzer writes rows to (for delete and re-ingest). */
export function analyzerTables(): string[] {
  return [...new Set(referenceAnalyzers().flatMap((a) => a.tables))];
}
