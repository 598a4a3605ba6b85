"use client";

import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  LabelList,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { NOT_RECORDED_PATTERN_ID, NotRecordedPattern } from "@/components/breakdown/not-recorded";
import { ChartContainer } from "@/components/charts/chart-container";
import { formatMs } from "@/lib/format-number";
import { segmentColour, waterfallRows } from "@/lib/metrics/trtllm-chart-rows";
import type { RequestDetail } from "@/lib/api/trtllm-charts";

/**
 * One request's segments on its own timeline (ms after arrival). A segment that was not recorded
 * gets a short hatched placeholder labelled "not recorded"; a recorded 0 ms segment gets no bar
 * and the label "0 ms", so the two never look alike.
 */
export function ChartBarWaterfallRequest({ detail }: { detail: RequestDetail }) {
  const rows = waterfallRows(detail, formatMs);
  const spanMs = Math.max(1, ...rows.map((r) => r.offsetMs + r.durationMs));
  const placeholderMs = spanMs * 0.03;
  const data = rows.map((r) => ({
    ...r,
    shown: r.status === "recorded" ? r.durationMs : placeholderMs,
  }));
  return (
    <ChartContainer
      title={`Request ${detail.requestId ?? `#${detail.idx}`}: waterfall`}
      description="Each segment from its start, ms after the request arrived; hatched = not recorded"
      csvRows={() =>
        rows.map((r) => ({
          segment: r.name,
          startMs: r.offsetMs,
          durationMs: r.status === "recorded" ? r.durationMs : r.text,
        }))
      }
      exportName={`request-${detail.idx}-waterfall`}
      height={Math.max(180, rows.length * 26 + 40)}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart
          data={data}
          layout="vertical"
          margin={{ top: 4, right: 110, bottom: 4, left: 8 }}
          barCategoryGap={3}
        >
          <NotRecordedPattern />
          <CartesianGrid stroke="var(--grid)" horizontal={false} />
          <XAxis
            type="number"
            domain={[0, "auto"]}
            tickFormatter={(v: number) => formatMs(v)}
            stroke="var(--muted)"
            fontSize={11}
          />
          <YAxis type="category" dataKey="name" width={150} stroke="var(--muted)" fontSize={11} />
          <Tooltip
            cursor={{ fill: "var(--grid)", opacity: 0.4 }}
            contentStyle={{ background: "var(--card)", borderColor: "var(--border)", fontSize: 12 }}
            formatter={(_v, _n, item) => {
              const r = item.payload as (typeof data)[number];
              return [r.status === "recorded" ? `${r.text} (from ${formatMs(r.offsetMs)})` : r.text, r.label];
            }}
          />
          <Bar dataKey="offsetMs" stackId="w" fill="transparent" isAnimationActive={false} />
          <Bar dataKey="shown" stackId="w" isAnimationActive={false}>
            {data.map((r) => (
              <Cell
                key={r.name}
                fill={r.status === "recorded" ? segmentColour(r.name) : `url(#${NOT_RECORDED_PATTERN_ID})`}
                stroke={r.status === "recorded" ? undefined : "var(--muted)"}
              />
            ))}
            <LabelList dataKey="text" position="right" fontSize={11} fill="var(--fg)" />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </ChartContainer>
  );
}
