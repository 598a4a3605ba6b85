/**
 * A run's stored summary in the current shape (docs/architecture.md §Stored payloads evolve): the
 * one place a summary written by an older aggregator is read. What the old summary gives is
 * filled from it; what it cannot give (a statistic or count the ingest did not keep then) is
 * null, never 0, and named in `recompute`, which the run page shows with the way to get it:
 * re-ingest, which recomputes every block from the run's stored raw files.
 */
import { ingestStamp } from "@/lib/api/chart-version";
import type { SummaryBlocks } from "@/lib/api/schemas";
import type { RunRow } from "@/lib/store/runs-repo";

export const EMPTY_BLOCKS: SummaryBlocks = {
  collectors: { returnPerfMetrics: null, enableIterPerfStats: null, publishKvEvents: null },
  requests: null,
  timeBreakdown: null,
  serverMetrics: null,
  endpoints: [],
  info: {},
  warnings: [],
  throughput: null,
};

export interface StoredSummary {
  blocks: SummaryBlocks;
  /** When the ingest that wrote the summary committed (epoch ms) */
  ingestedAt: number;
  /** What the stored summary lacks and only a re-ingest computes; null when it lacks nothing */
  recompute: string | null;
}

type Loose = Record<string, unknown>;

/** The stored summary of a run row (its `summary` JSON, written at `aggregator_version`), upgraded. */
export function storedSummary(
  row: Pick<RunRow, "id" | "summary" | "summary_ready_at" | "aggregator_version">,
): StoredSummary {
  const ingestedAt = ingestStamp(row);
  if (!row.summary) return { blocks: EMPTY_BLOCKS, ingestedAt, recompute: null };
  // The stamp is the summary's own field no longer: `ingestedAt` above, from it or the row.
  const stored = JSON.parse(row.summary) as Loose;
  delete stored.ingestedAt;
  const lacking: string[] = [];
  const blocks = {
    ...EMPTY_BLOCKS,
    ...stored,
    // Absent and null were read alike: the derived figures then come from the requests block.
    throughput: stored.throughput ?? null,
    timeBreakdown: upgradeTimeBreakdown(stored.timeBreakdown as Loose | null | undefined, lacking),
    serverMetrics: upgradeServerMetrics(stored.serverMetrics as Loose | null | undefined, lacking),
  } as SummaryBlocks;
  const recompute =
    lacking.length === 0
      ? null
      : `This run was stored by an older Runlens (aggregator version ${row.aggregator_version}), which did not keep ${lacking.join("; ")}: re-ingest it (POST /api/runs/${row.id}/reingest) to compute them from its raw files.`;
  return { blocks, ingestedAt, recompute };
}

const lacks = (o: Loose, key: string) => !(key in o);

function upgradeTimeBreakdown(tb: Loose | null | undefined, lacking: string[]): Loose | null {
  if (!tb) return null;
  const segments = (tb.segments ?? []) as Loose[];
  const segLacking = ["p75Ms", "p95Ms"].filter((k) => segments.some((s) => lacks(s, k)));
  if (segLacking.length > 0)
    lacking.push(`the segments' ${segLacking.map((k) => k.replace("Ms", "")).join(" and ")}`);
  if (lacks(tb, "kvBlockLookups")) lacking.push("the KV blocks looked up");
  // A latency block is whole or null: its counts say how its statistics were made.
  let latency = tb.latency as Loose | null | undefined;
  if (latency === undefined) {
    lacking.push("request latency from perf metrics");
    latency = null;
  } else if (latency !== null) {
    const missing = ["tokPerUser", "tokensFromIterations", "oneResponse"].filter((k) => lacks(latency!, k));
    if (missing.length > 0) {
      lacking.push("the perf-metrics latency's per-user throughput and token counts");
      latency = null;
    }
  }
  return {
    ...tb,
    segments: segments.map((s) => ({ ...s, p75Ms: s.p75Ms ?? null, p95Ms: s.p95Ms ?? null })),
    kvBlockLookups: tb.kvBlockLookups ?? null,
    latency,
  };
}

function upgradeServerMetrics(sm: Loose | null | undefined, lacking: string[]): Loose | null {
  if (!sm) return null;
  const cache = (sm.cache ?? {}) as Loose;
  const fields = [
    "externalHitRate",
    "lookupTokens",
    "servedTokens",
    "gaugeHitRateAvg",
    "histogramHitRate",
    "lmcacheHitRate",
    "countersExported",
  ];
  if (fields.some((k) => lacks(cache, k)))
    lacking.push("the cache's per-tier tokens, lookups and other hit-rate signals");
  return {
    ...sm,
    cache: {
      ...cache,
      externalHitRate: cache.externalHitRate ?? null,
      lookupTokens: cache.lookupTokens ?? null,
      servedTokens: cache.servedTokens ?? { gpu: null, host: null, external: null },
      gaugeHitRateAvg: cache.gaugeHitRateAvg ?? null,
      histogramHitRate: cache.histogramHitRate ?? null,
      lmcacheHitRate: cache.lmcacheHitRate ?? null,
      countersExported: cache.countersExported ?? [],
    },
  };
}
