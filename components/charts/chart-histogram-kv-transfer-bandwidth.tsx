"use client";

import {
  Bar,
  BarChart,
  CartesianGrid,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { useTrtllmChart } from "@/components/breakdown/use-trtllm-chart";
import { ChartContainer } from "@/components/charts/chart-container";
import { formatNumber } from "@/lib/format-number";
import { histogramPayloadSchema, TRTLLM_CHART_KEYS } from "@/lib/api/trtllm-charts";

const gbps = (v: number) => `${formatNumber(v, 2)} GB/s`;

/**
 * Per-request KV-cache transfer bandwidth (TensorRT-LLM perf metrics: kv_cache_size over the
 * transfer's duration). Self-contained: give it a run id; it renders nothing when the run has
 * no transfers.
 */
export function ChartHistogramKvTransferBandwidth({
  runId,
  height = 260,
}: {
  runId: string;
  height?: number;
}) {
  const q = useTrtllmChart(runId, TRTLLM_CHART_KEYS.kvTransferBandwidth, histogramPayloadSchema);
  const p = q.data;
  if (!p || p.count === 0) return null;
  const rows = p.bins.map((b) => ({ ...b, mid: (b.lo + b.hi) / 2 }));
  return (
    <ChartContainer
      title="KV transfer bandwidth"
      description={`${p.count.toLocaleString("en-US")} transfers, ctx → gen worker, GB/s (1e9 bytes per second)`}
      csvRows={() => p.bins.map((b) => ({ fromGBps: b.lo, toGBps: b.hi, transfers: b.count }))}
      exportName="kv-transfer-bandwidth"
      height={height}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} margin={{ top: 16, right: 16, bottom: 4, left: 0 }} barCategoryGap={1}>
          <CartesianGrid stroke="var(--grid)" vertical={false} />
          <XAxis
            dataKey="mid"
            type="number"
            domain={["dataMin", "dataMax"]}
            tickFormatter={gbps}
            stroke="var(--muted)"
            fontSize={11}
          />
          <YAxis allowDecimals={false} stroke="var(--muted)" fontSize={11} />
          <Tooltip
            labelFormatter={(_, items) => {
              const r = items?.[0]?.payload as { lo: number; hi: number } | undefined;
              return r ? `${gbps(r.lo)} – ${gbps(r.hi)}` : "";
            }}
            contentStyle={{ background: "var(--card)", borderColor: "var(--border)", fontSize: 12 }}
          />
          <Bar dataKey="count" name="transfers" fill="var(--seg-gen-kv-transfer)" isAnimationActive={false} />
          {p.stats ? (
            <ReferenceLine
              x={p.stats.p50}
              stroke="var(--fg)"
              strokeDasharray="4 2"
              label={{ value: "p50", position: "top", fill: "var(--fg)", fontSize: 11 }}
            />
          ) : null}
        </BarChart>
      </ResponsiveContainer>
    </ChartContainer>
  );
}
