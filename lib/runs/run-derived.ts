/**
 * A run's derived throughput as served (docs/metrics.md §Derived throughput): the throughput kept
 * at ingest (or, for runs ingested before it was, what the summary blocks hold) with the GPU
 * count fact as it is now, edits included.
 */
import type { DerivedThroughput, ThroughputInputs } from "@/lib/api/derived-throughput";
import type { RunFacts } from "@/lib/api/run-facts";
import type { SummaryBlocks } from "@/lib/api/schemas";
import { derivedThroughput } from "@/lib/metrics/derived-throughput";
import { recordsOrSummary } from "@/lib/metrics/records-or-summary";

const perStat = (s: { mean: number; p50: number; p90?: number; p99: number } | null | undefined) =>
  s ? { mean: s.mean, p50: s.p50, p90: s.p90 ?? null, p99: s.p99 } : null;

/**
 * The throughput inputs of a run's blocks: kept at ingest, where the records-or-summary choice
 * was made (lib/metrics/records-or-summary.ts); runs ingested before then read their requests
 * block, which already is the summary's when no records were uploaded.
 */
export function throughputInputs(blocks: SummaryBlocks): ThroughputInputs | null {
  if (blocks.throughput) return blocks.throughput;
  const r = blocks.requests;
  if (r) {
    const fromSummary = r.source === "aiperf-summary";
    return {
      source: fromSummary ? "aiperf summary" : "records",
      note: fromSummary ? (recordsOrSummary(null, undefined, true)?.note ?? null) : null,
      outputTokPerS: r.outputTokenThroughputPerS ?? null,
      totalTokPerS: null,
      requestsPerS: r.requestThroughputPerS ?? null,
      tpotMs: perStat(r.itlMs),
      tokPerUser: null,
    };
  }
  const latency = blocks.timeBreakdown?.latency;
  const tpot = latency?.tpotMs;
  if (tpot)
    return {
      source: "TensorRT-LLM perf metrics",
      note: "perf metrics time requests but not the benchmark window: no throughput, only TPOT",
      outputTokPerS: null,
      totalTokPerS: null,
      requestsPerS: null,
      tpotMs: perStat(tpot),
      tokPerUser: perStat(latency.tokPerUser),
    };
  return null;
}

export function runDerived(blocks: SummaryBlocks, facts: RunFacts): DerivedThroughput {
  const inputs = throughputInputs(blocks);
  const gpuCount = facts.gpuCount?.value ?? null;
  return {
    gpuCount,
    gpuCountSource: facts.gpuCount?.source ?? null,
    source: inputs?.source ?? null,
    note: inputs?.note ?? null,
    ...derivedThroughput({
      outputTokPerS: inputs?.outputTokPerS ?? null,
      totalTokPerS: inputs?.totalTokPerS ?? null,
      requestsPerS: inputs?.requestsPerS ?? null,
      tpotMs: inputs?.tpotMs ?? null,
      tokPerUser: inputs?.tokPerUser ?? null,
      gpuCount,
      successful: blocks.requests ? blocks.requests.count - blocks.requests.errorCount : null,
    }),
  };
}
