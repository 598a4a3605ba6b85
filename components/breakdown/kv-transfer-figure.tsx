"use client";

import { ChartFigure } from "@/components/charts/chart-figure";
import { useRunChart } from "@/components/charts/use-run-chart";
import { TRTLLM_CHARTS } from "@/lib/api/chart-catalog";
import { kvTransferBandwidthFigure } from "@/lib/metrics/figures/breakdown";

/**
 * The KV transfer bandwidth histogram (lib/metrics/figures/breakdown.ts) of a run, fetched here:
 * the Breakdown and Offload views both show it. Nothing when the run has no transfers.
 */
export function KvTransferFigure({ runId }: { runId: string }) {
  const p = useRunChart(runId, TRTLLM_CHARTS.kvTransferBandwidth).data;
  if (!p || p.count === 0) return null;
  return <ChartFigure figure={kvTransferBandwidthFigure(p)} />;
}
