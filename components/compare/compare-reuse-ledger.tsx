"use client";

import { useQueries } from "@tanstack/react-query";
import { DataTable } from "@/components/charts/data-table";
import type { CompareResponse } from "@/lib/api/compare-schemas";
import type { LedgerLossId } from "@/lib/api/reuse-ledger";
import { runChartQueryOptions } from "@/lib/api/query-options";
import { REUSE_LEDGER_CHART } from "@/lib/api/chart-catalog";
import { formatNumber, formatPoints } from "@/lib/format-number";
import {
  compareLedgerDeltas,
  compareLedgerRow,
  type CompareLedgerRow,
  type LedgerRowKey,
} from "@/lib/metrics/reuse-ledger-rows";

const STEPS: ReadonlyArray<readonly [string, LedgerRowKey]> = [
  ["theoretical", "theoretical"],
  ["router-predicted", "predicted"],
  ["delivered: GPU", "gpu"],
  ["delivered: host / external", "offload"],
  ["delivered (every tier)", "delivered"],
  ["reported", "reported"],
];
const LOSSES: ReadonlyArray<readonly [string, LedgerRowKey]> = [
  ["routed elsewhere", "routed-elsewhere"],
  ["evicted before reuse", "evicted-before-reuse"],
  ["not offloaded", "not-offloaded"],
  ["recomputed although reusable", "recomputed-reusable"],
  ["not reported", "not-reported"],
];

/** A step going up is better; a loss going up is worse. */
const tone = (d: number | null, higherIsBetter: boolean) =>
  d === null || Math.abs(d) < 0.05 ? "text-muted" : d > 0 === higherIsBetter ? "text-ok" : "text-danger";

/**
 * The reuse ledgers of the compared runs: each step's block-weighted share of prompt tokens and
 * each named loss in points, with the change against the baseline (docs/metrics.md §Reuse ledger).
 * Shown when at least one compared run stored a ledger.
 */
export function CompareReuseLedger({ data }: { data: CompareResponse }) {
  const candidates = data.runs.filter((r) => data.chartKeys[r.id]?.includes(REUSE_LEDGER_CHART.key));
  const ledgers = useQueries({
    queries: candidates.map((r) => runChartQueryOptions(r.id, REUSE_LEDGER_CHART)),
  });
  if (candidates.length === 0) return null;
  const rows: CompareLedgerRow[] = candidates.flatMap((r, i) => {
    const p = ledgers[i]?.data;
    return p ? [compareLedgerRow(r.id, r.name, p)] : [];
  });
  if (rows.length === 0) return null;
  const baseline = rows.some((r) => r.runId === data.baseline) ? data.baseline : rows[0].runId;
  const deltas = compareLedgerDeltas(rows, baseline);
  const column = (header: string, k: LedgerRowKey, step: boolean) => ({
    header,
    num: true,
    cell: (r: CompareLedgerRow) =>
      r[k] === null ? (
        r.findings[k as LedgerLossId] ? (
          <span className="text-muted" title={r.findings[k as LedgerLossId]}>
            no loss
          </span>
        ) : (
          <span className="text-muted">not measured</span>
        )
      ) : (
        <>
          {r[k] < 0 ? "−" : ""}
          {formatNumber(Math.abs(r[k]), 1)}
          {step ? "%" : " pp"}
          {r.runId === baseline ? null : (
            <span className={`block text-xs ${tone(deltas[r.runId]?.[k] ?? null, step)}`}>
              {deltas[r.runId]?.[k] == null ? "" : formatPoints(deltas[r.runId][k])}
            </span>
          )}
        </>
      ),
  });
  return (
    <section className="space-y-2" data-testid="compare-reuse-ledger">
      <h2 className="text-sm font-semibold">Reuse ledger</h2>
      <DataTable
        framed
        testId="compare-reuse-ledger-table"
        // A block per run on a phone, each step and loss after its name: none scrolls out of view.
        stacked
        caption={`reuse ledger of each run against ${rows.find((r) => r.runId === baseline)?.name ?? ""}`}
        rows={rows}
        rowKey={(r) => r.runId}
        columns={[
          { header: "run", cell: (r) => (r.runId === baseline ? `${r.name} (baseline)` : r.name) },
          ...STEPS.map(([h, k]) => column(h, k, true)),
          ...LOSSES.map(([h, k]) => column(h, k, false)),
        ]}
        definition={{
          window: "each run's own (records: profiling phase; counters and router log: scrape window)",
          method:
            "steps: block-weighted share of prompt tokens; losses: points between steps; changes against the baseline in points",
        }}
      />
    </section>
  );
}
