"use client";

import { useState, type RefObject } from "react";
import { downloadFigure, slug } from "./export";
import { resolveColour } from "./export-figure";
import { useChartSource } from "./export-context";

interface Props {
  title: string;
  /** The element holding the plot's SVG. */
  plot: RefObject<HTMLDivElement | null>;
  /** The caption's description element, whose text goes under the title. */
  description: RefObject<HTMLParagraphElement | null>;
  legend: Array<{ label: string; color: string; shape?: "dot" }>;
  stem: string;
}

/** PNG and SVG buttons: the chart saved as a figure named `<run>-<chart>`. */
export function FigureExportButtons({ title, plot, description, legend, stem }: Props) {
  const source = useChartSource();
  const [error, setError] = useState<string | null>(null);
  const save = (as: "png" | "svg") => {
    // The chart's own surface, not a legend icon (legend icons are svg.recharts-surface too).
    const svg =
      plot.current?.querySelector(".recharts-wrapper > svg.recharts-surface") ??
      plot.current?.querySelector("svg");
    if (!svg) return;
    const text = {
      title,
      subtitle: source?.name,
      description: description.current?.textContent ?? undefined,
      legend: legend.map((l) => ({ ...l, color: resolveColour(l.color) })),
    };
    const file = source?.filePrefix ? `${slug(source.filePrefix)}-${stem}` : stem;
    setError(null);
    downloadFigure(svg as SVGSVGElement, text, file, as).catch((e: unknown) =>
      setError(e instanceof Error ? e.message : String(e)),
    );
  };
  return (
    <>
      <button type="button" className="btn-ghost" onClick={() => save("png")}>
        PNG
      </button>
      <button type="button" className="btn-ghost" onClick={() => save("svg")}>
        SVG
      </button>
      {error ? (
        <span role="alert" className="text-danger">
          Export failed: {error}
        </span>
      ) : null}
    </>
  );
}
