"use client";

import { useRef, type ReactNode } from "react";
import { downloadCsv, downloadSvgAsPng, type CsvRow } from "./export";

export interface ChartContainerProps {
  title: string;
  /** One line under the title: what the chart shows and in which unit. */
  description?: ReactNode;
  /** Rows behind the chart, for the CSV export; omit to hide the button. */
  csvRows?: () => CsvRow[];
  /** File name stem for exports */
  exportName?: string;
  height?: number;
  /** Extra controls shown at the right of the title (statistic picker, sort, …). */
  actions?: ReactNode;
  children: ReactNode;
}

/**
 * The one frame every chart sits in: title, description, PNG and CSV export. Colours come from
 * CSS variables (app/globals.css: --chart-N, --seg-*, --role-*) so light and dark themes agree.
 */
export function ChartContainer({
  title,
  description,
  csvRows,
  exportName,
  height = 300,
  actions,
  children,
}: ChartContainerProps) {
  const ref = useRef<HTMLDivElement>(null);
  const stem = exportName ?? title.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  return (
    <figure className="rounded-lg border border-border bg-card p-4" data-chart={stem}>
      <figcaption className="mb-3 flex flex-wrap items-start justify-between gap-2">
        <div>
          <h3 className="text-sm font-semibold">{title}</h3>
          {description ? <p className="text-xs text-muted">{description}</p> : null}
        </div>
        <div className="flex items-center gap-2 text-xs">
          {actions}
          <button
            type="button"
            className="btn-ghost"
            onClick={() => {
              // The chart's own surface, not a legend icon (legend icons are svg.recharts-surface too).
              const svg =
                ref.current?.querySelector(".recharts-wrapper > svg.recharts-surface") ??
                ref.current?.querySelector("svg");
              if (svg) void downloadSvgAsPng(svg as SVGSVGElement, `${stem}.png`);
            }}
          >
            PNG
          </button>
          {csvRows ? (
            <button type="button" className="btn-ghost" onClick={() => downloadCsv(csvRows(), `${stem}.csv`)}>
              CSV
            </button>
          ) : null}
        </div>
      </figcaption>
      <div ref={ref} style={{ height }} className="w-full">
        {children}
      </div>
    </figure>
  );
}
