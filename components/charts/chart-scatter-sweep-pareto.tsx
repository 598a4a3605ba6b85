"use client";

import { ChartContainer, type SeriesConfig } from "@/components/charts/chart-container";
import { fittedTicks, logTicks, tickDecimals } from "@/lib/metrics/nice-scale";
import { formatNumber } from "@/lib/format-number";
import { labelPlacer } from "@/lib/metrics/label-placement";
import { axisUnit, type PlotPoint, type SweepAxis, type SweepSeries } from "@/lib/metrics/sweep-chart-rows";

export interface OverlaidSweep {
  name: string;
  color: string;
  series: SweepSeries;
}

/** Round ticks and the domain they span for a value axis of the sweep charts: fitted to the data, or log. */
export function ticksFor(values: number[], log: boolean): { ticks: number[]; domain: [number, number] } {
  const max = Math.max(...values);
  if (log) {
    const min = Math.min(...values.filter((v) => v > 0));
    const ticks = logTicks(min, max);
    return { ticks, domain: [ticks[0] ?? min, ticks[ticks.length - 1] ?? max] };
  }
  const ticks = fittedTicks(Math.min(...values), max);
  return { ticks, domain: [ticks[0], ticks[ticks.length - 1]] };
}

/**
 * Tick text in the axis's written unit (seconds for a millisecond axis past 10,000 ms), with the
 * decimals its ticks need: all of them written alike (10.75 / 11 / 11.25, not 10.8 / 11 / 11.3).
 */
const tickIn = (divisor: number, ticks: readonly number[]) => {
  const digits = tickDecimals(ticks.map((t) => t / divisor));
  return (v: number) => (v / divisor).toLocaleString("en-US", { maximumFractionDigits: digits });
};

type Row = PlotPoint & { xBar?: [number, number]; yBar?: [number, number] };

/** A point's rows with its interval as error bars only when repeated runs give it one. */
const withBars = (points: PlotPoint[]): Row[] =>
  points.map((p) =>
    p.xSpread.runs > 1 ? { ...p, xBar: p.xErr, yBar: p.yErr } : { ...p, xBar: undefined, yBar: undefined },
  );

const spreadText = (p: PlotPoint, axis: "x" | "y", divisor = 1) => {
  const s = axis === "x" ? p.xSpread : p.ySpread;
  return s.runs > 1
    ? ` (median of ${s.runs} runs, ${formatNumber(s.lo / divisor)}–${formatNumber(s.hi / divisor)})`
    : "";
};

/**
 * One Pareto chart of overlaid sweeps: every sweep point labelled with its load (c4; repeated runs
 * of one load are one point at their median, "c4 ×3", with their min–max as bars on both axes),
 * each sweep's frontier drawn as the step through its undominated points, in that sweep's colour,
 * and an optional single run as a star.
 */
export function ChartScatterSweepPareto({
  id,
  title,
  description,
  x,
  y,
  sweeps,
  marked,
  logX,
  logY,
  missing,
}: {
  id: string;
  title: string;
  description: string;
  x: SweepAxis;
  y: SweepAxis;
  sweeps: OverlaidSweep[];
  marked: (PlotPoint & { name: string }) | null;
  logX: boolean;
  logY: boolean;
  missing: string;
}) {
  // One placer for every label of the chart (the sweeps' and the marked run's), so none overlaps
  // another; a new one each render, since then every label is drawn anew (a label drawn again
  // with the same placer, as on a hover, keeps its place).
  const placer = labelPlacer(11);
  // Every point drawn, of every sweep and the marked run (a star, wider than a dot): no label
  // covers one of them.
  const markers = [
    ...sweeps.flatMap((s) => s.series.points.map((p) => ({ x: p.x, y: p.y }))),
    ...(marked ? [{ x: marked.x, y: marked.y, radiusPx: 8 }] : []),
  ];
  const series: SeriesConfig<Row> = {};
  sweeps.forEach((s, i) => {
    series[`s${i}`] = {
      label: s.name,
      color: s.color,
      data: withBars(s.series.points),
      dataKey: "y",
      // With many sweeps overlaid, only the first one's points are labelled: the rest would overprint.
      labels: i === 0 || sweeps.length <= 2 ? "label" : undefined,
      labelPlacer: placer,
      labelMarkers: markers,
      errorBars: { x: "xBar", y: "yBar" },
    };
    series[`f${i}`] = {
      label: `${s.name} frontier`,
      color: s.color,
      data: s.series.steps,
      dataKey: "y",
      line: true,
      hidden: true,
    };
  });
  if (marked)
    series.run = {
      label: marked.name,
      color: "var(--fg)",
      data: [marked],
      dataKey: "y",
      symbol: "star",
      labels: "label",
      labelPlacer: placer,
      labelMarkers: markers,
    };
  const all = [...sweeps.flatMap((s) => s.series.points), ...(marked ? [marked] : [])];
  const xs = all.flatMap((p) => [p.xSpread.lo, p.xSpread.hi]);
  const ys = all.flatMap((p) => [p.ySpread.lo, p.ySpread.hi]);
  const xt = all.length ? ticksFor(xs, logX) : { ticks: [0, 1], domain: [0, 1] as [number, number] };
  const yt = all.length ? ticksFor(ys, logY) : { ticks: [0, 1], domain: [0, 1] as [number, number] };
  const xu = axisUnit(x, xt.ticks);
  const yu = axisUnit(y, yt.ticks);
  return (
    <ChartContainer
      title={title}
      description={description}
      exportName={`sweep-${id}`}
      height={340}
      kind="scatter"
      series={series}
      x={{
        key: "x",
        name: x.title,
        title: x.title,
        unit: xu.unit,
        format: tickIn(xu.divisor, xt.ticks),
        ticks: xt.ticks,
        domain: xt.domain,
        log: logX,
      }}
      y={{
        key: "y",
        name: y.title,
        title: y.title,
        unit: yu.unit,
        format: tickIn(yu.divisor, yt.ticks),
        ticks: yt.ticks,
        domain: yt.domain,
        log: logY,
      }}
      tooltip={{
        value: (v, key, row) => [
          `${formatNumber(v / (key === "x" ? xu : yu).divisor)} ${(key === "x" ? xu : yu).unit}${row.xSpread ? spreadText(row, key === "x" ? "x" : "y", (key === "x" ? xu : yu).divisor) : ""}`,
          `${row.label} · ${key === "x" ? x.title : y.title}`,
        ],
      }}
      legend
      csvRows={() => [
        ...sweeps.flatMap((s) =>
          s.series.points.map((p) => ({
            sweep: s.name,
            load: p.label,
            run: p.runNames.join("; "),
            runs: p.runIds.length,
            [`${x.title} (${x.unit})`]: p.x,
            [`${x.title} min`]: p.xSpread.lo,
            [`${x.title} max`]: p.xSpread.hi,
            [`${y.title} (${y.unit})`]: p.y,
            [`${y.title} min`]: p.ySpread.lo,
            [`${y.title} max`]: p.ySpread.hi,
            onFrontier: s.series.frontier.includes(p) ? "yes" : "no",
          })),
        ),
        ...(marked
          ? [
              {
                sweep: "(single run)",
                load: marked.label,
                run: marked.runName,
                runs: 1,
                [`${x.title} (${x.unit})`]: marked.x,
                [`${x.title} min`]: marked.x,
                [`${x.title} max`]: marked.x,
                [`${y.title} (${y.unit})`]: marked.y,
                [`${y.title} min`]: marked.y,
                [`${y.title} max`]: marked.y,
                onFrontier: "",
              },
            ]
          : []),
      ]}
      missing={missing}
    />
  );
}
