"use client";

import { Bar, BarChart, CartesianGrid, Cell, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { ChartContainer } from "@/components/charts/chart-container";
import { formatCount, formatRate } from "@/lib/format-number";
import type { KvHitRatePayload } from "@/lib/api/trtllm-charts";

/** Block-weighted KV-cache hit rate per worker and per role, bars coloured by role. */
export function ChartBarKvHitRate({ payload }: { payload: KvHitRatePayload }) {
  const rows = [
    ...payload.byRole.map((r) => ({ ...r, name: `all ${r.role}` })),
    ...payload.byWorker.map((w) => ({ ...w, name: w.worker })),
  ];
  return (
    <ChartContainer
      title="KV-cache hit rate by role and worker"
      description={`Σ reused / Σ (reused + missed) blocks; run (prefill side): ${payload.run === null ? "not recorded" : formatRate(payload.run)}`}
      csvRows={() =>
        rows.map((r) => ({
          name: r.name,
          role: r.role,
          requests: r.requests,
          reused: r.reusedBlocks,
          missed: r.missedBlocks,
          hitRate: r.hitRate,
        }))
      }
      exportName="kv-hit-rate"
      height={Math.max(160, rows.length * 28 + 40)}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} layout="vertical" margin={{ top: 4, right: 24, bottom: 4, left: 8 }}>
          <CartesianGrid stroke="var(--grid)" horizontal={false} />
          <XAxis
            type="number"
            domain={[0, 1]}
            tickFormatter={(v: number) => formatRate(v)}
            stroke="var(--muted)"
            fontSize={11}
          />
          <YAxis type="category" dataKey="name" width={220} stroke="var(--muted)" fontSize={10} />
          <Tooltip
            contentStyle={{ background: "var(--card)", borderColor: "var(--border)", fontSize: 12 }}
            formatter={(v, _n, item) => {
              const r = item.payload as (typeof rows)[number];
              return [
                `${formatRate(Number(v))} (${formatCount(r.reusedBlocks)} reused, ${formatCount(r.missedBlocks)} missed, ${formatCount(r.requests)} requests)`,
                r.role,
              ];
            }}
          />
          <Bar dataKey="hitRate" isAnimationActive={false}>
            {rows.map((r) => (
              <Cell key={r.name} fill={`var(--role-${r.role})`} />
            ))}
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </ChartContainer>
  );
}
