/**
 * Whose words a run's request figures are in (docs/metrics.md §Imported benchmark tools): an
 * aiperf run speaks aiperf's (request_count, records, inter-token latency); a run imported from
 * another tool speaks that tool's (vLLM's `completed`, its per-request arrays, its TPOT). The
 * numbers do not change, only their names and the line that says where they come from. Pure.
 */
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
  itl: { label: "Inter-token latency", short: "ITL" },
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
    itl: TPOT_TOOLS.has(tool)
      ? { label: "TPOT (time per output token)", short: "TPOT" }
      : { label: "Inter-token latency", short: "ITL" },
  };
}
