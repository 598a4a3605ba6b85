"use client";

import { useRunChart } from "@/components/charts/use-run-chart";
import { formatCount } from "@/lib/format-number";
import { AIPERF_CHARTS } from "@/lib/api/chart-catalog";

/** Explains how a multi-run upload (profile_runs/run_NNNN) is shown: one run, trials pooled. */
export function TrialsNote({ runId, enabled }: { runId: string; enabled: boolean }) {
  const { data } = useRunChart(runId, AIPERF_CHARTS.trials, enabled);
  if (!enabled || !data) return null;
  return (
    <p className="rounded-lg border border-border bg-card p-3 text-xs text-muted" data-testid="aiperf-trials">
      This upload holds {formatCount(data.trials.length)} aiperf runs (
      {data.trials.map((t) => `${t.name}: ${formatCount(t.records)}`).join(", ")} records). The statistics and
      charts pool every run&apos;s profiling requests as one benchmark, which is what repeated trials of one
      configuration (profile_runs/run_NNNN) mean; each run is still checked against its own summary. Upload a
      single folder to see one run alone, or each folder separately to compare sweep points.
    </p>
  );
}
