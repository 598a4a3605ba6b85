"use client";

import type { FigureDescription } from "@/lib/api/figure";
import { ChartContainer } from "./chart-container";
import { figureProps, unitFormat } from "./figure-props";

/**
 * A figure description (lib/api/figure.ts) drawn with the chart kit: the page's renderer of the
 * figures the offline report draws too (lib/runs/report/figure-kit.ts).
 */
export function ChartFigure({ figure }: { figure: FigureDescription }) {
  const props = figureProps(figure);
  const xText = unitFormat(figure.x.unit);
  const yText = unitFormat(figure.y.unit);
  const names = Object.fromEntries(figure.series.map((s) => [s.key, s.name]));
  return (
    <ChartContainer
      {...props}
      tooltip={{
        value: (v, key) => (key === "x" ? [xText(v), figure.x.label] : [yText(v), names[key] ?? key]),
      }}
    />
  );
}
