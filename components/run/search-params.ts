import { parseAsFloat, parseAsInteger, parseAsString, parseAsStringLiteral } from "nuqs/server";
import { urlState } from "@/components/url-state";
import { LATENCY_METRICS } from "@/lib/api/aiperf-charts";
import { DEFAULT_VIEW, RUN_VIEW_IDS } from "@/lib/api/run-views";
import { TIMELINE_LANES } from "@/lib/api/timeline";
import {
  SAMPLE_SORTS,
  SEGMENT_SCOPES,
  STATISTICS,
  TRTLLM_LATENCY_METRICS,
  VALUE_SCALES,
} from "@/lib/api/trtllm-charts";

/** aiperf's latency metrics and TensorRT-LLM's, each once. */
const VIEW_LATENCY_METRICS = [...new Set([...LATENCY_METRICS, ...TRTLLM_LATENCY_METRICS])];

/**
 * Each of these is a discrete choice of what the page shows (a tab, a statistic, an opened
 * request), so it is a step of the browser history: Back returns to the previous view and closes
 * a drill-down. Continuous controls (a search box) replace the entry instead, or Back would
 * replay every keystroke.
 */
const STEP = { history: "push" } as const;

/**
 * URL state of a run's page, read by the server page (which view to prefetch), by the client
 * views that keep a choice in the URL, and by the links that open a run. It lives with the
 * components rather than in the page folder because components may not import app/.
 */
export const runSearchParams = {
  /** The open view (tabs). */
  view: parseAsStringLiteral(RUN_VIEW_IDS).withDefault(DEFAULT_VIEW).withOptions(STEP),
  /** Latency view: the metric of the distribution and scatter charts (TPOT: TensorRT-LLM runs). */
  metric: parseAsStringLiteral(VIEW_LATENCY_METRICS).withDefault("ttftMs").withOptions(STEP),
  /** Breakdown view: the statistic of the segment chart. */
  stat: parseAsStringLiteral(STATISTICS).withDefault("p50").withOptions(STEP),
  /** Breakdown view: how the per-request sample is sorted, and the request opened in detail. */
  sort: parseAsStringLiteral(SAMPLE_SORTS).withDefault("ttft").withOptions(STEP),
  req: parseAsInteger.withOptions(STEP),
  /**
   * The request opened in detail by its own id (TensorRT-LLM's `disagg_request_id` or
   * `request_id`, aiperf's `x_request_id`; docs/http-api.md §A request's link): the page's links
   * write it for a request with an id, and `req` (its position in the run) for one without.
   */
  rid: parseAsString.withOptions(STEP),
  /** Breakdown view: every segment, or only those that tile TTFT (decode left out). */
  segments: parseAsStringLiteral(SEGMENT_SCOPES).withDefault("all").withOptions(STEP),
  /** Breakdown view: the per-request chart's value axis. */
  scale: parseAsStringLiteral(VALUE_SCALES).withDefault("linear").withOptions(STEP),
  /** Overview: goodput SLOs, `ttft:p99:200,tpot:req:20,e2e:p90:5000` (lib/api/slo.ts). */
  slo: parseAsString.withDefault("").withOptions(STEP),
  /**
   * Timeline view: the time window (ms from the run's first request; absent = the run's end)
   * and the lane grouping. Zooming and panning are continuous, so the window replaces the entry.
   */
  tfrom: parseAsFloat,
  tto: parseAsFloat,
  lanes: parseAsStringLiteral(TIMELINE_LANES).withOptions(STEP),
  /** Sessions view: the agent session opened in detail (its id). */
  session: parseAsString.withOptions(STEP),
  /** Server-metrics views: "all" | "role:<role>" | "<endpoint>". */
  endpoint: parseAsString.withDefault("all").withOptions(STEP),
};

const { cache, serialize: serializeRun } = urlState(runSearchParams);

export const runSearchParamsCache = cache;

/** The link to a run's page; state left at its default stays out of the URL. */
export function runHref(id: string, state: Parameters<typeof serializeRun>[1] = {}): string {
  return serializeRun(`/runs/${encodeURIComponent(id)}`, state);
}
