"use client";

import { ChartContainer } from "@/components/charts/chart-container";
import { ChartStatus } from "@/components/charts/chart-status";
import { DataTable } from "@/components/charts/data-table";
import { TimeLines } from "@/components/charts/time-lines";
import { useRunChart } from "@/components/charts/use-run-chart";
import { REUSE_LEDGER_CHART } from "@/lib/api/chart-catalog";
import { type LedgerFigure, type ReuseLedgerPayload } from "@/lib/api/reuse-ledger";
import { formatCount, formatMs, formatNumber, formatRate } from "@/lib/format-number";
import { ledgerBarRows, ledgerIntervalRows } from "@/lib/metrics/reuse-ledger-rows";

const LEDGER_DEFINITION = {
  window: "the profiling phase (records), the scrapes' window (counters, router log)",
  requests: "successful profiling requests (records); all traffic the prefill-side engines counted",
  method:
    "block-weighted = Σ hit / Σ prompt (tokens or blocks); request-weighted = mean over requests of hit / prompt",
};

/** A figure, or what is missing, never 0 for "not measured". */
function Figure({ f }: { f: LedgerFigure }) {
  if (f.rate === null)
    return (
      <span className="text-muted" title={f.missing ?? undefined}>
        not measured
      </span>
    );
  return (
    <span title={f.source ?? undefined}>
      {formatRate(f.rate)}
      {f.hit !== null && f.of !== null ? (
        <span className="text-xs text-muted">
          {" "}
          ({formatCount(f.hit)} of {formatCount(f.of)} {f.unit})
        </span>
      ) : null}
    </span>
  );
}

const signed = (v: number | null, unit: string, digits = 1) =>
  v === null ? "—" : `${v > 0 ? "" : v < 0 ? "−" : ""}${formatNumber(Math.abs(v), digits)}${unit}`;

/**
 * The run's cache-reuse ledger (docs/metrics.md §Reuse ledger): from what the prompts could have
 * reused to what the responses reported, each step block- and request-weighted, each loss named in
 * points, tokens and the TTFT it cost, per endpoint and per interval. Stored for runs whose upload
 * says anything about reuse; a step with no source says what to upload.
 */
export function ReuseLedgerSection({ runId, enabled }: { runId: string; enabled: boolean }) {
  const q = useRunChart(runId, enabled ? REUSE_LEDGER_CHART : null);
  if (!enabled) return null;
  const p = q.data;
  return (
    <section className="space-y-3" data-testid="reuse-ledger">
      <h3 className="text-sm font-semibold">Reuse ledger: where did the reuse go?</h3>
      <ChartStatus loading={q.isLoading} error={q.error} what="reuse ledger" />
      {p ? <LedgerBody p={p} /> : null}
    </section>
  );
}

