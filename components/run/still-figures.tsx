"use client";

import { createContext, useContext, type ReactNode } from "react";

/**
 * Figures the server drew as SVG for the view opened (lib/runs/first-figures.ts), by
 * `<exportName>/<metric>`: a chart shows its own in its plot box until the chart library has
 * drawn it (ChartContainer's `still`).
 */
interface Stills {
  figures: Readonly<Record<string, string>>;
  /** A figure's title and box height (a phone's too, where it differs), for figures other than the latency distributions */
  frames: Readonly<Record<string, StillFrame>>;
}

/** A figure's title and box height, and its box's height on a phone where that differs. */
export interface StillFrame {
  title: string;
  height: number;
  phoneHeight?: number;
}

const StillFiguresContext = createContext<Stills>({ figures: {}, frames: {} });

export function StillFigures({
  figures,
  frames = {},
  children,
}: {
  figures: Record<string, string>;
  frames?: Record<string, StillFrame>;
  children: ReactNode;
}) {
  return <StillFiguresContext.Provider value={{ figures, frames }}>{children}</StillFiguresContext.Provider>;
}

export function useStillFigure(key: string): string | undefined {
  return useContext(StillFiguresContext).figures[key];
}

/** Every figure the server drew, by key. */
export function useStillFigureMap(): Readonly<Record<string, string>> {
  return useContext(StillFiguresContext).figures;
}

/**
 * Every figure the server drew, as `[key, svg, frame]`, in the order it drew them; `frame` is
 * its title and box height where the server said them (a latency distribution's are the view's).
 */
export function useStillFigureList(): Array<[string, string, StillFrame | undefined]> {
  const { figures, frames } = useContext(StillFiguresContext);
  return Object.entries(figures).map(([key, svg]) => [key, svg, frames[key]]);
}
