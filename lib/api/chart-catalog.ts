/**
 * The chart catalog: one `defineChart` per stored chart payload. A chart's key string exists only
 * here (test/unit/chart-catalog.test.ts greps the tree for it); the analyzers store a payload
 * under `chart.key`, and the chart route's reader, the server prefetch (lib/runs/prefetch-first-chart.ts),
 * the client hook (`useRunChart`) and the offline report take the chart object, so a payload is
 * always read with the schema it was written for. A leaf: the browser bundles it.
 *
 * Adding a chart: its payload schema beside its family's (lib/api/*-charts.ts), one entry here,
 * its pure compute in lib/metrics (docs/architecture.md §A new chart).
 */
import type { z } from "zod";
import type { ChartUpgrade } from "./chart-upgrade";
import {
  agreementPayloadSchema,
  distributionPayloadSchema,
  upgradeDistributionPayload,
  errorsPayloadSchema,
  gpuPayloadSchema,
  upgradeGpuPayload,
  gpuSummaryPayloadSchema,
  overTimePayloadSchema,
  timelinePayloadSchema,
  timeslicesPayloadSchema,
  trialsPayloadSchema,
  ttftVsInputPayloadSchema,
} from "./aiperf-charts";
import { slowestPayloadSchema, upgradeSlowestPayload } from "./aiperf-requests";
import {
  agentSessionPageSchema,
  agentSessionPagesIndexSchema,
  agentSessionsPayloadSchema,
  upgradeAgentSessionsPayload,
} from "./agent-sessions";
import { dynamoTraceSessionsPayloadSchema } from "./dynamo-trace";
import {
  dynamoSpanRootsPayloadSchema,
  dynamoSpansPayloadSchema,
  dynamoSpansPieceSchema,
  dynamoTraceRequestsPayloadSchema,
  trtllmClockOriginPayloadSchema,
  trtllmTimeEventFilesPayloadSchema,
  trtllmTimeEventsPayloadSchema,
  dynamoTraceRequestsPieceSchema,
  requestPiecesIndexSchema,
} from "./request-journey";
import { reuseLedgerPayloadSchema } from "./reuse-ledger";
import { routerLogPayloadSchema, upgradeRouterLogPayload } from "./router-log";
import { routerPredictionPayloadSchema } from "./router-prediction";
import { smEndpointsPayloadSchema, smSeriesPayloadSchema } from "./server-metrics-charts";
import {
  histogramPayloadSchema,
  kvHitRatePayloadSchema,
  segmentSharePayloadSchema,
  segmentsPayloadSchema,
  stepsPayloadSchema,
  trtllmLatencyOverTimePayloadSchema,
  trtllmSlowestPayloadSchema,
  upgradeSegmentsPayload,
} from "./trtllm-charts";
import { reuseIntervalsPayloadSchema, turnsPayloadSchema, upgradeTurnsPayload } from "./turns";

export interface ChartDef<S extends z.ZodType = z.ZodType> {
  /** The stored payload's name, in `/api/runs/{id}/charts/{key}` */
  readonly key: string;
  /** The payload's wire schema: what ingest stores and every reader validates */
  readonly schema: S;
  /**
   * The payload's shape version: raised when the schema changes incompatibly, so a payload of
   * an older shape is never read as the new one (query keys carry it).
   */
  readonly version: number;
  /** What the chart shows, for docs, tests and a payload without a figure yet */
  readonly title: string;
  /**
   * Turns a payload stored at an older `version` into the current shape, from what it holds, or
   * says that it cannot: the run is then recomputed from its raw files (re-ingest). Applied on
   * read by `upgradeStoredPayload`, never by a component (docs/architecture.md §Stored payloads).
   */
  readonly upgrade?: ChartUpgrade;
  /**
   * False for per-request data stored with the run for a server-side reader (the request
   * journey, lib/runs/request-journey.ts): the chart route never serves it whole (tens of MB on a
   * large run, which no view draws) and answers `404 chart_not_served` (docs/http-api.md).
   */
  readonly served: boolean;
}

