/**
 * The warm-up count of an aiperf run (docs/metrics.md §Requests): counted from warm-up records
 * when aiperf wrote them, else taken from the configuration it recorded in its summary. aiperf
 * builds that send warm-up requests without exporting them would otherwise read "0 warmup" for
 * a run that did warm the server up.
 */
import type { RequestsBlock } from "@/lib/api/schemas";
import type { WarmupConfig } from "@/lib/formats/aiperf-warmup-config";

/**
 * `configs`: one entry per trial whose configuration is known (a pooled multi-trial upload warmed
 * up once per trial), null for a configuration without warm-up. Records win whenever they hold
 * any warm-up. With neither records nor a configuration (a CSV summary alone) the count is
 * unknown: null, never 0.
 */
export function withConfiguredWarmup(
  block: RequestsBlock,
  configs: ReadonlyArray<WarmupConfig | null>,
): RequestsBlock {
  if (block.warmupCount !== null && block.warmupCount > 0) return { ...block, warmupSource: "records" };
  const warm = configs.filter((c) => c !== null);
  if (warm.length === 0) {
    if (block.source === "aiperf") return { ...block, warmupSource: "records" };
    if (configs.length > 0) return { ...block, warmupCount: 0, warmupSource: "config" };
    return { ...block, warmupCount: null, warmupSource: undefined };
  }
  let requests: number | null = 0;
  let durationS: number | null = null;
  for (const c of warm) {
    requests = requests === null || c.requests === null ? null : requests + c.requests;
    if (c.durationS !== null) durationS = (durationS ?? 0) + c.durationS;
  }
  return { ...block, warmupCount: requests, warmupSource: "config", warmupDurationS: durationS };
}
