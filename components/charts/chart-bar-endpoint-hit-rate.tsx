"use client";

import { EndpointBars } from "@/components/server-metrics/endpoint-bars";
import { formatRate } from "@/lib/format-number";
import { endpointBarRows } from "@/lib/metrics/server-metrics/chart-rows";
import type { SmEndpointDetail } from "@/lib/api/server-metrics-charts";
import { SERVER_COUNTERS } from "@/components/charts/definitions";

/** Server-side cache hit rate per endpoint (its own counters; gauge avg where it has none). */
export function ChartBarEndpointHitRate({ rows, missing }: { rows: SmEndpointDetail[]; missing?: string }) {
  const disagg = rows.some((r) => r.role === "prefill") && rows.some((r) => r.role === "decode");
  return (
    <EndpointBars
      title="GPU cache hit rate per endpoint"
      description={`GPU-cached prompt tokens / prompt tokens, from each endpoint's own counters${
        disagg ? " · decode endpoints: n/a, the KV they receive from prefill is not a cache hit" : ""
      }`}
      definition={{
        ...SERVER_COUNTERS,
        method: "counter deltas over the window (a hit-rate gauge's mean where an endpoint has no counters)",
      }}
      rows={endpointBarRows(rows, "hitRate")}
      valueTitle="hit rate (%)"
      exportName="endpoint-hit-rate"
      missing={
        missing ??
        "No endpoint exports prefix-cache counters or a hit-rate gauge (vllm:prefix_cache_hits/queries, sglang:cached_tokens, trtllm_prompt_cached_tokens); scrape the engines with aiperf --server-metrics."
      }
      format={(v) => formatRate(v)}
      note={disagg ? (r) => (r.role === "decode" ? "n/a (decode)" : undefined) : undefined}
      domainMax={1}
    />
  );
}
