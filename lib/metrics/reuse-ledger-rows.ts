/**
 * The reuse ledgers of compared runs as rows: each step's block-weighted share of prompt tokens in
 * %, each named loss in points, and their changes against the baseline in points
 * (docs/metrics.md §Reuse ledger, "Compare"). Pure; the compare page's ledger section draws these.
 */
import { LEDGER_LOSS_IDS, type LedgerLossId, type ReuseLedgerPayload } from "@/lib/api/reuse-ledger";

/** The steps (and the delivered step's GPU and offload tiers), then the losses. */
export const LEDGER_ROW_KEYS = [
  "theoretical",
  "predicted",
  "gpu",
  "offload",
  "delivered",
  "reported",
  ...LEDGER_LOSS_IDS,
] as const;
export type LedgerRowKey = (typeof LEDGER_ROW_KEYS)[number];

export type CompareLedgerRow = { runId: string; name: string } & Record<LedgerRowKey, number | null> & {
    /** A loss whose later step counted more: no loss (its value null), said in words */
    findings: Partial<Record<LedgerLossId, string>>;
  };

const pct = (v: number | null | undefined) => (v === null || v === undefined ? null : v * 100);

export function compareLedgerRow(runId: string, name: string, p: ReuseLedgerPayload): CompareLedgerRow {
  const step = (id: string) => p.steps.find((s) => s.id === id);
  const tiers = step("delivered")?.tiers ?? null;
  const host = tiers?.host.rate ?? null;
  const ext = tiers?.external.rate ?? null;
  const loss = (id: LedgerLossId) => p.losses.find((l) => l.id === id)?.points ?? null;
  return {
    runId,
    name,
    findings: Object.fromEntries(p.losses.filter((l) => l.finding).map((l) => [l.id, l.finding!])),
    theoretical: pct(step("theoretical")?.blockWeighted.rate),
    predicted: pct(step("predicted")?.blockWeighted.rate),
    gpu: pct(tiers?.gpu.rate),
    offload: host === null && ext === null ? null : pct((host ?? 0) + (ext ?? 0)),
    delivered: pct(step("delivered")?.blockWeighted.rate),
    reported: pct(step("reported")?.blockWeighted.rate),
    ...(Object.fromEntries(LEDGER_LOSS_IDS.map((id) => [id, loss(id)])) as Record<
      LedgerLossId,
      number | null
    >),
  };
}

/** Each run's change against the baseline, in points; null where either run has no value. */
export function compareLedgerDeltas(
  rows: readonly CompareLedgerRow[],
  baseline: string,
): Record<string, Record<LedgerRowKey, number | null>> {
  const base = rows.find((r) => r.runId === baseline);
  return Object.fromEntries(
    rows.map((r) => [
      r.runId,
      Object.fromEntries(
        LEDGER_ROW_KEYS.map((k) => {
          const a = base?.[k] ?? null;
          const b = r[k];
          return [k, a === null || b === null ? null : b - a];
        }),
      ) as Record<LedgerRowKey, number | null>,
    ]),
  );
}

/** One bar of the run's ledger chart: a step (or a tier of the delivered step), block-weighted, in %. */
export interface LedgerBarRow {
  key: string;
  label: string;
  /** null: not measured (no bar; the label says so and the table says what to upload) */
  pct: number | null;
  tier: boolean;
}

/** The ledger's bars, top down: theoretical, predicted, delivered by tier then in all, reported. */
export function ledgerBarRows(p: ReuseLedgerPayload): LedgerBarRow[] {
  const rows: LedgerBarRow[] = [];
  for (const s of p.steps) {
    if (s.id === "delivered" && s.tiers) {
      const tiers = [
        ["gpu", "delivered: GPU"],
        ["host", "delivered: host / CPU"],
        ["external", "delivered: disk / external"],
      ] as const;
      for (const [k, label] of tiers) {
        const v = pct(s.tiers[k].rate);
        rows.push({
          key: `tier-${k}`,
          label: v === null ? `${label}: not measured` : label,
          pct: v,
          tier: true,
        });
      }
    }
    const v = pct(s.blockWeighted.rate);
    rows.push({ key: s.id, label: v === null ? `${s.label}: not measured` : s.label, pct: v, tier: false });
  }
  return rows;
}

/** The ledger per interval as % rows for the time chart (t in seconds from the first interval). */
export function ledgerIntervalRows(p: ReuseLedgerPayload) {
  return p.intervals.map((i) => ({
    t: i.t,
    theoretical: pct(i.theoretical),
    predicted: pct(i.predicted),
    gpu: pct(i.gpu),
    offload: pct(i.offload),
    reported: pct(i.reported),
  }));
}
