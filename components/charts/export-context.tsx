"use client";

import { createContext, useContext, type ReactNode } from "react";

/** Whose charts these are: named on every exported figure, and in its file name when `filePrefix` is set. */
export interface ChartSource {
  /** The run's name (or the compared runs), printed under the figure's title. */
  name: string;
  /** Put before the chart's name in export file names (`<run>-<chart>.png`). */
  filePrefix?: string;
}

const ChartSourceContext = createContext<ChartSource | undefined>(undefined);

export function ChartSourceProvider({ source, children }: { source: ChartSource; children: ReactNode }) {
  return <ChartSourceContext.Provider value={source}>{children}</ChartSourceContext.Provider>;
}

export const useChartSource = () => useContext(ChartSourceContext);
