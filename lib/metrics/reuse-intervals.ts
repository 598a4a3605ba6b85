/**
 * Achieved vs possible reuse per server-metrics interval (docs/metrics.md §Reuse per interval).
 * The engines' counters say, per scrape interval, how many prompt tokens they looked up and how
 * many of those were served from GPU cache or from a host/CPU/external tier; the records say
 * which requests had their prefill in the interval and how much of each prompt an earlier turn of
 * its conversation made reusable. Each interval's prompt tokens are split into
 *
 *   gpu + external + reusable-but-recomputed + new = prompt
 *
 * with reusable-but-recomputed = max(min(possible, prompt) − gpu − external, 0): what the
 * conversations' history offered that no tier served. The possible reuse itself is drawn as the
 * ceiling, as the records count it (aiperf's ISL tokenizer, not the engine's).
 */
import type {
  EndpointReuse,
  EndpointReuseInterval,
  ReuseInterval,
  ReuseIntervalsPayload,
} from "@/lib/api/turns";
import { MAX_POINTS } from "./server-metrics/timeseries";
import type { ServedIntervals } from "./server-metrics/timeseries";

/**
 * The requests of a multi-turn run as the reuse stack reads them, handed from the records'
 * analyzer to the server-metrics one: parallel columns, one entry per successful profiling
 * request whose possible reuse is known.
 */
export interface ReuseRequests {
  length: number;
  /** Epoch ms of the request's prefill: its first token when recorded, else its start */
  atEpochMs: Float64Array;
  /** Prompt tokens (ISL) */
  prompt: Float64Array;
  /** Prompt tokens an earlier turn of the conversation made reusable */
  possible: Float64Array;
  /** Cached prompt tokens the response reported (NaN: no usage), for the reuse ledger */
  cached?: Float64Array;
  /** TTFT in ms (NaN: not recorded), for the TTFT the ledger's losses cost */
  ttftMs?: Float64Array;
  source: "records" | "inputs";
}

/** Passed to both analyzers of one ingest, like the profiling clock. */
export class ReuseFeed {
  requests: ReuseRequests | null = null;
  /** aiperf's theoretical_prefix_cache_hit (0..1), for the reuse ledger's theoretical step */
  theoreticalBlocks: number | null = null;
}

/** Index of the interval holding `ns` (start ≤ ns < start + duration), or −1. */
function intervalOf(starts: readonly number[], durations: readonly number[], ns: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  if (hi < 0 || ns < starts[0]) return -1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= ns) lo = mid;
    else hi = mid - 1;
  }
  return ns < starts[lo] + durations[lo] ? lo : -1;
}

/**
 * One interval's split: served parts capped at the prompt (GPU first), the reusable remainder,
 * and the rest new. Exported for the test that pins the sum.
 */
export function splitInterval(
  prompt: number,
  gpu: number,
  external: number | null,
  possible: number | null,
): Pick<ReuseInterval, "gpuTokens" | "externalTokens" | "recomputedReusableTokens" | "newTokens"> {
  const g = Math.min(Math.max(gpu, 0), prompt);
  const e = external === null ? null : Math.min(Math.max(external, 0), prompt - g);
  const served = g + (e ?? 0);
  const ceiling = possible === null ? null : Math.min(Math.max(possible, 0), prompt);
  const recomputed = ceiling === null ? null : Math.max(ceiling - served, 0);
  return {
    gpuTokens: g,
    externalTokens: e,
    recomputedReusableTokens: recomputed,
    newTokens: recomputed === null ? null : prompt - served - recomputed,
  };
}

/**
 * The reuse stack of a run, or null when the counters or the requests give nothing to stack.
 * Longer runs merge neighbouring intervals to at most `maxPoints` (every part is a count, so
 * merged parts still add up).
 */
