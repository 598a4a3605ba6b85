"use client";

import { ChartContainer } from "@/components/charts/chart-container";
import { REUSE_PARTS } from "@/components/charts/reuse-series";
import { formatNumber } from "@/lib/format-number";
import type { EndpointReuse } from "@/lib/api/turns";
import { endpointReuseRows } from "@/lib/metrics/turn-chart-rows";

/**
 * One prefill-side endpoint's prompt tokens per interval, by where it got them: GPU cache,
 * host/external tier, or computed (docs/metrics.md §Reuse per interval, per endpoint). No
 * possible-reuse ceiling: the records do not say which endpoint prefilled a request.
 */
export function ChartAreaEndpointReuse({
  data,
  servedSource,
  actions,
}: {
  data: EndpointReuse;
  servedSource: string;
  actions?: React.ReactNode;
}) {
  const rows = endpointReuseRows(data);
  const external = data.points.some((p) => p.externalTokens !== null);
  const area = (part: "gpu" | "external" | "computed", fillOpacity = 0.7) => ({
    ...REUSE_PARTS[part],
    stack: "p",
    fillOpacity,
  });
  return (
    <ChartContainer
      title={`Reuse over time on ${data.endpoint}`}
      description="this endpoint's prompt tokens per second of each scrape interval, by where it got them (no possible-reuse line: it is known for the whole run only)"
      definition={{
        window: "profiling phase, per server-metrics interval (the run's intervals)",
        requests: "prompt tokens this endpoint's own counters counted",
        method: `GPU: ${servedSource}; computed = prompt − GPU − host/external (reusable but recomputed and new, not told apart per endpoint)`,
      }}
      exportName={`reuse-over-time-${data.endpoint}`}
      missing={`No interval has ${data.endpoint}'s prompt-token cache counters.`}
      actions={actions}
      kind="area"
      data={rows}
      csv={{
        "t (s)": "t",
        "duration (s)": "durationS",
        "prompt (tok)": "promptTokens",
        "gpu cache (tok)": "gpuTokens",
        "host/external (tok)": "externalTokens",
        "computed (tok)": "computedTokens",
      }}
      series={{
        gpu: area("gpu"),
        ...(external ? { external: area("external") } : {}),
        computed: area("computed", 0.45),
      }}
      x={{ key: "t", title: "time since first scrape", unit: "s", numeric: true }}
      y={{ title: "prompt tokens", unit: "tok/s" }}
      tooltip={{
        label: (t) => `${formatNumber(Number(t), 0)} s`,
        value: (v) => `${formatNumber(v, 0)} tok/s`,
      }}
    />
  );
}
