"use client";

import { EndpointBars } from "@/components/server-metrics/endpoint-bars";
import { formatCount } from "@/lib/format-number";
import { endpointBarRows } from "@/lib/metrics/server-metrics/chart-rows";
import type { SmEndpointDetail } from "@/lib/api/server-metrics-charts";

/** KV capacity per endpoint in tokens (Σ of its pools; TP replicas counted once). */
export function ChartBarEndpointCapacity({ rows }: { rows: SmEndpointDetail[] }) {
  return (
    <EndpointBars
      title="KV capacity per endpoint"
      description="Tokens the endpoint's KV pools hold (blocks × its own block size)"
      definition={{
        window: "none: capacity is configuration, the same over the run",
        method: "cache-config info, blocks × block size (or the server log)",
      }}
      rows={endpointBarRows(rows, "kvCapacityTokens")}
      valueTitle="KV capacity (tokens)"
      exportName="endpoint-kv-capacity"
      missing="No endpoint exports its KV capacity (trtllm_kv_cache_max_blocks × tokens_per_block, vllm:cache_config_info, sglang:max_total_num_tokens); for vLLM, upload the engine's server.log."
      format={(v) => formatCount(v)}
    />
  );
}
