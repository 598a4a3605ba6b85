/**
 * The reuse ledger (docs/metrics.md §Reuse ledger): reads no file. Its inputs are declared: the
 * records' requests and aiperf's theoretical rate (the reuse feed, filled by the aiperf analyzer's
 * `finish`) and the engines' counters and the router's payloads (the cache feed, filled by the
 * server-metrics analyzer's `finish`). It comes after both in `createAnalyzers`, whose order is the
 * order their `finish` runs in, and stores the one payload that combines them.
 */
import { REUSE_LEDGER_CHART } from "@/lib/api/chart-catalog";
import { buildReuseLedger, type CacheFeed } from "@/lib/metrics/reuse-ledger";
import type { ReuseFeed } from "@/lib/metrics/reuse-intervals";
import type { Analyzer, AnalyzerResult } from "../analyzer";

export function reuseLedgerAnalyzer(reuse: ReuseFeed, cache: CacheFeed): Analyzer {
  return {
    name: REUSE_LEDGER_CHART.key,
    tables: [],
    accepts: () => false,
    ingestFile: () => Promise.reject(new Error("the reuse ledger reads no file")),
    finish: async (): Promise<AnalyzerResult> => {
      const ledger = buildReuseLedger({
        requests: reuse.requests,
        theoreticalBlocks: reuse.theoreticalBlocks,
        cache,
      });
      if (!ledger) return {};
      // The Cache view's ledger section and the compare page read these.
      return { charts: { [REUSE_LEDGER_CHART.key]: ledger }, info: { reuseLedger: true } };
    },
  };
}