/** A stored payload read with its chart: upgraded to the current shape and validated, or "recompute". */
export type StoredPayloadRead<C extends ChartDef> = { payload: ChartPayload<C> } | { recompute: string };

/** The payload type of a chart. */
export type ChartPayload<C extends ChartDef> = z.infer<C["schema"]>;

const KEY = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/** One chart: its key (lower-case words joined by "-"), schema, version and title. */
export function defineChart<S extends z.ZodType>(def: {
  key: string;
  schema: S;
  version: number;
  title: string;
  upgrade?: ChartUpgrade;
  served?: false;
}): ChartDef<S> {
  if (!KEY.test(def.key)) throw new Error(`chart key "${def.key}" is not lower-case words joined by "-"`);
  if (!Number.isInteger(def.version) || def.version < 1)
    throw new Error(`chart ${def.key}: version must be ≥ 1`);
  if (def.version > 1 && !def.upgrade)
    throw new Error(`chart ${def.key}: version ${def.version} needs an upgrade from the versions before it`);
  return Object.freeze({ ...def, served: def.served ?? true });
}

/**
 * The one reading of a stored payload: one stored at an older version goes through its chart's
 * upgrade, then the current schema validates it. A payload the schema refuses is the server's
 * fault (an ingest wrote what its chart does not describe), so it throws.
 */
export function upgradeStoredPayload<C extends ChartDef>(
  chart: C,
  stored: unknown,
  storedVersion: number,
): StoredPayloadRead<C> {
  let value = stored;
  if (storedVersion < chart.version) {
    if (!chart.upgrade || typeof stored !== "object" || stored === null || Array.isArray(stored))
      throw new Error(`chart ${chart.key}: a version ${storedVersion} payload has no upgrade`);
    const up = chart.upgrade(stored as Record<string, unknown>, storedVersion);
    if ("recompute" in up) return up;
    value = up.payload;
  }
  const parsed = chart.schema.safeParse(value);
  if (!parsed.success)
    throw new Error(
      `chart ${chart.key}: a stored version ${storedVersion} payload is not its shape: ${parsed.error.message}`,
    );
  return { payload: parsed.data as ChartPayload<C> };
}

export const AIPERF_CHARTS = {
  distribution: defineChart({
    key: "aiperf-distribution",
    schema: distributionPayloadSchema,
    version: 2,
    title: "Latency distribution (TTFT, E2E, ITL)",
    upgrade: upgradeDistributionPayload,
  }),
  overTime: defineChart({
    key: "aiperf-over-time",
    schema: overTimePayloadSchema,
    version: 1,
    title: "Latency over time",
  }),
  ttftVsInput: defineChart({
    key: "aiperf-ttft-vs-input",
    schema: ttftVsInputPayloadSchema,
    version: 1,
    title: "TTFT against input length",
  }),
  timeline: defineChart({
    key: "aiperf-timeline",
    schema: timelinePayloadSchema,
    version: 1,
    title: "Throughput and concurrency over time",
  }),
  errors: defineChart({ key: "aiperf-errors", schema: errorsPayloadSchema, version: 1, title: "Errors" }),
  agreement: defineChart({
    key: "aiperf-agreement",
    schema: agreementPayloadSchema,
    version: 1,
    title: "Agreement with aiperf's summary",
  }),
  gpu: defineChart({
    key: "aiperf-gpu",
    schema: gpuPayloadSchema,
    version: 2,
    title: "GPU telemetry",
    upgrade: upgradeGpuPayload,
  }),
  trials: defineChart({ key: "aiperf-trials", schema: trialsPayloadSchema, version: 1, title: "Trials" }),
  timeslices: defineChart({
    key: "aiperf-timeslices",
    schema: timeslicesPayloadSchema,
    version: 1,
    title: "Latency per timeslice",
  }),
  gpuSummary: defineChart({
    key: "aiperf-gpu-summary",
    schema: gpuSummaryPayloadSchema,
    version: 1,
    title: "GPU summary",
  }),
  slowest: defineChart({
    key: "aiperf-slowest",
    schema: slowestPayloadSchema,
    version: 2,
    title: "Slowest requests",
    upgrade: upgradeSlowestPayload,
  }),
  turns: defineChart({
    key: "aiperf-turns",
    schema: turnsPayloadSchema,
    version: 2,
    title: "Turns",
    upgrade: upgradeTurnsPayload,
  }),
} as const;

