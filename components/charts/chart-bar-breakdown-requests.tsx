"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { SegmentTooltip } from "@/components/breakdown/segment-tooltip";
import { ChartContainer } from "@/components/charts/chart-container";
import { formatMs } from "@/lib/format-number";
import { NOT_RECORDED_KEY, requestBarRows, segmentColour } from "@/lib/metrics/trtllm-chart-rows";
import type { RequestSample } from "@/lib/api/trtllm-charts";

/** One stacked bar per sampled request; clicking a bar opens that request's waterfall. */
export function ChartBarBreakdownRequests({
  sample,
  onSelect,
  actions,
}: {
  sample: RequestSample;
  onSelect: (idx: number) => void;
  actions?: React.ReactNode;
}) {
  const rows = requestBarRows(sample);
  const withGaps = rows.filter((r) => (r[NOT_RECORDED_KEY] as string[]).length > 0).length;
  return (
    <ChartContainer
      title="Per-request breakdown"
      description={`${rows.length.toLocaleString("en-US")} of ${sample.total.toLocaleString("en-US")} requests (evenly sampled), ms per segment; click a bar for its waterfall${withGaps ? `. ${withGaps.toLocaleString("en-US")} have segments not recorded: missing from the bar, named in the tooltip` : ""}`}
      csvRows={() =>
        sample.requests.map((r) => ({
          idx: r.idx,
          requestId: r.requestId,
          ttftMs: r.ttftMs,
          e2eMs: r.e2eMs,
          ...Object.fromEntries(
            sample.segmentNames.map((n, i) => {
              const v = r.segments[i];
              return [n, typeof v === "number" ? v : v === null ? "not recorded" : "excluded"];
            }),
          ),
        }))
      }
      exportName="per-request-breakdown"
      height={320}
      actions={actions}
    >
      <ResponsiveContainer width="100%" height="100%">
        <BarChart
          data={rows}
          margin={{ top: 8, right: 16, bottom: 4, left: 0 }}
          barCategoryGap={rows.length > 200 ? 0 : 1}
          onClick={(state) => {
            const i = Number(state?.activeTooltipIndex);
            if (Number.isInteger(i) && rows[i]) onSelect(rows[i].idx);
          }}
        >
          <CartesianGrid stroke="var(--grid)" vertical={false} />
          <XAxis
            dataKey="label"
            tick={false}
            stroke="var(--muted)"
            label={{ value: "requests", fontSize: 11, fill: "var(--muted)" }}
          />
          <YAxis tickFormatter={(v: number) => formatMs(v)} stroke="var(--muted)" fontSize={11} width={70} />
          <Tooltip
            content={
              <SegmentTooltip
                segmentNames={sample.segmentNames}
                title={(r) => `request ${String(r.label)}`}
              />
            }
          />
          {sample.segmentNames.map((name) => (
            <Bar
              key={name}
              dataKey={name}
              stackId="s"
              fill={segmentColour(name)}
              isAnimationActive={false}
              cursor="pointer"
            />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </ChartContainer>
  );
}
