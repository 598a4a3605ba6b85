/**
 * Derived throughput (docs/metrics.md §Derived throughput), pure:
 *   output tok/s/GPU = output tok/s ÷ GPUs, total tok/s/GPU = (input + output) tok/s ÷ GPUs,
 *   req/s/GPU = successful req/s ÷ GPUs, tok/s/user = 1000 ÷ TPOT ms per request (aiperf's
 *   output_token_throughput_per_user), at a statistic of that per-request distribution
 *   (./per-user-throughput.ts: p90 is its 90th percentile, as aiperf's).
 * Each is null with a reason when an input is unknown; an unknown GPU count is never taken as 1.
 */
import {
  DERIVED_STATS,
  GPU_COUNT_UNKNOWN,
  type DerivedStat,
  type DerivedValue,
} from "@/lib/api/derived-throughput";
import { METRICS, statLabel, tailOf } from "@/lib/api/metric-catalog";
import { tokPerUserFromTpotStat } from "./per-user-throughput";

type PerStat = Partial<Record<DerivedStat, number | null>>;

export interface DerivedInputs {
  outputTokPerS: number | null;
  totalTokPerS: number | null;
  requestsPerS: number | null;
  /** TPOT (inter-token latency) per statistic, ms */
  tpotMs: PerStat | null;
  gpuCount: number | null;
  /**
   * Per-user throughput per statistic as measured per request, when known (aiperf's summary, or
   * per-request reciprocals): the mean of 1000 / TPOT is not 1000 / mean TPOT.
   */
  tokPerUser?: PerStat | null;
  /** Successful requests, when known: with none, nothing per request was measured */
  successful?: number | null;
}

export interface DerivedFigures {
  outputTokPerSPerGpu: DerivedValue;
  totalTokPerSPerGpu: DerivedValue;
  requestsPerSPerGpu: DerivedValue;
  tokPerUser: Record<DerivedStat, DerivedValue>;
}

const known = (v: number | null | undefined): v is number => typeof v === "number" && Number.isFinite(v);
const value = (v: number): DerivedValue => ({ value: v, reason: null });
const missing = (reason: string): DerivedValue => ({ value: null, reason });

function perGpu(
  total: number | null,
  gpus: number | null,
  what: string,
  successful?: number | null,
): DerivedValue {
  // No successful request: no rate to divide (vLLM's 0.0 over nothing is no measurement).
  if (successful === 0) return missing("no successful request");
  if (!known(total)) return missing(`${what} not measured`);
  if (!known(gpus) || gpus <= 0) return missing(GPU_COUNT_UNKNOWN);
  return value(total / gpus);
}

/**
 * A per-user figure's name at a statistic: "p50", or "worst 1% (p1)" for p99. tok/s per user is
 * higher-is-better, so its tail statistics read the slow tail (docs/metrics.md §Per-user
 * throughput; the rule is the metric catalog's, `tailOf`).
 */
export function perUserStatLabel(stat: string): string {
  return statLabel(METRICS.tokPerUser, stat);
}

function perUser(stat: DerivedStat, i: DerivedInputs): DerivedValue {
  // The slow tail is 1000 ÷ the TPOT of the same tail: 1000 / x reverses order, so the p99 of TPOT
  // is the p1 of tok/s per user (up to interpolation), and every run keeps its TPOT percentiles.
  if (tailOf(METRICS.tokPerUser, stat) !== stat) {
    const tailTpot = i.tpotMs?.[stat];
    if (known(tailTpot)) return tailTpot > 0 ? value(1000 / tailTpot) : missing("TPOT is zero");
    if (i.successful === 0) return missing("no successful request");
    return missing(i.tpotMs ? `TPOT ${stat} not measured` : "TPOT not measured (needs streamed responses)");
  }
  const measured = i.tokPerUser?.[stat];
  if (known(measured)) return value(measured);
  const tpot = i.tpotMs?.[stat];
  if (stat === "p50" && known(tpot) && tpot <= 0) return missing("TPOT is zero");
  const fromTpot = tokPerUserFromTpotStat(stat, tpot);
  if (fromTpot !== null) return value(fromTpot);
  if (i.successful === 0) return missing("no successful request");
  if (!i.tpotMs) return missing("TPOT not measured (needs streamed responses)");
  return missing(`the ${stat} of tok/s/user needs per-request TPOT`);
}

export function derivedThroughput(i: DerivedInputs): DerivedFigures {
  return {
    outputTokPerSPerGpu: perGpu(i.outputTokPerS, i.gpuCount, "output token throughput", i.successful),
    totalTokPerSPerGpu: perGpu(i.totalTokPerS, i.gpuCount, "total token throughput", i.successful),
    requestsPerSPerGpu: perGpu(i.requestsPerS, i.gpuCount, "request throughput", i.successful),
    tokPerUser: Object.fromEntries(DERIVED_STATS.map((s) => [s, perUser(s, i)])) as Record<
      DerivedStat,
      DerivedValue
    >,
  };
}
