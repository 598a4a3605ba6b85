/**
 * The payload of a run view's first chart, put into the page's query cache on the server: the
 * browser then draws that chart as soon as the page has hydrated, instead of asking for its data
 * only then and waiting for the answer. Small payloads only (the view's first chart, not all).
 */
import type { QueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import { chartVersion } from "@/lib/api/chart-version";
import { runChartQueryOptions } from "@/lib/api/query-options";
import type { RunSummary } from "@/lib/api/schemas";
import { AIPERF_CHART_KEYS, distributionPayloadSchema } from "@/lib/api/aiperf-charts";
import { SM_ENDPOINTS_CHART, smEndpointsPayloadSchema } from "@/lib/api/server-metrics-charts";
import { segmentsPayloadSchema, TRTLLM_CHART_KEYS } from "@/lib/api/trtllm-charts";
import type { Db } from "@/lib/store/db";
import { getChartData } from "@/lib/store/runs-repo";

interface FirstChart {
  key: string;
  schema: z.ZodType;
  has(run: RunSummary): boolean;
}

const SERVER_METRICS: FirstChart = {
  key: SM_ENDPOINTS_CHART,
  schema: smEndpointsPayloadSchema,
  has: (run) => run.serverMetrics !== null,
};

/** Per `?view=`: the payload its first chart is drawn from. */
const FIRST_CHART: Record<string, FirstChart> = {
  latency: {
    key: AIPERF_CHART_KEYS.distribution,
    schema: distributionPayloadSchema,
    has: (run) => run.requests?.source === "aiperf",
  },
  breakdown: {
    key: TRTLLM_CHART_KEYS.segments,
    schema: segmentsPayloadSchema,
    has: (run) => run.timeBreakdown !== null,
  },
  kv: SERVER_METRICS,
  cache: SERVER_METRICS,
  offload: SERVER_METRICS,
};

export async function prefetchFirstChart(
  queryClient: QueryClient,
  db: Db,
  run: RunSummary,
  view: string | undefined,
): Promise<void> {
  const first = view === undefined ? undefined : FIRST_CHART[view];
  if (run.status !== "ready" || !first?.has(run)) return;
  const stored = await getChartData(db, run.id, first.key);
  if (stored === undefined) return;
  const parsed = first.schema.safeParse(JSON.parse(stored));
  if (!parsed.success) return;
  const options = runChartQueryOptions(run.id, first.key, first.schema, {}, chartVersion(run));
  queryClient.setQueryData(options.queryKey, parsed.data);
}