export const REUSE_INTERVALS_CHART = defineChart({
  key: "reuse-intervals",
  schema: reuseIntervalsPayloadSchema,
  version: 1,
  title: "Reuse per interval",
});

export const TRTLLM_CHARTS = {
  segments: defineChart({
    key: "trtllm-segments",
    schema: segmentsPayloadSchema,
    version: 2,
    title: "Time breakdown segments",
    upgrade: upgradeSegmentsPayload,
  }),
  segmentShare: defineChart({
    key: "trtllm-segment-share",
    schema: segmentSharePayloadSchema,
    version: 1,
    title: "Segment share over time",
  }),
  kvTransferBandwidth: defineChart({
    key: "trtllm-kv-transfer-bandwidth",
    schema: histogramPayloadSchema,
    version: 1,
    title: "KV transfer bandwidth",
  }),
  kvHitRate: defineChart({
    key: "trtllm-kv-hit-rate",
    schema: kvHitRatePayloadSchema,
    version: 1,
    title: "KV hit rate (perf metrics)",
  }),
  steps: defineChart({ key: "trtllm-steps", schema: stepsPayloadSchema, version: 1, title: "Steps" }),
  /** Same shape as the aiperf distribution payload, with ttftMs, e2eMs and tpotMs */
  latencyDistribution: defineChart({
    key: "trtllm-latency-distribution",
    schema: distributionPayloadSchema,
    version: 2,
    title: "Server latency distribution (TTFT, E2E, TPOT)",
    upgrade: upgradeDistributionPayload,
  }),
  latencyOverTime: defineChart({
    key: "trtllm-latency-over-time",
    schema: trtllmLatencyOverTimePayloadSchema,
    version: 1,
    title: "Server latency over time",
  }),
  slowest: defineChart({
    key: "trtllm-slowest",
    schema: trtllmSlowestPayloadSchema,
    version: 1,
    title: "Slowest requests (server latency)",
  }),
} as const;

export const SM_CHARTS = {
  endpoints: defineChart({
    key: "sm-endpoints",
    schema: smEndpointsPayloadSchema,
    version: 1,
    title: "Server metrics per endpoint",
  }),
  router: defineChart({
    key: "sm-router",
    schema: routerPredictionPayloadSchema,
    version: 1,
    title: "Router predicted vs delivered hit rate",
  }),
} as const;

export const ROUTER_LOG_CHART = defineChart({
  key: "router-log",
  schema: routerLogPayloadSchema,
  version: 2,
  title: "Router log: predicted vs delivered",
  upgrade: upgradeRouterLogPayload,
});

export const DYNAMO_TRACE_CHART = defineChart({
  key: "dynamo-trace-sessions",
  schema: dynamoTraceSessionsPayloadSchema,
  version: 1,
  title: "Dynamo request trace sessions",
});

/**
 * Agent sessions of an agentic run (docs/metrics.md §Agent sessions): from a Dynamo request
 * trace when the run has one, else from aiperf's multi-turn records.
 */
export const AGENT_SESSIONS_CHART = defineChart({
  key: "agent-sessions",
  schema: agentSessionsPayloadSchema,
  // 2: sessionIds (which id grouped the sessions; a reused x_correlation_id split by conversation)
  // 3: totals over every session, the omitted ones included
  version: 3,
  upgrade: upgradeAgentSessionsPayload,
  title: "Agent sessions",
});

/**
 * Each request's Dynamo spans (times Unix epoch ms), as runs stored before their pieces
 * (`DYNAMO_SPAN_PIECES`) and roots (`DYNAMO_SPAN_ROOTS_CHART`) hold them: the request journey
 * reads it there only. No longer stored (the pieces and roots serve every reader); not served by
 * the chart route (32 MB for 20,000 traced requests).
 */
