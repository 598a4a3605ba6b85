"use client";

import { useQueries, useQuery } from "@tanstack/react-query";
import { useRef } from "react";
import { chartVersion } from "@/lib/api/chart-version";
import { runChartQueryOptions, runQueryOptions } from "@/lib/api/query-options";
import type { RunSummary } from "@/lib/api/schemas";
import { type SmSeriesPayload } from "@/lib/api/server-metrics-charts";
import { formatCount, formatNumber, formatRate } from "@/lib/format-number";
import { useWidth } from "./use-canvas-env";
import { ContextStrip } from "./context-strip";
import type { ViewWindow } from "./timeline-layout";
import { SM_CHARTS, SM_SERIES } from "@/lib/api/chart-catalog";

/** Per-worker lines up to this many endpoints; more read as one line for all of them. */
const MAX_WORKER_LINES = 8;

/** The series the context strips draw: the run's total, and each endpoint's when there are few. */
function useContextSeries(run: RunSummary, enabled: boolean) {
  const { data: version } = useQuery({
    ...runQueryOptions(run.id),
    select: chartVersion,
    refetchOnMount: false,
  });
  const endpoints = useQuery({
    ...runChartQueryOptions(run.id, SM_CHARTS.endpoints, version),
    enabled: enabled && version !== undefined,
    retry: false,
  });
  const groups = endpoints.data?.groups ?? [];
  const perEndpoint = groups.filter((g) => g.id !== "all" && !g.id.startsWith("role:"));
  const wanted = [
    ...groups.filter((g) => g.id === "all"),
    ...(perEndpoint.length <= MAX_WORKER_LINES ? perEndpoint : []),
  ];
  const series = useQueries({
    queries: wanted
      .flatMap((g) => SM_SERIES.fromKey(g.chartKey) ?? [])
      .map((chart) => ({
        ...runChartQueryOptions(run.id, chart, version),
        enabled: version !== undefined,
        retry: false,
      })),
  });
  const loaded = series.map((q) => q.data).filter((d): d is SmSeriesPayload => d !== undefined);
  return {
    loading: endpoints.isLoading || series.some((q) => q.isLoading),
    total: loaded.find((s) => s.id === "all") ?? null,
    workers: loaded.filter((s) => s.id !== "all"),
    tooManyWorkers: perEndpoint.length > MAX_WORKER_LINES ? perEndpoint.length : 0,
  };
}

const colour = (i: number) => `var(--chart-${(i % 8) + 1})`;

/**
 * Why a TensorRT-LLM timeline has no strips (docs/formats.md §TensorRT-LLM perf metrics, clocks):
 * its stamps are on the serving host's steady clock and no record carries a wall-clock time,
 * while scrape intervals are on the wall clock. No moment is read on both, so no offset is
 * known, and none is guessed.
 */
const TRTLLM_CLOCKS =
  "TensorRT-LLM stamps its perf metrics on the serving host's steady clock (seconds from an arbitrary start, usually the host's boot) and no record carries a wall-clock time, while scrape intervals are on the wall clock. Nothing in the upload reads one moment on both clocks, so the offset between them is not known and is not guessed.";

/**
 * Server metrics beside the timeline, on its time axis (docs/metrics.md §Request timeline):
 * running and waiting requests per worker, KV usage against capacity, hit rate per interval.
 * The intervals are placed by their epoch start against the run's first request; where either
 * is unknown the strips say so rather than guess an offset.
 */
export function TimelineContext(props: {
  run: RunSummary;
  originEpochMs: number | null;
  source: "trtllm" | "aiperf";
  view: ViewWindow;
  cursorMs: number | null;
}) {
  const { run, originEpochMs, source, view, cursorMs } = props;
  const has = run.serverMetrics !== null;
  const ctx = useContextSeries(run, has);
  const box = useRef<HTMLDivElement>(null);
  const width = useWidth(box);
  const note = (text: string) => (
    <p className="text-sm text-muted" data-context-missing>
      {text}
    </p>
  );
  let body: React.ReactNode;
  if (source === "trtllm")
    body = note(
      has
        ? `Server metrics cannot be placed on this timeline: ${TRTLLM_CLOCKS} See them on the KV and Cache views.`
        : `No server metrics in this run, and scrapes could not be placed on this timeline either: ${TRTLLM_CLOCKS} Upload Prometheus /metrics scrapes of the engines to see running and waiting requests, KV usage and hit rate on the KV and Cache views.`,
    );
  else if (!has)
    body = note(
      "No server metrics in this run: upload aiperf's server_metrics_export.jsonl (aiperf --server-metrics) or Prometheus /metrics scrapes of the engines to see running and waiting requests, KV usage and hit rate here, on the timeline's time axis.",
    );
  else if (ctx.loading) body = note("Loading server metrics…");
  else if (originEpochMs === null || !ctx.total || ctx.total.startEpochMs === null)
    body = note(
      "This run was stored before the timeline kept the clocks of requests and server metrics: re-ingest it (POST /api/runs/{id}/reingest) to place its server metrics here.",
    );
  else {
    const workers = ctx.workers.length > 1 ? ctx.workers : [ctx.total];
    const name = (s: SmSeriesPayload) => (s.id === "all" ? "all" : s.label);
    const capacity = ctx.total.kvCapacityTokens;
    const common = { view, originEpochMs, cursorMs, width };
    body = (
      <>
        <ContextStrip
          {...common}
          title="Requests running (solid) and waiting (dashed) per worker"
          format={(v) => formatNumber(v, 0)}
          lines={workers.flatMap((s, i) => [
            { label: `${name(s)} running`, colour: colour(i), series: s, value: (p) => p.running },
            {
              label: `${name(s)} waiting`,
              colour: colour(i),
              dashed: true,
              series: s,
              value: (p) => p.waiting,
            },
          ])}
        />
        <ContextStrip
          {...common}
          title={`KV cache usage, share of capacity${capacity !== null ? ` (${formatCount(capacity)} tokens in all)` : ""}`}
          format={(v) => formatRate(v)}
          yMax={1}
          lines={workers.map((s, i) => ({
            label: name(s),
            colour: colour(i),
            series: s,
            value: (p) => p.kvUsage,
          }))}
        />
        <ContextStrip
          {...common}
          title="Prefix-cache hit rate per interval"
          format={(v) => formatRate(v)}
          yMax={1}
          lines={[{ label: "all", colour: "var(--chart-1)", series: ctx.total, value: (p) => p.hitRate }]}
        />
        {ctx.tooManyWorkers
          ? note(
              `${ctx.tooManyWorkers} endpoints: drawn as one line for all of them; the Endpoints view has each.`,
            )
          : null}
      </>
    );
  }
  return (
    <section ref={box} className="space-y-3" aria-label="Server metrics over time" data-timeline-context>
      {body}
    </section>
  );
}