export function reuseIntervals(
  served: ServedIntervals,
  requests: ReuseRequests,
  maxPoints = MAX_POINTS,
): ReuseIntervalsPayload | null {
  const n = served.startNs.length;
  if (n === 0 || requests.length === 0) return null;
  const possible = new Float64Array(n);
  const client = new Float64Array(n);
  const count = new Float64Array(n);
  let outside = 0;
  for (let r = 0; r < requests.length; r++) {
    const at = requests.atEpochMs[r];
    const i = Number.isFinite(at) ? intervalOf(served.startNs, served.durationNs, at * 1e6) : -1;
    if (i === -1) {
      outside++;
      continue;
    }
    possible[i] += requests.possible[r];
    client[i] += requests.prompt[r];
    count[i]++;
  }
  const k = Math.ceil(n / maxPoints);
  const first = served.startNs[0];
  const points: ReuseInterval[] = [];
  for (let from = 0; from < n; from += k) {
    const to = Math.min(from + k, n);
    const { prompt, gpu, ext, dur } = mergeServed(served, from, to);
    let p = 0;
    let c = 0;
    let reqs = 0;
    for (let i = from; i < to; i++) {
      p += possible[i];
      c += client[i];
      reqs += count[i];
    }
    const ceiling = reqs > 0 ? p : null;
    const parts =
      prompt === null
        ? { gpuTokens: null, externalTokens: null, recomputedReusableTokens: null, newTokens: null }
        : splitInterval(prompt, gpu, served.external ? (ext ?? 0) : null, ceiling);
    points.push({
      t: (served.startNs[from] - first) / 1e9,
      durationS: dur > 0 ? dur / 1e9 : null,
      promptTokens: prompt,
      ...parts,
      possibleTokens: ceiling,
      clientPromptTokens: c,
      requests: reqs,
    });
  }
  return {
    startEpochMs: first / 1e6,
    servedSource: served.sources.join("; "),
    externalSource: served.external ? externalSourceOf(served.sources) : null,
    possibleSource: requests.source,
    requestsOutside: outside,
    points,
    endpoints: [],
  };
}

/**
 * One endpoint's stack on the run's intervals (`servedIntervalsByEndpoint`), merged like the
 * run's: GPU and host/external split as the run's are, and the rest is what the endpoint
 * computed. No ceiling: the records do not say which endpoint prefilled a request, and sharing
 * the run's possible reuse out by prompt tokens would draw a ceiling the data does not give.
 */
export function endpointReuseIntervals(
  endpoint: string,
  served: ServedIntervals,
  maxPoints = MAX_POINTS,
): EndpointReuse {
  const n = served.startNs.length;
  const k = Math.max(1, Math.ceil(n / maxPoints));
  const first = served.startNs[0];
  const points: EndpointReuseInterval[] = [];
  for (let from = 0; from < n; from += k) {
    const to = Math.min(from + k, n);
    const { prompt, gpu, ext, dur } = mergeServed(served, from, to);
    const parts =
      prompt === null ? null : splitInterval(prompt, gpu, served.external ? (ext ?? 0) : null, null);
    points.push({
      t: (served.startNs[from] - first) / 1e9,
      durationS: dur > 0 ? dur / 1e9 : null,
      promptTokens: prompt,
      gpuTokens: parts?.gpuTokens ?? null,
      externalTokens: parts?.externalTokens ?? null,
      computedTokens: parts === null ? null : prompt! - parts.gpuTokens! - (parts.externalTokens ?? 0),
    });
  }
  return { endpoint, points };
}

/**
 * The served counters of intervals `from`…`to` merged into one point: prompt and host/external
 * tokens stay null when no interval counted them, GPU tokens and the duration add up.
 */
function mergeServed(served: ServedIntervals, from: number, to: number) {
  let prompt: number | null = null;
  let gpu = 0;
  let ext: number | null = null;
  let dur = 0;
  for (let i = from; i < to; i++) {
    const v = served.prompt[i];
    if (v !== null) prompt = (prompt ?? 0) + v;
    gpu += served.gpu[i] ?? 0;
    const e = served.external?.[i] ?? null;
    if (e !== null) ext = (ext ?? 0) + e;
    dur += served.durationNs[i];
  }
  return { prompt, gpu, ext, dur };
}

/** Which counter gave the external part, per cache selection (lib/metrics/server-metrics/hit-rate.ts). */
function externalSourceOf(sources: readonly string[]): string {
  return sources
    .map((s) =>
      s.startsWith("vllm prompt_tokens_by_source")
        ? "vllm prompt_tokens_by_source{source=external_kv_transfer} (KV connector: offloading, LMCache, Dynamo KVBM)"
        : s.startsWith("vllm prefix")
          ? "vllm external_prefix_cache_hits (KV connector: offloading, LMCache, Dynamo KVBM)"
          : s.startsWith("sglang")
            ? "sglang cached_tokens{cache_source≠device} (HiCache host tier)"
            : s.startsWith("trtllm")
              ? "trtllm prompt_cache_hit_tokens{cache_tier≠gpu}"
              : `${s}: no external tier`,
    )
    .join("; ");
}
