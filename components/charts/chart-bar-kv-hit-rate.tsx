"use client";

import { ChartContainer } from "@/components/charts/chart-container";
import { formatCount, formatRate, plural } from "@/lib/format-number";
import { shortLabels } from "@/lib/metrics/short-labels";
import type { KvHitRatePayload } from "@/lib/api/trtllm-charts";
import { TRTLLM_COMPLETED } from "@/components/charts/definitions";

/** Block-weighted KV-cache hit rate per worker and per role, bars coloured by role. */
export function ChartBarKvHitRate({ payload }: { payload: KvHitRatePayload }) {
  const short = shortLabels(payload.byWorker.map((w) => w.worker));
  const rows = [
    ...payload.byRole.map((r) => ({ ...r, name: `all ${r.role}`, full: `all ${r.role}` })),
    ...payload.byWorker.map((w, i) => ({ ...w, name: short[i], full: w.worker })),
  ];
  const full = new Map(rows.map((r) => [r.name, r.full]));
  type Row = (typeof rows)[number];
  // Records with kv_cache_metrics whose blocks are all 0: looked up nothing, which is not "absent".
  const zeroLookups =
    rows.some((r) => r.requests > 0) && rows.every((r) => r.reusedBlocks + r.missedBlocks === 0);
  const detail = (r: Row) =>
    `(${formatCount(r.reusedBlocks)} reused, ${formatCount(r.missedBlocks)} missed, ${plural(r.requests, "request")})`;
  return (
    <ChartContainer<Row>
      title="KV-cache hit rate by role and worker"
      description={`Σ reused / Σ (reused + missed) blocks; run (prefill side): ${payload.run !== null ? formatRate(payload.run) : zeroLookups ? "0 block lookups" : "not recorded"}`}
      definition={{
        ...TRTLLM_COMPLETED,
        method: "blocks from each request's kv_cache_metrics, summed before dividing (block-weighted)",
      }}
      csv={{
        name: "full",
        role: "role",
        requests: "requests",
        reused: "reusedBlocks",
        missed: "missedBlocks",
        hitRate: "hitRate",
      }}
      exportName="kv-hit-rate"
      missing={
        zeroLookups
          ? "Every record's kv_cache_metrics has 0 reused and 0 missed blocks: no block was looked up for reuse (block reuse off, or nothing to reuse), so there is no hit rate, not a 0 % one."
          : "The perf metrics carry no kv_cache_metrics: TensorRT-LLM writes them with return_perf_metrics on."
      }
      height={Math.max(176, rows.length * 28 + 56)}
      kind="bar"
      horizontal
      data={rows}
      series={{
        hitRate: {
          label: "hit rate",
          color: "var(--chart-1)",
          cell: (r) => ({ fill: `var(--role-${r.role})` }),
        },
      }}
      x={{ title: "hit rate", unit: "%", domain: [0, 1], format: formatRate }}
      y={{ key: "name", width: 160, small: true, fullName: (l) => full.get(l) ?? l }}
      tooltip={{
        label: (_l, items) => (items[0]?.payload as Row | undefined)?.full,
        value: (v, _k, r) => [`${formatRate(v)} ${detail(r)}`, r.role],
      }}
    />
  );
}
