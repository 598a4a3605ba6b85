import type { Analyzer } from "../analyzer";
import { aiperfAnalyzer } from "./aiperf";
import { engineConfigAnalyzer } from "./engine-config";
import { skipIdenticalFiles } from "./identical-files";
import { recordCounter } from "./record-counter";
import { serverMetricsAnalyzer } from "./server-metrics";
import { trtllmAnalyzer } from "./trtllm";

/**
 * The analyzers of one ingest, fresh per run. A file goes to the first analyzer that accepts it;
 * the record counter takes whatever is left; a file identical to an earlier one goes to none.
 * Each family adds its factory here.
 */
export function createAnalyzers(): Analyzer[] {
  return skipIdenticalFiles([
    trtllmAnalyzer(),
    aiperfAnalyzer(),
    serverMetricsAnalyzer(),
    engineConfigAnalyzer(),
    recordCounter(),
  ]);
}
