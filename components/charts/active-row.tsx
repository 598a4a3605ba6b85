"use client";

import { useEffect } from "react";
import { useActiveTooltipDataPoints } from "recharts";

/**
 * Reports the row under the chart's tooltip, whether the pointer or the arrow keys put it there,
 * so the frame can open it on Enter. Renders nothing.
 */
export function ActiveRow({ onChange }: { onChange: (row: unknown) => void }) {
  const points = useActiveTooltipDataPoints();
  const row = points?.[0];
  useEffect(() => onChange(row), [row, onChange]);
  return null;
}