export const DYNAMO_SPANS_CHART = defineChart({
  key: "dynamo-spans",
  schema: dynamoSpansPayloadSchema,
  version: 1,
  title: "Dynamo spans per request",
  served: false,
});

/**
 * Stored with the run: each traced request's root span (times Unix epoch ms), what the journey
 * summary joins; not served by the chart route (one row per traced request).
 */
export const DYNAMO_SPAN_ROOTS_CHART = defineChart({
  key: "dynamo-span-roots",
  schema: dynamoSpanRootsPayloadSchema,
  version: 1,
  title: "Dynamo root span per request",
  served: false,
});

/**
 * Stored with the run: each Dynamo request-trace row's ids and times (Unix epoch ms), read by the
 * request journey only; not served by the chart route (one row per request of the trace).
 */
export const DYNAMO_TRACE_REQUESTS_CHART = defineChart({
  key: "dynamo-trace-requests",
  schema: dynamoTraceRequestsPayloadSchema,
  version: 1,
  title: "Dynamo request trace rows",
  served: false,
});

/**
 * TensorRT-LLM's time-events requests as one list, as a run stored before their pieces holds
 * them (at most 50,000, the rest counted); read by the request journey only, no longer stored.
 */
export const TRTLLM_TIME_EVENTS_CHART = defineChart({
  key: "trtllm-time-events",
  schema: trtllmTimeEventsPayloadSchema,
  version: 1,
  title: "TensorRT-LLM time events per request",
  served: false,
});

/**
 * Stored with the run: its TensorRT-LLM time-events files, whose requests' events are rows of
 * `trtllm_time_events` keyed by the ids they join on; read by the request journey only.
 */
export const TRTLLM_TIME_EVENT_FILES_CHART = defineChart({
  key: "trtllm-time-event-files",
  schema: trtllmTimeEventFilesPayloadSchema,
  version: 1,
  title: "TensorRT-LLM time-events files",
  served: false,
});

/** Stored with the run: the steady-clock second its TensorRT-LLM request times count from. */
export const TRTLLM_CLOCK_ORIGIN_CHART = defineChart({
  key: "trtllm-clock-origin",
  schema: trtllmClockOriginPayloadSchema,
  version: 1,
  title: "TensorRT-LLM request times' origin",
  served: false,
});

export const REUSE_LEDGER_CHART = defineChart({
  key: "reuse-ledger",
  schema: reuseLedgerPayloadSchema,
  version: 1,
  title: "Reuse ledger",
});

/**
 * A list stored in pieces that a server-side reader fetches one at a time (docs/architecture.md
 * §Per-request data in pieces): an index under `key`, piece n under `key-n`. Neither is served
 * by the chart route, nor listed among a run's charts.
 */
export interface PiecedChart<I extends z.ZodType = z.ZodType, P extends z.ZodType = z.ZodType> {
  readonly index: ChartDef<I>;
  piece(n: number): ChartDef<P>;
  /** The piece a stored key names, or null for any other key. */
  fromKey(key: string): ChartDef<P> | null;
}

function piecedChart<I extends z.ZodType, P extends z.ZodType>(def: {
  key: string;
  title: string;
  index: I;
  piece: P;
}): PiecedChart<I, P> {
  const index = defineChart({ key: def.key, schema: def.index, version: 1, title: def.title, served: false });
  const piece = (n: number) =>
    defineChart({
      key: `${def.key}-${n}`,
      schema: def.piece,
      version: 1,
      title: `${def.title}, piece ${n}`,
      served: false,
    });
  const prefix = `${def.key}-`;
  return Object.freeze({
    index,
    piece,
    fromKey: (key: string) =>
      key.startsWith(prefix) && /^\d+$/.test(key.slice(prefix.length))
        ? piece(Number(key.slice(prefix.length)))
        : null,
  });
}

/**
 * Stored with the run: each traced request's spans in pieces by x_request_id, so one request's
 * journey reads one piece (some 64 requests), not every span of the run.
 */
