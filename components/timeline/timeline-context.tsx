"use client";

import { useQueries, useQuery } from "@tanstack/react-query";
import { useRef } from "react";
import { chartVersion } from "@/lib/api/chart-version";
import { runChartQueryOptions, runQueryOptions } from "@/lib/api/query-options";
import type { RunSummary } from "@/lib/api/schemas";
import {
  SM_ENDPOINTS_CHART,
  smEndpointsPayloadSchema,
  smSeriesPayloadSchema,
  type SmPoint,
  type SmSeriesPayload,
} from "@/lib/api/server-metrics-charts";
import { ticksCovering } from "@/lib/metrics/nice-scale";
import { formatCount, formatNumber, formatRate } from "@/lib/format-number";
import { useWidth } from "./timeline-canvas";
import { GUTTER, RIGHT, type ViewWindow } from "./timeline-layout";

/** Per-worker lines up to this many endpoints; more read as one line for all of them. */
const MAX_WORKER_LINES = 8;
const H = 96;
const PAD = 8;

/** The series the context strips draw: the run's total, and each endpoint's when there are few. */
function useContextSeries(run: RunSummary, enabled: boolean) {
  const { data: version } = useQuery({
    ...runQueryOptions(run.id),
    select: chartVersion,
    refetchOnMount: false,
  });
  const endpoints = useQuery({
    ...runChartQueryOptions(run.id, SM_ENDPOINTS_CHART, smEndpointsPayloadSchema, {}, version),
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
    queries: wanted.map((g) => ({
      ...runChartQueryOptions(run.id, g.chartKey, smSeriesPayloadSchema, {}, version),
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

interface Line {
  label: string;
  colour: string;
  dashed?: boolean;
  series: SmSeriesPayload;
  value: (p: SmPoint, s: SmSeriesPayload) => number | null;
}

/** The interval of `s` that holds `tMs` (request clock), or null. */
function pointAt(s: SmSeriesPayload, originEpochMs: number, tMs: number): SmPoint | null {
  const base = s.startEpochMs! - originEpochMs;
  for (const p of s.points) {
    const a = base + p.t * 1000;
    const b = a + (p.durationS ?? s.sliceS ?? 0) * 1000;
    if (tMs >= a && tMs < b) return p;
  }
  return null;
}

function Strip(props: {
  title: string;
  lines: Line[];
  format: (v: number) => string;
  yMax?: number;
  view: ViewWindow;
  originEpochMs: number;
  cursorMs: number | null;
  width: number;
}) {
  const { title, lines, format, view, originEpochMs, cursorMs, width } = props;
  const values = lines
    .flatMap((l) => l.series.points.map((p) => l.value(p, l.series)))
    .filter((v) => v !== null);
  if (values.length === 0)
    return (
      <p className="text-sm text-muted" data-context-missing>
        {title}: not in these server metrics (the engine exports no such gauge or counter).
      </p>
    );
  const ticks = ticksCovering(0, props.yMax ?? Math.max(...values), 2);
  const top = ticks[ticks.length - 1] || 1;
  const plotW = Math.max(1, width - GUTTER - RIGHT);
  const x = (t: number) => GUTTER + ((t - view.from) / (view.to - view.from)) * plotW;
  const y = (v: number) => PAD + (1 - v / top) * (H - 2 * PAD);
  const path = (l: Line) => {
    const base = l.series.startEpochMs! - originEpochMs;
    let d = "";
    let open = false;
    for (const p of l.series.points) {
      const v = l.value(p, l.series);
      if (v === null) {
        open = false;
        continue;
      }
      const a = x(base + p.t * 1000);
      const b = x(base + (p.t + (p.durationS ?? l.series.sliceS ?? 0)) * 1000);
      d += `${open ? "L" : "M"}${a.toFixed(1)},${y(v).toFixed(1)}H${b.toFixed(1)}`;
      open = true;
    }
    return d;
  };
  const readout =
    cursorMs === null
      ? null
      : lines.map((l) => {
          const p = pointAt(l.series, originEpochMs, cursorMs);
          const v = p ? l.value(p, l.series) : null;
          return `${l.label} ${v === null ? "—" : format(v)}`;
        });
  const clip = `clip-${title.replace(/\W/g, "")}`;
  return (
    <figure data-context-strip={title} className="space-y-1">
      <figcaption className="flex flex-wrap items-baseline gap-x-3 text-xs text-muted">
        <span className="font-medium text-fg">{title}</span>
        {readout ? <span data-context-readout>{readout.join(" · ")}</span> : null}
      </figcaption>
      <svg width="100%" height={H} viewBox={`0 0 ${width} ${H}`} role="img" aria-label={title}>
        <defs>
          <clipPath id={clip}>
            <rect x={GUTTER} y={0} width={plotW} height={H} />
          </clipPath>
        </defs>
        {ticks.map((t) => (
          <g key={t}>
            <line x1={GUTTER} x2={width - RIGHT} y1={y(t)} y2={y(t)} stroke="var(--grid)" />
            <text x={GUTTER - 8} y={y(t) + 4} textAnchor="end" fontSize={11} fill="var(--muted)">
              {format(t)}
            </text>
          </g>
        ))}
        <g clipPath={`url(#${clip})`}>
          {lines.map((l) => (
            <path
              key={l.label}
              d={path(l)}
              fill="none"
              stroke={l.colour}
              strokeWidth={1.5}
              strokeDasharray={l.dashed ? "4 3" : undefined}
            />
          ))}
        </g>
        {cursorMs !== null && x(cursorMs) >= GUTTER && x(cursorMs) <= width - RIGHT ? (
          <line x1={x(cursorMs)} x2={x(cursorMs)} y1={0} y2={H} stroke="var(--fg)" />
        ) : null}
      </svg>
      <div className="flex flex-wrap gap-3 pl-40 text-xs text-muted">
        {lines.map((l) => (
          <span key={l.label} className="inline-flex items-center gap-1">
            <svg width="16" height="6" aria-hidden>
              <line
                x1="0"
                x2="16"
                y1="3"
                y2="3"
                stroke={l.colour}
                strokeWidth="2"
                strokeDasharray={l.dashed ? "4 3" : undefined}
              />
            </svg>
            {l.label}
          </span>
        ))}
      </div>
    </figure>
  );
}

const colour = (i: number) => `var(--chart-${(i % 8) + 1})`;

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
  if (!has)
    body = note(
      "No server metrics in this run: upload aiperf's server_metrics_export.jsonl (aiperf --server-metrics) or Prometheus /metrics scrapes of the engines to see running and waiting requests, KV usage and hit rate here, on the timeline's time axis.",
    );
  else if (ctx.loading) body = note("Loading server metrics…");
  else if (source === "trtllm")
    body = note(
      "Server metrics cannot be placed on this timeline: TensorRT-LLM perf metrics carry steady-clock times that start at no known wall-clock moment. See them on the KV and Cache views.",
    );
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
        <Strip
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
        <Strip
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
        <Strip
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
