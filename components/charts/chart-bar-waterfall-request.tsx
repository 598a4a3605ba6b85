"use client";

import { NotRecordedPattern, segmentCell } from "@/components/breakdown/not-recorded";
import { ChartContainer } from "@/components/charts/chart-container";
import { formatMs } from "@/lib/format-number";
import { labelRoomPx } from "@/lib/metrics/bar-labels";
import { segmentColour, waterfallRows } from "@/lib/metrics/trtllm-chart-rows";
import { trtllmRequestName } from "@/lib/metrics/trtllm-request-name";
import type { RequestDetail } from "@/lib/api/trtllm-charts";

/**
 * One request's segments on its own timeline (ms after arrival). A segment that was not recorded
 * gets a short hatched placeholder labelled "not recorded"; a recorded 0 ms segment gets no bar
 * and the label "0 ms", so the two never look alike.
 */
export function ChartBarWaterfallRequest({ detail }: { detail: RequestDetail }) {
  const rows = waterfallRows(detail, formatMs);
  const placeholderMs = Math.max(1, ...rows.map((r) => r.offsetMs + r.durationMs)) * 0.03;
  const data = rows.map((r) => ({ ...r, shown: r.status === "recorded" ? r.durationMs : placeholderMs }));
  type Row = (typeof data)[number];
  const recorded = (r: Row) => r.status === "recorded";
  const tip = (r: Row) => (recorded(r) ? `${r.text} (from ${formatMs(r.offsetMs)})` : r.text);
  return (
    <ChartContainer<Row>
      title={`${trtllmRequestName(detail)}: waterfall`}
      description="Each segment from its start, ms after the request arrived; hatched = not recorded"
      definition={{ method: "this request's server stamps, each segment from its own start" }}
      // A segment without a duration has an empty duration cell and says why in its own column.
      csv={{
        segment: "name",
        start_ms: "offsetMs",
        duration_ms: (r) => (recorded(r) ? r.durationMs : null),
        status: (r) => (recorded(r) ? "recorded" : r.text),
      }}
      exportName={`request-${detail.idx}-waterfall`}
      missing="This request has no recorded segment timings."
      height={Math.max(196, rows.length * 26 + 56)}
      kind="bar"
      horizontal
      data={data}
      // Room right of the longest bar for its label (lib/metrics/bar-labels.ts).
      marginRight={labelRoomPx(data.map((r) => r.text))}
      barCategoryGap={3}
      series={{
        offsetMs: { label: "start", color: "transparent", stack: "w", hidden: true },
        shown: {
          label: "duration",
          color: "",
          stack: "w",
          // Each segment's duration (or why it has none) past its bar, as every bar chart writes
          // its values; a recorded segment above 0 is at least MIN_BAR_PX long.
          valueLabels: "text",
          cell: (r) => segmentCell(segmentColour(r.name), recorded(r)),
        },
      }}
      x={{ title: "time after arrival", unit: "ms", domain: [0, "auto"], format: formatMs }}
      // On a phone the segments are named above their bars: the names' gutter left some 65 px of plot.
      // In words, as the Breakdown view's table names each segment; the upstream name is the CSV's.
      y={{ key: "words", width: 170, namesAbove: true }}
      tooltip={{ cursor: { fill: "var(--grid)", opacity: 0.4 }, value: (_v, _k, r) => [tip(r), r.label] }}
    >
      <NotRecordedPattern />
    </ChartContainer>
  );
}