export const DYNAMO_SPAN_PIECES = piecedChart({
  key: "dynamo-span-pieces",
  title: "Dynamo spans per request, by x_request_id",
  index: requestPiecesIndexSchema,
  piece: dynamoSpansPieceSchema,
});

/** Stored with the run: the Dynamo request-trace rows in pieces by x_request_id, as the spans. */
export const DYNAMO_TRACE_REQUEST_PIECES = piecedChart({
  key: "dynamo-trace-request-pieces",
  title: "Dynamo request-trace rows, by x_request_id",
  index: requestPiecesIndexSchema,
  piece: dynamoTraceRequestsPieceSchema,
});

/**
 * Stored with the run: every agent session in pages, served a page at a time by
 * GET /api/runs/{id}/agent-sessions (the chart payload carries the longest few).
 */
export const AGENT_SESSION_PAGES = piecedChart({
  key: "agent-session-pages",
  title: "Agent sessions, every one, in pages",
  index: agentSessionPagesIndexSchema,
  piece: agentSessionPageSchema,
});

/** Every pieced list, for `chartByKey` and the chart lists that leave pieces out. */
export const PIECED_CHARTS: readonly PiecedChart[] = [
  DYNAMO_SPAN_PIECES,
  DYNAMO_TRACE_REQUEST_PIECES,
  AGENT_SESSION_PAGES,
];

/** Whether a stored key is one piece of a pieced list (not its index). */
export const isChartPiece = (key: string): boolean => PIECED_CHARTS.some((p) => p.fromKey(key) !== null);

/**
 * The server-metrics time series: one payload per endpoint, per role and for all endpoints, so
 * a family of keys under one prefix. The endpoints payload names each group's chart by its key.
 */
export const SM_SERIES = {
  prefix: "sm-series-",
  all: () => smSeriesChart("all"),
  role: (role: string) => smSeriesChart(`role-${role}`),
  endpoint: (index: number) => smSeriesChart(`ep-${index}`),
  /** The series chart a stored key names (from the endpoints payload), or null for any other key. */
  fromKey: (key: string): SmSeriesChart | null =>
    key.startsWith(SM_SERIES.prefix) ? smSeriesChart(key.slice(SM_SERIES.prefix.length)) : null,
} as const;

function smSeriesChart(group: string) {
  return defineChart({
    key: `${SM_SERIES.prefix}${group}`,
    schema: smSeriesPayloadSchema,
    version: 1,
    title: "Server metrics over time",
  });
}

export type SmSeriesChart = ChartDef<typeof smSeriesPayloadSchema>;

/** Every chart of a fixed key (the server-metrics series are a family: `SM_SERIES`). */
export const ALL_CHARTS: readonly ChartDef[] = [
  ...Object.values(AIPERF_CHARTS),
  REUSE_INTERVALS_CHART,
  ...Object.values(TRTLLM_CHARTS),
  ...Object.values(SM_CHARTS),
  ROUTER_LOG_CHART,
  DYNAMO_TRACE_CHART,
  AGENT_SESSIONS_CHART,
  DYNAMO_SPANS_CHART,
  DYNAMO_SPAN_ROOTS_CHART,
  DYNAMO_TRACE_REQUESTS_CHART,
  TRTLLM_TIME_EVENTS_CHART,
  TRTLLM_TIME_EVENT_FILES_CHART,
  TRTLLM_CLOCK_ORIGIN_CHART,
  DYNAMO_SPAN_PIECES.index,
  DYNAMO_TRACE_REQUEST_PIECES.index,
  AGENT_SESSION_PAGES.index,
  REUSE_LEDGER_CHART,
];

/** The chart a stored key names, or undefined: the one place a key string is read back. */
export function chartByKey(key: string): ChartDef | undefined {
  return (
    ALL_CHARTS.find((c) => c.key === key) ??
    SM_SERIES.fromKey(key) ??
    PIECED_CHARTS.map((p) => p.fromKey(key)).find((c) => c !== null) ??
    undefined
  );
}
