"use client";

import { ChartStatus } from "@/components/charts/chart-status";
import { useRunChart } from "@/components/charts/use-run-chart";

import { formatNumber } from "@/lib/format-number";
import { AIPERF_CHARTS } from "@/lib/api/chart-catalog";

const cell = (v: number | null, digits: number, unit: string) =>
  v === null ? "—" : `${formatNumber(v, digits)}${unit}`;

/** aiperf's own GPU statistics (summary telemetry_data), one row per GPU, busy ones marked. */
export function GpuSummaryTable({ runId }: { runId: string }) {
  const q = useRunChart(runId, AIPERF_CHARTS.gpuSummary, true);
  const d = q.data;
  return (
    <div className="space-y-2">
      <ChartStatus loading={q.isLoading} error={q.error} what="GPU statistics" />
      {d ? (
        <>
          <p className="text-sm text-muted">
            aiperf&apos;s own statistics over its telemetry window (summary telemetry_data); upload
            gpu_telemetry_export.jsonl for power, utilisation and memory over time. A GPU is busy when its
            utilisation or memory used was above 0.
          </p>
          <table className="w-full text-sm tabular-nums" data-testid="gpu-summary">
            <thead>
              <tr className="text-left text-muted">
                <th className="font-normal">GPU</th>
                <th className="font-normal">busy</th>
                <th className="font-normal">power avg / max</th>
                <th className="font-normal">utilisation avg / max</th>
                <th className="font-normal">memory used max</th>
                <th className="font-normal">energy (counter max − min)</th>
              </tr>
            </thead>
            <tbody>
              {d.gpus.map((g) => (
                <tr key={g.label}>
                  <td>
                    {g.label}
                    {g.model ? <span className="text-muted"> ({g.model})</span> : null}
                  </td>
                  <td>{g.busy === null ? "—" : g.busy ? "yes" : "idle"}</td>
                  <td>
                    {cell(g.powerAvgW, 1, " W")} / {cell(g.powerMaxW, 1, " W")}
                  </td>
                  <td>
                    {cell(g.utilizationAvgPct, 1, " %")} / {cell(g.utilizationMaxPct, 1, " %")}
                  </td>
                  <td>{cell(g.memoryUsedMaxGb, 2, " GB")}</td>
                  <td>{g.energyJ === null ? "—" : `${formatNumber(g.energyJ / 1000, 2)} kJ`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </div>
  );
}
