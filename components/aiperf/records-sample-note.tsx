import { AIPERF_SUCCESSFUL } from "@/components/charts/definitions";
import { StatsTable, type StatsRow } from "@/components/charts/stats-table";
import type { agreementPayloadSchema } from "@/lib/api/aiperf-charts";
import { formatCount } from "@/lib/format-number";
import type { z } from "zod";
import { AIPERF_STATS_ROWS } from "./latency-stats-table";

type Agreement = z.infer<typeof agreementPayloadSchema>;

/**
 * The records hold fewer requests than aiperf's summary counts: a sample, so the charts and the
 * table above describe that sample and aiperf's own figures for every request follow, marked
 * "summary". A calm note, not a disagreement: every statistic of a sample differs from the whole.
 */
export function RecordsSampleNote({ data }: { data: Agreement }) {
  const sample = data.sample!;
  const table: StatsRow[] = AIPERF_STATS_ROWS.map((r) => ({
    id: `summary-${r.key}`,
    label: `${r.label} (summary)`,
    ms: r.ms,
    stats: sample.summary?.[r.key] ?? null,
  })).filter((r) => r.stats !== null);
  return (
    <div className="space-y-2 text-sm" role="note" data-testid="aiperf-sample">
      <p className="text-muted">
        Records are a sample of {formatCount(sample.records)} of {formatCount(sample.described)} requests: the
        charts and the table above describe those {formatCount(sample.records)}.
        {table.length > 0 ? " The figures below, marked “summary”, are aiperf’s own for all of them." : ""}
      </p>
      {table.length > 0 ? (
        <StatsTable
          testId="aiperf-summary-stats"
          rows={table}
          caption="aiperf's own summary statistics"
          definition={{ ...AIPERF_SUCCESSFUL, method: `aiperf's own summary (${data.sources[0]})` }}
        />
      ) : null}
    </div>
  );
}
