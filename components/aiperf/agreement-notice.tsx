"use client";

import { formatNumber } from "@/lib/format-number";
import { AIPERF_CHART_KEYS, agreementPayloadSchema } from "@/lib/api/aiperf-charts";
import { useAiperfChart } from "./use-aiperf-chart";

/**
 * Our statistics against aiperf's own summary: a quiet line when they agree, the differing
 * figures when they do not (a truncated records file, another trial, a filtered upload).
 */
export function AgreementNotice({ runId }: { runId: string }) {
  const { data } = useAiperfChart(runId, AIPERF_CHART_KEYS.agreement, agreementPayloadSchema);
  if (!data) return null;
  if (data.disagreements === 0)
    return (
      <p className="text-xs text-ok" data-testid="aiperf-agreement">
        Matches aiperf&apos;s own summary ({data.rows.length} statistics within rounding).
      </p>
    );
  const bad = data.rows.filter((r) => !r.agrees);
  return (
    <div
      className="rounded-lg border border-warn/50 bg-card p-3 text-sm"
      role="note"
      data-testid="aiperf-disagreement"
    >
      <p className="font-medium text-warn">
        aiperf&apos;s summary disagrees on {bad.length} of {data.rows.length} statistics
      </p>
      <p className="mb-2 text-xs text-muted">
        The records file probably does not hold every request the summary describes; the figures on this page
        come from the records.
      </p>
      <table className="table-base">
        <thead>
          <tr>
            <th>Metric</th>
            <th>Stat</th>
            <th className="num">Runlens</th>
            <th className="num">aiperf</th>
            {data.sources.length > 1 ? <th>Summary</th> : null}
          </tr>
        </thead>
        <tbody>
          {bad.slice(0, 12).map((r, i) => (
            <tr key={i}>
              <td>{r.metric}</td>
              <td>{r.stat}</td>
              <td className="num">{formatNumber(r.ours, 3)}</td>
              <td className="num">{formatNumber(r.aiperf, 3)}</td>
              {data.sources.length > 1 ? <td className="text-xs">{r.source}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
