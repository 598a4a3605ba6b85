"use client";

import { DataTable } from "@/components/charts/data-table";
import { formatNumber } from "@/lib/format-number";

import { useRunChart } from "@/components/charts/use-run-chart";
import { RecordsSampleNote } from "./records-sample-note";
import { AIPERF_CHARTS } from "@/lib/api/chart-catalog";

/**
 * Our statistics against aiperf's own summary: a quiet line when they agree, the differing
 * figures when they do not (a changed records file, another trial, a filtered upload). Records
 * that hold fewer requests than the summary counts are a sample, said as such (RecordsSampleNote).
 */
export function AgreementNotice({ runId, enabled }: { runId: string; enabled: boolean }) {
  const { data } = useRunChart(runId, AIPERF_CHARTS.agreement, enabled);
  if (!data) return null;
  const sampleNote = data.sample ? <RecordsSampleNote data={data} /> : null;
  if (data.disagreements === 0 && sampleNote) return sampleNote;
  if (data.disagreements === 0)
    return (
      <p className="text-xs text-ok" data-testid="aiperf-agreement">
        Matches aiperf&apos;s own summary ({data.rows.length} statistics within rounding).
      </p>
    );
  const bad = data.rows.filter((r) => !r.agrees && !r.sample);
  const compared = data.rows.filter((r) => !r.sample).length;
  return (
    <>
      {sampleNote}
      <div
        className="rounded-lg border border-warn/50 bg-card p-3 text-sm"
        role="note"
        data-testid="aiperf-disagreement"
      >
        <p className="font-medium text-warn">
          aiperf&apos;s summary disagrees on {bad.length} of {compared} statistics
        </p>
        <p className="mb-2 text-xs text-muted">
          The records and the summary do not describe the same requests (another trial, an edited or filtered
          file); the figures on this page come from the records.
        </p>
        <DataTable
          rows={bad.slice(0, 12)}
          rowKey={(_, i) => String(i)}
          columns={[
            { header: "Metric", cell: (r) => r.metric },
            { header: "Stat", cell: (r) => r.stat },
            { header: "Runlens", num: true, cell: (r) => formatNumber(r.ours, 3) },
            { header: "aiperf", num: true, cell: (r) => formatNumber(r.aiperf, 3) },
            data.sources.length > 1 && { header: "Summary", className: "text-xs", cell: (r) => r.source },
          ]}
        />
      </div>
    </>
  );
}
