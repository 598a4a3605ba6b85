"use client";

import { ChartAreaTurnReuse } from "@/components/charts/chart-area-turn-reuse";
import { ChartBarTurnRequests } from "@/components/charts/chart-bar-turn-requests";
import { ChartLineTurnBand } from "@/components/charts/chart-line-turn-band";
import { ChartLineTurnHitRate } from "@/components/charts/chart-line-turn-hit-rate";
import { ChartStatus } from "@/components/charts/chart-status";
import { useRunChart } from "@/components/charts/use-run-chart";
import type { RunViewProps } from "@/components/run/run-view-props";
import { hasTurnData } from "@/lib/api/run-views";
import { TURNS_CHART, turnsPayloadSchema, type TurnsPayload } from "@/lib/api/turns";
import { formatCount, formatNumber, plural } from "@/lib/format-number";
import { reuseTotals } from "@/lib/metrics/turn-chart-rows";
import { ManifestEmptyView } from "./empty-view";
import { IntervalReuseSection } from "./interval-reuse-section";
import { Fact } from "./fact";

const pct = (v: number | null) => (v === null ? "not recorded" : `${formatNumber(v * 100, 1)}%`);

/** Multi-turn runs: latency, lengths, outcomes and cache reuse by turn index (docs/metrics.md §Turns). */
export function TurnsView({ run }: RunViewProps) {
  const has = hasTurnData(run);
  const turns = useRunChart(run.id, TURNS_CHART, turnsPayloadSchema, has);
  if (!has) return <ManifestEmptyView id="turns" title="No multi-turn conversations in this run" />;
  const d = turns.data;
  const totals = d ? reuseTotals(d) : null;
  return (
    <div className="space-y-4">
      <ChartStatus loading={turns.isLoading} error={turns.error} what="turn statistics" />
      {d && totals ? (
        <>
          <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm" data-testid="turns-facts">
            <Fact label="conversations" value={formatCount(d.conversations)} />
            <Fact
              label="turns"
              value={`0 – ${d.rows[d.rows.length - 1].pooled ? "≥ " : ""}${d.rows[d.rows.length - 1].turn}`}
            />
            <Fact
              label="reuse achieved"
              value={
                totals.achievedShare === null
                  ? d.cachedKnown
                    ? "— (no turn had reusable tokens)"
                    : "not recorded (no cached prompt tokens in the records)"
                  : `${pct(totals.achievedShare)} of ${formatCount(totals.possible)} possible tokens`
              }
            />
            <Fact
              label="hit rate (all turns)"
              value={totals.prompt > 0 ? pct(totals.cached / totals.prompt) : "not recorded"}
            />
            <Fact
              label="possible reuse from"
              value={
                d.possibleSource === "inputs"
                  ? `inputs.json estimate${d.inputsRequests !== undefined ? ` (${plural(d.inputsRequests, "request", "requests")})` : ""}`
                  : "records (previous turn's prompt and answer)"
              }
            />
            {d.theoreticalHitRate !== null ? (
              <Fact label="aiperf theoretical (run)" value={pct(d.theoreticalHitRate)} />
            ) : null}
          </dl>
          {d.withoutTurn > 0 ? (
            <p className="text-xs text-muted" data-testid="turns-without-turn">
              {plural(d.withoutTurn, "profiling request carries", "profiling requests carry")} no turn index
              and {d.withoutTurn === 1 ? "is" : "are"} left out of every turn.
            </p>
          ) : null}
          {!d.cachedKnown ? (
            <p className="text-xs text-muted" data-testid="turns-no-cached">
              Served-from-cache tokens are not recorded: aiperf writes usage_prompt_cache_read_tokens when the
              server returns usage.prompt_tokens_details.cached_tokens (vLLM: --enable-prompt-tokens-details).
              The possible reuse is shown alone.
            </p>
          ) : null}
          <div className="grid gap-4 lg:grid-cols-2">
            <ChartLineTurnBand data={d} metric="ttftMs" />
            <ChartLineTurnBand data={d} metric="e2eMs" />
            <ChartLineTurnBand data={d} metric="inputTokens" />
            <ChartLineTurnBand data={d} metric="outputTokens" />
            <ChartBarTurnRequests data={d} />
            <ChartLineTurnHitRate data={d} />
          </div>
          <ChartAreaTurnReuse data={d} />
          <p className="text-xs text-muted" data-testid="turns-reuse-sources">
            Sources: served from cache is each response&apos;s usage (aiperf usage_prompt_cache_read_tokens),
            which does not say whether GPU memory or a CPU or external tier served it; the server-metrics
            Cache view splits prompt tokens by tier per interval where the scrape has it. Possible reuse is
            the previous turn&apos;s prompt and answer, which aiperf resends as history; a prefix shared
            across conversations (a common system prompt) is not in it, and is what aiperf&apos;s theoretical
            hit rate counts.
            {d.possibleSource === "inputs" ? <InputsSource d={d} /> : null}
          </p>
          <IntervalReuseSection run={run} />
        </>
      ) : null}
    </div>
  );
}

/** What the inputs.json estimate covers and what it leaves out (docs/metrics.md §Turns, "From inputs.json"). */
function InputsSource({ d }: { d: TurnsPayload }) {
  const nonText = d.inputsNonText ?? 0;
  return (
    <span data-testid="turns-inputs-source">
      {" "}
      Here the possible reuse is an estimate from inputs.json
      {d.inputsRequests !== undefined
        ? ` for ${plural(d.inputsRequests, "profiling request", "profiling requests")}`
        : ""}
      : each turn&apos;s text shared with earlier turns of its conversation, scaled to tokens by the
      request&apos;s ISL; a request whose turn inputs.json does not hold keeps the records&apos; count, which
      its request detail gives beside the estimate. Only text is counted: inputs.json carries no token counts,
      so image, audio and video parts are left out
      {nonText > 0 ? ` (${plural(nonText, "request's payload has", "requests' payloads have")} some)` : ""}.
    </span>
  );
}
