"use client";

import { ChartAreaEndpointReuse } from "@/components/charts/chart-area-endpoint-reuse";
import { ChartAreaIntervalReuse } from "@/components/charts/chart-area-interval-reuse";
import { ChartStatus } from "@/components/charts/chart-status";
import { useRunChart } from "@/components/charts/use-run-chart";
import type { RunViewProps } from "@/components/run/run-view-props";

import { formatCount, formatNumber, plural } from "@/lib/format-number";
import { intervalReuseTotals } from "@/lib/metrics/turn-chart-rows";
import { useEndpointChoice } from "@/components/server-metrics/use-sm-chart";
import { EndpointReuseFacts, EndpointReusePicker } from "./endpoint-reuse";
import { Fact } from "./fact";
import { REUSE_INTERVALS_CHART } from "@/lib/api/chart-catalog";

const pct = (v: number) => `${formatNumber(v * 100, 1)}%`;

/**
 * The reuse stack per server-metrics interval, in the Turns view: present when the upload had
 * both the records and the engines' cache counters; otherwise it says which file gives it.
 */
export function IntervalReuseSection({ run }: RunViewProps) {
  const has = typeof run.info.reuseIntervals === "number" && run.info.reuseIntervals > 0;
  const q = useRunChart(run.id, REUSE_INTERVALS_CHART, has);
  const [choice, setChoice] = useEndpointChoice();
  const scraped = run.info.serverMetricsExport != null || run.info.serverMetricsPrometheusScrapes != null;
  if (!has && scraped)
    return (
      <p
        className="rounded-lg border border-border bg-card p-4 text-sm text-muted"
        data-testid="interval-reuse-missing"
      >
        Reuse over time needs the engines&apos; prompt-token cache counters per interval, and this run&apos;s
        server metrics have none with intervals: vLLM prompt_tokens_by_source or prefix_cache_hits / queries,
        SGLang cached_tokens with prompt_tokens, TensorRT-LLM prompt_cached_tokens. aiperf&apos;s export
        (server_metrics_export.json, .jsonl or .csv) carries them per interval when the engine publishes them.
      </p>
    );
  if (!has)
    return (
      <p
        className="rounded-lg border border-border bg-card p-4 text-sm text-muted"
        data-testid="interval-reuse-missing"
      >
        Reuse over time needs the engines&apos; cache counters beside the records: upload aiperf&apos;s
        server_metrics_export.json (or .jsonl / .csv; aiperf scrapes them with --server-metrics) from the same
        run. The counters split each interval&apos;s prompt tokens into GPU cache hits, host/CPU/external tier
        hits (vLLM prompt_tokens_by_source or external_prefix_cache_hits, SGLang HiCache, TensorRT-LLM cache
        tiers) and recomputed.
      </p>
    );
  const d = q.data;
  const t = d ? intervalReuseTotals(d) : null;
  // Several prefill-side endpoints: the stack of one of them, picked like the server-metrics charts'.
  const one = d?.endpoints.find((e) => e.endpoint === choice) ?? null;
  const picker =
    d && d.endpoints.length > 1 ? (
      <EndpointReusePicker
        endpoints={d.endpoints}
        value={one?.endpoint ?? "all"}
        onChange={(e) => void setChoice(e)}
      />
    ) : null;
  return (
    <section className="space-y-2" data-testid="interval-reuse">
      <ChartStatus loading={q.isLoading} error={q.error} what="reuse over time" />
      {d && one ? (
        <>
          <EndpointReuseFacts data={one} external={one.points.some((p) => p.externalTokens !== null)} />
          <ChartAreaEndpointReuse data={one} servedSource={d.servedSource} actions={picker} />
        </>
      ) : null}
      {d && t && !one ? (
        <>
          <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm" data-testid="interval-reuse-facts">
            <Fact label="engines' prompt tokens" value={formatCount(t.prompt)} />
            <Fact label="GPU cache" value={t.prompt > 0 ? pct(t.gpu / t.prompt) : "—"} />
            <Fact
              label="host / external"
              value={
                d.externalSource === null ? "not counted" : t.prompt > 0 ? pct(t.external / t.prompt) : "—"
              }
            />
            <Fact
              label="possible reuse served"
              value={
                t.achievedShare === null
                  ? "— (nothing reusable)"
                  : `${pct(t.achievedShare)} of ${formatCount(t.possible)} tokens`
              }
            />
          </dl>
          <ChartAreaIntervalReuse data={d} actions={picker} />
        </>
      ) : null}
      {d ? (
        <>
          <p className="text-xs text-muted" data-testid="interval-reuse-sources">
            Sources: GPU and host/external parts are the engines&apos; own counters per scrape interval (
            {d.servedSource}
            {d.externalSource ? `; ${d.externalSource}` : ""}); Dynamo KVBM and LMCache serve through
            vLLM&apos;s KV connector, so they are counted there. The possible reuse is{" "}
            {d.possibleSource === "inputs"
              ? "an estimate from inputs.json: each turn's text shared with earlier turns, scaled to tokens by the request's ISL (image, audio and video parts not counted)"
              : "each request's previous turn's prompt and answer (records' ISL and output length)"}
            , put in the interval of the request&apos;s first token; it is counted with aiperf&apos;s
            tokenizer, the parts with the engine&apos;s.
            {d.requestsOutside > 0
              ? ` ${plural(d.requestsOutside, "request fell", "requests fell")} outside every scrape interval and ${d.requestsOutside === 1 ? "is" : "are"} not in the ceiling.`
              : ""}
          </p>
          {one ? (
            <p className="text-xs text-muted" data-testid="interval-reuse-endpoint-note">
              No possible-reuse ceiling for one endpoint: the records do not say which endpoint prefilled a
              request, so the possible reuse is known for the whole run only, and this endpoint&apos;s
              recomputed and new tokens are one part, what it computed.
            </p>
          ) : null}
        </>
      ) : null}
    </section>
  );
}
