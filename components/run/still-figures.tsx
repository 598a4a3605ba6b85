"use client";

import { createContext, useContext, type ReactNode } from "react";

/**
 * Figures the server drew as SVG for the view opened (lib/runs/first-figures.ts), by
 * `<exportName>/<metric>`: a chart shows its own in its plot box until the chart library has
 * drawn it (ChartContainer's `still`).
 */
const StillFiguresContext = createContext<Readonly<Record<string, string>>>({});

export function StillFigures({
  figures,
  children,
}: {
  figures: Record<string, string>;
  children: ReactNode;
}) {
  return <StillFiguresContext.Provider value={figures}>{children}</StillFiguresContext.Provider>;
}

export function useStillFigure(key: string): string | undefined {
  return useContext(StillFiguresContext)[key];
}

/** Every figure the server drew, as `[key, svg]` pairs, in the order it drew them. */
export function useStillFigureList(): Array<[string, string]> {
  return Object.entries(useContext(StillFiguresContext));
}
