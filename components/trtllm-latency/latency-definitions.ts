/**
 * What the TensorRT-LLM latency figures measure, worded for the screen (docs/metrics.md §Request
 * latency from perf metrics). The stamps are the server's own: they start when the outermost
 * TensorRT-LLM server received the request, not when a client sent it.
 */
import { plural } from "@/lib/format-number";
import type { TimeBreakdownBlock } from "@/lib/api/schemas";
import { METRICS } from "@/lib/api/metric-catalog";

/** The server's latencies, named by the metric catalog (spelled out, and short for the toggle). */
export const TRTLLM_LATENCY_OPTIONS = [
  { id: "ttftMs", label: METRICS.trtllmTtft.long, short: "TTFT" },
  { id: "e2eMs", label: METRICS.trtllmE2e.long, short: "E2E" },
  { id: "tpotMs", label: METRICS.trtllmTpot.long, short: "TPOT" },
] as const;

export type TrtllmLatencyId = (typeof TRTLLM_LATENCY_OPTIONS)[number]["id"];

export function trtllmLatencyLabel(id: TrtllmLatencyId): string {
  return TRTLLM_LATENCY_OPTIONS.find((o) => o.id === id)?.label ?? id;
}

export interface Definition {
  term: string;
  text: string;
}

export function trtllmLatencyDefinitions(
  mode: TimeBreakdownBlock["mode"],
  latency: TimeBreakdownBlock["latency"],
): Definition[] {
  const disagg = mode === "disaggregated";
  // Null only for a summary stored before the latency block was (its run says to re-ingest).
  const fromIters = latency?.tokensFromIterations ?? 0;
  const oneResponse = latency?.oneResponse ?? 0;
  return [
    {
      term: "TTFT",
      text: disagg
        ? "from the disaggregation server's arrival (disagg_server_arrival_time) to the first token it sent back (disagg_server_first_token_time), as TensorRT-LLM's time-breakdown tool spans it. Where the disagg server's stamp is missing, the generation server's, then the context server's first-token stamp is used."
        : "from the server's arrival (server_arrival_time, else the worker's arrival_time) to the first token it sent back (server_first_token_time, else first_token_time).",
    },
    {
      term: "E2E",
      text:
        (disagg
          ? "TTFT + the time from the generation server's first response to its last token (gen last_token_time − server_first_token_time, both on the generation server's clock), so E2E ends where TTFT ends and is never shorter."
          : "TTFT + the time from the server's first response to its last token (last_token_time − server_first_token_time), so E2E is never shorter than TTFT.") +
        (oneResponse > 0
          ? ` ${plural(oneResponse, "request")} sent their first response after their last token (not streamed): their E2E equals their TTFT and they have no TPOT.`
          : ""),
    },
    {
      term: "TPOT",
      text:
        "(E2E − TTFT) / (output tokens − 1), only for requests with more than one output token. Perf metrics carry no token count: output tokens = 1 (the context phase's token) + the request's generation steps (+ accepted draft tokens)" +
        (disagg
          ? "; without per-step metrics the steps are the generation record's iterations, last_iter − first_iter + 1 (127 iterations = 128 output tokens)."
          : ", which need per-step metrics (step_metrics in the perf-metrics records).") +
        (fromIters > 0 ? ` ${plural(fromIters, "request")} counted from first_iter/last_iter.` : ""),
    },
    {
      term: "Requests",
      text: "every completed request in the perf-metrics files. The server cannot tell a client's warm-up from its profiling requests, so warm-up requests are included. These are server times: they leave out the network and client time an aiperf TTFT includes.",
    },
  ];
}

/** Why a metric has no value in any request, and what would record it. */
export function missingText(metric: TrtllmLatencyId): string {
  if (metric === "tpotMs")
    return "no request has a known output-token count: the records carry neither per-step metrics nor generation-side first_iter/last_iter";
  return `no completed request recorded both stamps of ${trtllmLatencyLabel(metric).toLowerCase()}`;
}