function LedgerBody({ p }: { p: ReuseLedgerPayload }) {
  const bars = ledgerBarRows(p).map((r) => ({ ...r, value: r.pct }));
  const full = new Map(bars.map((b) => [b.label, b]));
  const intervals = ledgerIntervalRows(p);
  const hasOffload = p.intervals.some((i) => i.offload !== null);
  const hasPredicted = p.intervals.some((i) => i.predicted !== null);
  const hasReported = p.intervals.some((i) => i.reported !== null);
  return (
    <>
      <ChartContainer
        title="Reuse ledger"
        description="each step's share of prompt tokens (block-weighted), from what the prompts could reuse to what the responses reported"
        definition={LEDGER_DEFINITION}
        exportName={REUSE_LEDGER_CHART.key}
        missing="No step of the ledger is measured: upload aiperf's records of a multi-turn run, the engines' server metrics or the Dynamo frontend's log."
        height={Math.max(200, 60 + bars.length * 34)}
        kind="bar"
        horizontal
        data={bars}
        csv={{ step: "label", "share of prompt %": "value" }}
        series={{ value: { label: "share of prompt tokens", color: "var(--chart-1)" } }}
        x={{ title: "share of prompt tokens", unit: "%", domain: [0, 100] }}
        y={{ key: "label", width: 200 }}
        tooltip={{
          label: (l) => String(l),
          value: (v, _k, row) =>
            `${formatNumber(v, 1)}%${full.get(row.label)?.tier ? " of prompt tokens, this tier" : ""}`,
        }}
      />
      <DataTable
        framed
        testId="reuse-ledger-steps"
        // A block per step (loss) on a phone, each figure after its column's name: its words
        // never squeezed into a narrow column beside figures that scroll inside the card.
        stacked
        caption="reuse ledger steps"
        rows={p.steps}
        rowKey={(s) => s.id}
        rowAttrs={(s) => ({ "data-step": s.id })}
        columns={[
          { header: "step", cell: (s) => s.label },
          { header: "block-weighted", num: true, cell: (s) => <Figure f={s.blockWeighted} /> },
          { header: "request-weighted", num: true, cell: (s) => <Figure f={s.requestWeighted} /> },
          {
            header: "from",
            className: "text-xs text-muted whitespace-normal min-w-64",
            cell: (s) => (
              <>
                {s.blockWeighted.source ?? s.blockWeighted.missing}
                {s.requestWeighted.rate === null && s.requestWeighted.missing !== s.blockWeighted.missing ? (
                  <> · request-weighted: {s.requestWeighted.missing}</>
                ) : null}
                {s.tiers ? (
                  <>
                    {" "}
                    · GPU {tierText(s.tiers.gpu)}, host / CPU {tierText(s.tiers.host)}, disk / external{" "}
                    {tierText(s.tiers.external)}
                  </>
                ) : null}
              </>
            ),
          },
        ]}
        definition={LEDGER_DEFINITION}
      />
      <DataTable
        framed
        testId="reuse-ledger-losses"
        // A block per step (loss) on a phone, each figure after its column's name: its words
        // never squeezed into a narrow column beside figures that scroll inside the card.
        stacked
        caption="reuse ledger losses"
        rows={p.losses}
        rowKey={(l) => l.id}
        rowAttrs={(l) => ({ "data-loss": l.id })}
        columns={[
          { header: "loss", cell: (l) => l.label },
          { header: "between", className: "text-xs text-muted", cell: (l) => `${l.from} → ${l.to}` },
          {
            header: "points",
            num: true,
            cell: (l) =>
              l.points !== null ? (
                signed(l.points, " pp")
              ) : (
                <span className="text-muted">{l.finding ? "no loss" : "not measured"}</span>
              ),
          },
          { header: "tokens", num: true, cell: (l) => (l.tokens === null ? "—" : signed(l.tokens, "", 0)) },
          {
            header: "TTFT per request",
            num: true,
            cell: (l) => (l.ttftMsPerRequest === null ? "—" : formatMs(l.ttftMsPerRequest)),
          },
          {
            header: "",
            className: "text-xs text-muted whitespace-normal",
            cell: (l) => l.missing ?? l.finding ?? "",
          },
        ]}
        after={
          <p className="px-3 pb-2 text-xs text-muted" data-testid="reuse-ledger-basis">
            Points are the first step&apos;s share minus the second&apos;s; where the later step counted more
            there is no loss, and the row says so. Tokens are points of{" "}
            {p.basisTokens === null ? "—" : formatCount(p.basisTokens)} {p.basis ?? ""}. TTFT:{" "}
            {p.ttftMsPerToken === null
              ? p.ttftFit
              : `${formatNumber(p.ttftMsPerToken, 3)} ms per computed prompt token, ${p.ttftFit}`}
            {p.ttftMsPerToken === null ? "" : "; times the lost share of the mean prompt"}.
          </p>
        }
      />
      {p.endpoints.length > 0 ? (
        <DataTable
          framed
          testId="reuse-ledger-endpoints"
          stacked
          caption="reuse ledger per endpoint and tier"
          rows={p.endpoints}
          rowKey={(e) => e.endpoint}
          columns={[
            { header: "endpoint", cell: (e) => `${e.endpoint} (${e.role})` },
            { header: "prompt tokens", num: true, cell: (e) => formatCount(e.lookupTokens) },
            { header: "GPU", num: true, cell: (e) => tokens(e.gpuTokens) },
            { header: "host / CPU", num: true, cell: (e) => tokens(e.hostTokens) },
            { header: "disk / external", num: true, cell: (e) => tokens(e.externalTokens) },
            { header: "delivered", num: true, cell: (e) => rate(e.delivered) },
            { header: "predicted (log, blocks)", num: true, cell: (e) => rate(e.predictedBlocks) },
            { header: "predicted (histogram, requests)", num: true, cell: (e) => rate(e.predictedRequests) },
            { header: "", className: "text-xs text-muted whitespace-normal", cell: (e) => e.note ?? "" },
          ]}
        />
      ) : null}
      {intervals.length > 0 ? (
        <TimeLines
          title="Reuse ledger over time"
          description="% of each interval's prompt tokens, per step"
          exportName="reuse-ledger-over-time"
          definition={LEDGER_DEFINITION}
          missing="No scrape interval has a step measured."
          rows={intervals}
          series={{
            theoretical: { label: "theoretical", color: "var(--fg)" },
            ...(hasPredicted ? { predicted: { label: "router-predicted", color: "var(--chart-1)" } } : {}),
            gpu: { label: "delivered: GPU", color: "var(--chart-5)" },
            ...(hasOffload
              ? { offload: { label: "delivered: host / external", color: "var(--chart-3)" } }
              : {}),
            ...(hasReported
              ? { reported: { label: "reported (cached_tokens)", color: "var(--chart-7)" } }
              : {}),
          }}
          yTitle="share of prompt tokens"
          unit="%"
          yMax={100}
        />
      ) : null}
    </>
  );
}

const tokens = (v: number | null) =>
  v === null ? <span className="text-muted">not exported</span> : formatCount(v);
const rate = (v: number | null) => (v === null ? <span className="text-muted">—</span> : formatRate(v));
const tierText = (f: LedgerFigure) => (f.rate === null ? "not measured" : formatRate(f.rate));
