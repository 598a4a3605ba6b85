/**
 * Whose words a run's request figures are in (docs/metrics.md §Imported benchmark tools): an
 * aiperf run speaks aiperf's (request_count, records, inter-token latency); a run imported from
 * another tool speaks that tool's (vLLM's `completed`, its per-request arrays, its TPOT). The
 * numbers do not change, only their names and the line that says where they come from. Pure.
 */
import { METRICS, latencyName } from "@/lib/api/metric-catalog";
import type { RequestsBlock } from "@/lib/api/schemas";

export interface RequestWords {
  /** The producer as users name it: "aiperf", "vLLM bench serve", … */
  producer: string;
  /** Beside the successful count: "successful (aiperf's request count)" */
  successful: string;
  /** The Overview's Requests tile definition */
  countDefinition: string;
  /** How the latency statistics were taken, for the definition line under a table */
  timings: string;
  /** The row of the requests block's `itlMs` */
  itl: { label: string; short: string };
}

/** Tools whose own word for (E2E − TTFT) ÷ (output tokens − 1) per request is TPOT. */
const TPOT_TOOLS = new Set(["vLLM bench serve", "SGLang bench_serving"]);

/** Each tool's own name for its successful-request count. */
const COUNT_WORD: Record<string, string> = {
  "vLLM bench serve": "completed",
  "SGLang bench_serving": "completed",
};

export const AIPERF_WORDS: RequestWords = {
  producer: "aiperf",
  successful: "successful (aiperf's request count)",
  countDefinition:
    "Profiling requests, failed ones included. aiperf's request_count counts successful requests only; warm-up requests are in neither.",
  timings: "client-side timings from aiperf's records",
  itl: { label: METRICS.itl.long, short: METRICS.itl.short },
};

export function requestWords(run: {
  info: Record<string, unknown>;
  requests: Pick<RequestsBlock, "source"> | null;
}): RequestWords {
  const tool = typeof run.info.benchmarkTool === "string" ? run.info.benchmarkTool : null;
  if (!tool) return AIPERF_WORDS;
  const summary = run.requests?.source === "tool-summary";
  const count = COUNT_WORD[tool];
  return {
    producer: tool,
    successful: count ? `successful (${tool}'s ${count})` : `successful (${tool}'s count)`,
    countDefinition: `Requests ${tool} sent, failed ones included${count ? `; its ${count} counts the successful ones` : `; the successful ones are ${tool}'s count`}. Warm-up requests are in neither.`,
    timings: summary
      ? `${tool}'s own run-level figures (no per-request arrays uploaded)`
      : `client-side timings from ${tool}'s per-request arrays`,
    itl: TPOT_TOOLS.has(tool) ? { label: "TPOT (time per output token)", short: "TPOT" } : AIPERF_WORDS.itl,
  };
}

/**
 * The name of the `itlMs` figure across several runs (Compare, its report): "TPOT" when every
 * run's tool calls it so (vLLM, SGLang), "ITL" when every run is aiperf's or calls it ITL, and
 * both names when the runs mix them. It is one quantity, (E2E − TTFT) ÷ (output tokens − 1) per
 * request; only the tools' words differ.
 */
export function itlWordsOf(
  runs: Array<{ info: Record<string, unknown>; requests: Pick<RequestsBlock, "source" | "itlMs"> | null }>,
): { label: string; short: string; description: string } {
  // A partial summary (a test's, an older client's) may lack its info: aiperf's words then.
  const words = (r: (typeof runs)[number]) =>
    requestWords({ info: r.info ?? {}, requests: r.requests ?? null });
  const shorts = new Set(runs.filter((r) => r.requests?.itlMs).map((r) => words(r).itl.short));
  if (shorts.size === 0) for (const r of runs) shorts.add(words(r).itl.short);
  const description =
    "Per request (E2E − TTFT) ÷ (output tokens − 1), over successful requests: aiperf, genai-perf and GuideLLM call it inter-token latency (ITL), vLLM bench serve and SGLang bench_serving call it TPOT (their own ITL pools every gap between chunks and is another figure).";
  if (shorts.size === 1 && shorts.has("TPOT"))
    return { label: "TPOT (time per output token)", short: "TPOT", description };
  if (shorts.size > 1) return { label: "ITL / TPOT", short: "ITL / TPOT", description };
  return { label: "Inter-token latency", short: "ITL", description };
}

/**
 * A per-request latency's name on the Latency view and in the report (the metric catalog's, spelled
 * out): the inter-token latency in the run's tool's words (TPOT for vLLM and SGLang).
 */
export function latencyLabel(
  run: Parameters<typeof requestWords>[0],
  metric: "ttftMs" | "e2eMs" | "itlMs",
): string {
  return metric === "itlMs" ? requestWords(run).itl.label : latencyName(metric);
}
