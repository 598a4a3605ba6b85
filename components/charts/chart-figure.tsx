"use client";

import { useState, type ReactNode } from "react";
import { ToggleGroup } from "@/components/breakdown/breakdown-controls";
import { mergedMarkLabels } from "@/lib/api/figure-mark-rows";
import { onRightAxis, seriesAxis, seriesLabel, tokenVar, type FigureDescription } from "@/lib/api/figure";
import { VALUE_SCALES, type ValueScale } from "@/lib/api/trtllm-charts";
import { decadesSpanned } from "@/lib/metrics/bar-labels";
import { ChartContainer, type AxisSpec, type TooltipSpec } from "./chart-container";
import { barValueFormat, figureProps, unitFormat } from "./figure-props";
import { binRange, markRowsRoom, ReferenceMark, XMarks } from "./reference-marks";
import { useNarrow } from "./use-narrow";

/** The figure's x axis span, to tell which half of the plot a mark is in. */
function xDomain(figure: FigureDescription): readonly [number, number] {
  const xs = figure.series.flatMap((s) => s.points.map(([x]) => x));
  return figure.x.domain ?? [Math.min(...xs), Math.max(...xs)];
}

/** The figure's named x positions (a distribution's percentiles), in the label rows above the plot. */
const marksOf = (figure: FigureDescription) =>
  (figure.marks ?? []).map((m) => ({ x: m.x, label: m.label, color: tokenVar(m.colour) }));

/**
 * A figure description (lib/api/figure.ts) drawn with the chart kit: the page's renderer of the
 * figures the offline report draws too (lib/runs/report/figure-kit.ts).
 */
export function ChartFigure({
  figure,
  still,
  interaction,
  actions,
  onRowClick,
  tooltip,
  y,
  scale: viewScale,
}: {
  figure: FigureDescription;
  /** The figure the server drew (lib/runs/first-figures.ts), shown until this one is drawn */
  still?: string;
  /**
   * What the page lets a reader do with the figure, said after its description (the report,
   * static, leaves it out): "click a bar for its waterfall"
   */
  interaction?: string;
  /** The view's controls beside the title */
  actions?: ReactNode;
  /** A click on a row (a bar's category, by index) */
  onRowClick?: (index: number) => void;
  /** The view's own tooltip, in place of the one drawn from the description */
  tooltip?: TooltipSpec;
  /** How the view draws the value axis (a log scale), over the description's words and unit */
  y?: Partial<AxisSpec>;
  /**
   * The view's own value axis scale (a URL step, its toggle among `actions`), over the figure's
   * toggle; linear where the description offers no log axis
   */
  scale?: ValueScale;
}) {
  // Bars whose values span decades offer a log value axis; linear first, as the report draws them.
  const [ownScale, setScale] = useState<ValueScale>("linear");
  const offerLog = viewScale === undefined && figure.kind === "bars" && figure.y.logOption === true;
  const scale = viewScale ?? ownScale;
  const narrow = useNarrow();
  const described = figureProps(figure, offerLog || viewScale !== undefined ? scale : "linear", narrow);
  const hint =
    offerLog && scale === "linear"
      ? `values span ${Math.floor(
          decadesSpanned(figure.series.flatMap((s) => s.points.map(([, v]) => v))),
        )} decades: try the log axis`
      : null;
  // The right axis (figure-props.ts `y2`), drawn beside the left one.
  const y2 = "y2" in described ? described.y2 : undefined;
  const left = y ? { ...described.y, ...y } : described.y;
  const props = {
    ...described,
    description: [described.description, hint && ` · ${hint}`, interaction && `. ${interaction}`]
      .filter(Boolean)
      .join(""),
    y: y2 ? [left, y2] : left,
  };
  const xText = unitFormat(figure.x.unit);
  // A bar's value in its own unit (5 MB/s on a GB/s axis), as its label writes it; a series on the
  // right axis in that axis's unit.
  const yText = (figure.kind === "bars" ? barValueFormat : unitFormat)(figure.y.unit);
  const texts = Object.fromEntries(
    figure.series.map((s) => [
      s.key,
      onRightAxis(figure, s) ? unitFormat(seriesAxis(figure, s).unit) : yText,
    ]),
  );
  const names = Object.fromEntries(figure.series.map((s) => [s.key, seriesLabel(figure, s)]));
  const domain = (figure.marks ?? []).length > 0 ? xDomain(figure) : ([0, 1] as const);
  // Names of lines too close to sit side by side are written once (lib/api/figure-mark-rows.ts).
  const marks = mergedMarkLabels(marksOf(figure), domain, xText);
  return (
    <ChartContainer
      {...props}
      marginTop={markRowsRoom(marks, domain)}
      actions={
        offerLog ? (
          <>
            {actions}
            <ToggleGroup
              label="value axis"
              options={VALUE_SCALES.map((s) => ({ id: s, text: s }))}
              value={scale}
              onChange={setScale}
            />
          </>
        ) : (
          actions
        )
      }
      onRowClick={onRowClick}
      tooltip={
        tooltip ?? {
          // A bar's title is its bin's range, or its category's whole name; a line's, its x; a
          // scatter names x among its values.
          ...(figure.kind === "histogram"
            ? { label: binRange("start", "end", xText) }
            : figure.kind === "line"
              ? { label: (v: unknown) => xText(Number(v)) }
              : figure.kind === "bars" && left.fullName
                ? { label: (v: unknown) => left.fullName?.(String(v)) ?? String(v) }
                : figure.kind === "stacked" && figure.horizontal
                  ? // One bar read band by band: the tooltip lists them as stacked.
                    { cursor: false, label: (v: unknown) => `${String(v)}, in stack order` }
                  : {}),
          value: (v, key) =>
            key === "x"
              ? [xText(v), figure.x.label]
              : figure.kind === "histogram" || (figure.kind === "line" && figure.series.length === 1)
                ? yText(v)
                : [(texts[key] ?? yText)(v), names[key] ?? key],
        }
      }
      still={still}
    >
      {marks.length > 0 ? <XMarks marks={marks} domain={domain} /> : null}
      {(figure.levels ?? []).map((l) => (
        <ReferenceMark key={l.label} y={l.y} label={l.label} />
      ))}
    </ChartContainer>
  );
}
