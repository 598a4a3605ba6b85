import type { Tile } from "@/components/run-views/overview-request-tiles";
import { METRICS, pairLabel } from "@/lib/api/metric-catalog";
import type { RunSummary, Stats } from "@/lib/api/schemas";
import { formatMsAlike } from "@/lib/format-number";

// One unit and one number of decimals for the pair ("3,720.0 ms / 3,940.6 ms").
const p50p99 = (s: Stats | null) => (s ? formatMsAlike([s.p50, s.p99]).join(" / ") : "not recorded");

/**
 * TTFT, E2E and TPOT from TensorRT-LLM perf metrics. Labelled as server times so they are never
 * read as an aiperf (client) figure when a run has both.
 */
export function trtllmLatencyTiles(run: RunSummary): Tile[] {
  const l = run.timeBreakdown?.latency;
  if (!l) return [];
  const source = "from TensorRT-LLM perf metrics (server stamps), completed requests";
  return [
    {
      label: pairLabel(METRICS.trtllmTtft),
      value: p50p99(l.ttftMs),
      hint: "perf metrics",
      definition: `Outermost server arrival to its first token sent, ${source}.`,
      testId: "tile-trtllm-ttft",
    },
    {
      label: pairLabel(METRICS.trtllmE2e),
      value: p50p99(l.e2eMs),
      hint: "perf metrics",
      definition: `TTFT + the generation server's first response to its last token, so never below TTFT, ${source}.`,
      testId: "tile-trtllm-e2e",
    },
    {
      label: pairLabel(METRICS.trtllmTpot),
      value: p50p99(l.tpotMs),
      hint: l.tpotMs
        ? l.tokensFromIterations
          ? "perf metrics (tokens from first_iter/last_iter)"
          : "perf metrics"
        : "no output-token count in the records",
      definition: `(E2E − TTFT) / (output tokens − 1) over requests with more than one output token; output tokens = 1 + generation steps (step_metrics, else the generation record's last_iter − first_iter + 1) + accepted draft tokens, ${source}.`,
      testId: "tile-trtllm-tpot",
    },
  ];
}
