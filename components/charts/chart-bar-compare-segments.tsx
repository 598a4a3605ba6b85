"use client";

import { ChartContainer } from "@/components/charts/chart-container";
import type { RunSummary } from "@/lib/api/schemas";
import { formatMs } from "@/lib/format-number";
import type { CompareStat } from "@/lib/api/compare-schemas";
import { segmentBarRows } from "@/lib/metrics/compare-chart-rows";
import { segmentWords } from "@/lib/metrics/segment-words";
import { distinctLabels } from "@/lib/metrics/short-labels";
import { segmentColour } from "@/lib/metrics/trtllm-chart-rows";
import { TRTLLM_COMPLETED } from "@/components/charts/definitions";
import { stackEnd } from "@/components/charts/plot-parts";
import { labelRoomPx, stackEnds } from "@/lib/metrics/bar-labels";

/** The series key of the stacks' end (no segment is named so). */
const STACK_END = "stack end";

/** Each run's request time split into segments at the chosen statistic, one stacked bar per run. */
export function ChartBarCompareSegments({ runs, stat }: { runs: RunSummary[]; stat: CompareStat }) {
  const { segments, rows: byRun } = segmentBarRows(runs, stat);
  if (byRun.length === 0) return null;
  // Run names on one line each, short; the full name is the tick's hover title and the tooltip's.
  const short = distinctLabels(
    byRun.map((r) => r.run),
    20,
    26,
  );
  // Each run's stack ends with its sum, written past it: "Σ", a sum of statistics, not a statistic of the total.
  const sumText = (v: number) => `Σ ${formatMs(v)}`;
  const rows: Array<(typeof byRun)[number] & { axis: string; sumMs: number }> = byRun.map((r, i) => ({
    ...r,
    axis: short[i],
    sumMs: stackEnds(segments.map((s) => r[s.name] as number | undefined)).at(-1) ?? 0,
  }));
  const full = new Map(rows.map((r) => [r.axis, r.run]));
  // The legend (one entry per segment, up to 14) takes its room from the plot: it is added to the
  // frame, as wrapped on a phone (about 45 characters a line), so the bars keep theirs.
  const legendRoom = 18 * Math.ceil(segments.reduce((n, s) => n + segmentWords(s.name).length + 4, 0) / 45);
  const csv = rows.flatMap((r) =>
    segments.map((s) => ({
      run: r.run,
      runId: r.runId,
      segment: s.name,
      [`${stat}Ms`]: r[s.name] as number | undefined,
    })),
  );
  return (
    <ChartContainer
      title={`Time breakdown at ${stat}`}
      description={`Segment ${stat} per run (ms), their sum (Σ) at the bar's end. A stack of ${stat}s is not the ${stat} of the total.`}
      definition={TRTLLM_COMPLETED}
      csvRows={() => csv}
      exportName={`compare-segments-${stat}`}
      missing="No run here has a time breakdown: compare runs with TensorRT-LLM perf metrics (return_perf_metrics on)."
      height={Math.max(176, 76 + rows.length * 48) + legendRoom}
      kind="bar"
      horizontal
      data={rows}
      // Room right of the longest stack for its sum (lib/metrics/bar-labels.ts).
      marginRight={labelRoomPx(rows.map((r) => sumText(r.sumMs)))}
      series={{
        ...Object.fromEntries(
          // Named in words, as the Breakdown view's table and the delta table name segments.
          segments.map((s) => [
            s.name,
            { label: segmentWords(s.name), color: segmentColour(s.name), stack: "t", minLength: true },
          ]),
        ),
        [STACK_END]: stackEnd("t", "sumMs", sumText),
      }}
      x={{ title: `time at ${stat}`, unit: "ms", format: formatMs }}
      // On a phone each run is named above its stack, as on the waterfall: beside it the names
      // took most of the width, and the 14 bands' minimum length ran a 991.5 ms scale to 2,000 ms.
      y={{ key: "axis", width: 140, namesAbove: true, fullName: (l) => full.get(l) ?? l }}
      tooltip={{ label: (l) => full.get(String(l)) ?? String(l) }}
      legend
    />
  );
}
