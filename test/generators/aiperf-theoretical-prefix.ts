/**
 * aiperf's `theoretical_prefix_cache_hit` summary entry, written as its accumulator writes it
 * (ai-dynamo/aiperf src/aiperf/post_processors/theoretical_prefix_cache_accumulator.py,
 * `TheoreticalPrefixCacheAccumulator`): each successful profiled turn adds its loader-stamped
 * hit blocks and total blocks (turns with no blocks are skipped); the result is one
 * `MetricResult` with unit `GenericMetricUnit.PERCENT` ("%"), avg = 100 × Σ hit / Σ total,
 * count = Σ total, sum = Σ hit. The JSON export's `JsonMetricResult` carries `count` and `sum`
 * from summary schema 1.1 on; schema 1.0 has only `unit` and `avg`. Later accumulators clamp a
 * turn's hits into [0, total] (a loader's miscount); earlier ones added them as stamped.
 * Written from reading that source; nothing is copied.
 */
export interface TurnBlocks {
  hit: number;
  total: number;
}

export function theoreticalPrefixCacheHit(
  turns: readonly TurnBlocks[],
  { schema = "1.1", clampTurns = true }: { schema?: "1.0" | "1.1"; clampTurns?: boolean } = {},
): { unit: string; avg: number; count?: number; sum?: number } | undefined {
  let hit = 0;
  let total = 0;
  for (const t of turns) {
    if (t.total <= 0) continue;
    hit += clampTurns ? Math.max(0, Math.min(t.hit, t.total)) : t.hit;
    total += t.total;
  }
  // No turn with blocks: aiperf writes no entry at all.
  if (total <= 0) return undefined;
  const avg = (100 * hit) / total;
  return schema === "1.0" ? { unit: "%", avg } : { unit: "%", avg, count: total, sum: hit };
}
