"use client";

import { useState } from "react";
import { ToggleGroup } from "@/components/breakdown/breakdown-controls";
import { ChartContainer } from "@/components/charts/chart-container";
import { useNarrow } from "@/components/charts/use-narrow";
import { VALUE_SCALES, type ValueScale } from "@/lib/api/trtllm-charts";
import {
  decadesSpanned,
  labelledBandPx,
  labelLinePx,
  labelRoomPx,
  labelsFitAbove,
  logFloor,
  PLOT_PX,
  wantsLogOption,
} from "@/lib/metrics/bar-labels";
import { groupedRows } from "@/lib/metrics/compare-chart-rows";
import { formatNumber } from "@/lib/format-number";
import { distinctLabels, shortLabels } from "@/lib/metrics/short-labels";

export interface RunColumn {
  id: string;
  name: string;
  color: string;
}

interface Props {
  title: string;
  description: string;
  items: Array<{ key: string; values: Record<string, number | null> }>;
  runs: RunColumn[];
  /** Tick text of the value axis; absent, each tick takes the decimals its step needs. */
  format?: (v: number) => string;
  /** A bar's value in its label and tooltip, when it differs from the axis's ticks. */
  valueFormat?: (v: number) => string;
  exportName: string;
  /** What is missing and how to get it, said when no run has the metric. */
  missing: string;
  /** Title of the value axis, with its unit in brackets. */
  valueTitle: string;
}

/**
 * Grouped bars: one group per category (endpoint, role or metric), one bar per run. Used for
 * hit rates, KV capacity/usage, offload bandwidth and throughput on the compare page.
 */
export function ChartBarCompareRuns({
  items: all,
  runs,
  format,
  valueFormat = format ?? ((v: number) => formatNumber(v)),
  valueTitle,
  description,
  ...frame
}: Props) {
  const narrow = useNarrow();
  const [scale, setScale] = useState<ValueScale>("linear");
  const has = (v: number | null | undefined) => v !== null && v !== undefined;
  // A category no run has a value for (a decode endpoint's hit rate) is an empty row: named in the
  // description instead, and kept in the CSV.
  const items = all.filter((i) => Object.values(i.values).some(has));
  const empty = all.filter((i) => !items.includes(i)).map((i) => i.key);
  if (items.length === 0) return null;
  // A run without the metric gets no bar, so no legend entry and no empty slot in each group.
  const shown = runs.filter((r) => items.some((i) => has(i.values[r.id])));
  // Categories one run owns (an endpoint belongs to one run): one full bar each, coloured by its
  // run, rather than a group of slots of which all but one are empty.
  const single = items.every((i) => shown.filter((r) => has(i.values[r.id])).length <= 1);
  const slots = single ? 1 : shown.length;
  // Each bar's value is written past its end (lib/metrics/bar-labels.ts). Above vertical bars
  // only when every label fits its bar's width (a plot of about 380 px, 240 on a phone);
  // otherwise, and for many categories or a few long ones (the endpoints of several runs, printed
  // over each other side by side on x), the bars run down y, one row each, the label to the right.
  const values = items.flatMap((i) => shown.map((r) => i.values[r.id]));
  const texts = values.flatMap((v) => (typeof v === "number" ? [valueFormat(v)] : []));
  const sideways =
    items.length > 6 ||
    (items.length > 3 && items.some((i) => i.key.length > 12)) ||
    !labelsFitAbove(narrow ? PLOT_PX.narrow : PLOT_PX.wide, items.length, slots, texts);
  // Values spanning decades (5 MB/s beside 9.5 GB/s): a log axis shows the small ones too.
  const offerLog = wantsLogOption(values);
  const log = offerLog && scale === "log";
  const valueAxis = {
    ...(format ? { format } : {}),
    title: valueTitle,
    ...(log ? { log: true, domain: [logFloor(values), "auto"] as [number, "auto"] } : {}),
  };
  // The legend names runs by what tells them apart (as the delta table's headers do), with the
  // colours of the run list above, where the whole names are.
  const legendNames = new Map(
    distinctLabels(runs.map((r) => r.name)).map((l, i) => [runs[i].id, l] as const),
  );
  // Sized by its data: a band per category sideways, tall enough that the labels of its bars are
  // a line apart; the legend takes its room from the plot, so it is added to the frame rather
  // than squeezing the bars. A name of more than ~55 characters wraps on a half-width chart.
  const legendRoom = shown.reduce(
    (h, r) => h + 18 * Math.ceil((legendNames.get(r.id) ?? r.name).length / 55),
    0,
  );
  const height = sideways
    ? 70 + items.length * labelledBandPx(slots) + legendRoom
    : 200 + labelLinePx() + legendRoom;
  // A category label has a bar group's width: long when there are few of them.
  const short = shortLabels(
    items.map((i) => i.key),
    items.length <= 3 && !sideways ? 32 : 20,
  );
  const full = new Map(items.map((i, n) => [short[n], i.key]));
  const rows = groupedRows(items).map((r, n) => ({ ...r, axis: short[n] }));
  return (
    <ChartContainer
      {...frame}
      description={`${description}${empty.length > 0 ? ` · no value: ${empty.join(", ")}` : ""}${
        offerLog && !log
          ? ` · values span ${Math.floor(decadesSpanned(values))} decades: try the log axis`
          : ""
      }`}
      actions={
        offerLog ? (
          <ToggleGroup
            label="value axis"
            options={VALUE_SCALES.map((s) => ({ id: s, text: s }))}
            value={scale}
            onChange={setScale}
          />
        ) : undefined
      }
      definition={{
        window: "each run's own, as on its views",
        method: "each run's figure as its own views compute it; a run without the metric has no bar",
      }}
      csvRows={() =>
        all.flatMap((i) =>
          runs.map((r) => ({ category: i.key, run: r.name, runId: r.id, value: i.values[r.id] })),
        )
      }
      height={height}
      kind="bar"
      horizontal={sideways}
      // Room for the value written past the longest bar (beside it, or above it).
      marginRight={sideways ? labelRoomPx(texts) : 0}
      marginTop={sideways ? 0 : labelLinePx()}
      data={rows}
      series={Object.fromEntries(
        shown.map((r) => [
          r.id,
          {
            label: legendNames.get(r.id) ?? r.name,
            color: r.color,
            format: valueFormat,
            // Exact numbers without a hover; a small value beside a big one still shows a bar.
            valueLabels: true,
            ...(single ? { stack: "run" } : {}),
          },
        ]),
      )}
      x={sideways ? valueAxis : { key: "axis", everyTick: true }}
      // Every row named: a category axis never drops a name to make room.
      y={
        sideways ? { key: "axis", width: 150, everyTick: true, fullName: (l) => full.get(l) ?? l } : valueAxis
      }
      tooltip={{ label: (l) => full.get(String(l)) ?? String(l) }}
      legend
    />
  );
}
