import type { RequestsBlock } from "@/lib/api/schemas";
import { formatCount, formatNumber } from "@/lib/format-number";
import { requestCountFacts } from "@/lib/metrics/request-definitions";
import { AIPERF_WORDS, type RequestWords } from "@/lib/metrics/request-words";
import { warmupText } from "./warmup-text";

/** Counts, duration and throughput of the requests block, in one line of figures. */
export function RequestCounts({
  requests: r,
  words = AIPERF_WORDS,
}: {
  requests: RequestsBlock;
  /** Whose words the counts are in (an imported tool's, or aiperf's) */
  words?: RequestWords;
}) {
  const counts = requestCountFacts(r);
  const items: Array<[string, string]> = [
    [
      words.producer === AIPERF_WORDS.producer
        ? "profiling requests (errors included)"
        : "requests (errors included)",
      formatCount(counts.all),
    ],
    [words.successful, formatCount(counts.successful)],
    ["errors", formatCount(counts.errors)],
    ["cancelled", formatCount(r.cancelledCount ?? null)],
    ["not measured", warmupText(r)],
    ["duration", r.durationS === null ? "—" : `${formatNumber(r.durationS, 2)} s`],
    ["requests/s", formatNumber(r.requestThroughputPerS ?? null, 3)],
    // Two decimals, as the Overview, the sweep table and Compare write the same figure.
    ["output tokens/s", formatNumber(r.outputTokenThroughputPerS ?? null, 2)],
  ];
  return (
    <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm" data-testid="request-counts">
      {items.map(([k, v]) => (
        <div key={k} className="flex gap-1">
          <dt className="text-muted">{k}</dt>
          <dd className="font-medium tabular-nums">{v}</dd>
        </div>
      ))}
      {r.source === "tool-summary" ? (
        <p className="w-full text-xs text-muted">
          Figures from the benchmark tool&apos;s own summary ({words.producer}): its per-request results (vLLM
          --save-detailed, SGLang --output-details, GuideLLM&apos;s whole request list, genai-perf&apos;s
          profile_export.json) give distributions and charts.
        </p>
      ) : null}
      {r.recordsSample ? (
        <p className="w-full text-xs text-muted" data-testid="request-counts-sample">
          Figures from aiperf&apos;s own summary of all {formatCount(r.recordsSample.described)} requests: the
          records uploaded hold {formatCount(r.recordsSample.records)} of them.
        </p>
      ) : r.throughputSource === "aiperf summary" ? (
        <p className="w-full text-xs text-muted" data-testid="request-counts-window">
          Duration, requests/s and output tokens/s are aiperf&apos;s own, over its benchmark window
          (benchmark_duration); the latency statistics are the records&apos;.
        </p>
      ) : null}
      {r.source === "aiperf-summary" ? (
        <p className="w-full text-xs text-muted">
          Figures from aiperf&apos;s own summary: upload profile_export.jsonl for distributions and charts.
        </p>
      ) : null}
    </dl>
  );
}
