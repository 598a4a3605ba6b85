/**
 * The KV-aware router's predicted hit rate beside what the engines delivered (docs/metrics.md
 * §Predicted vs delivered hit rate): one payload per run, stored at ingest, served by
 * /api/runs/{id}/charts/sm-router.
 */
import { z } from "zod";
import { endpointRoleSchema } from "@/lib/api/schemas";

const num = z.number().nullable();

/** One engine endpoint of a router's pool, with the hit rate its own counters (or gauge) give. */
export const routerPoolEndpointSchema = z.object({
  endpoint: z.string(),
  role: endpointRoleSchema,
  delivered: num,
  deliveredMethod: z.string().nullable(),
});

/**
 * The workers one router (or several replicas of it) routes to. Dynamo labels its router
 * histogram with the workers' `dynamo_component`, so a pool is matched to the engine endpoints
 * carrying the same label; the chosen worker of each request is not in any metric.
 */
export const routerPoolSchema = z.object({
  id: z.string(),
  label: z.string(),
  /** The metric family the prediction was read from and what one observation is. */
  source: z.string(),
  /** The endpoints whose scrape carried the router's histogram. */
  routers: z.array(z.string()),
  /** Routed requests in the window (the histogram's count). */
  requests: num,
  /** Mean over routed requests of overlap blocks / prompt blocks of the chosen worker. */
  predicted: num,
  /** The pool's engines: Σ cached / Σ prompt tokens from their counters, else their gauge average. */
  delivered: num,
  deliveredMethod: z.string().nullable(),
  /** delivered − predicted, in percentage points (negative: the engines reused less than predicted). */
  gapPoints: num,
  endpoints: z.array(routerPoolEndpointSchema),
  /** Why a side is missing for this pool (no matching worker, decode pool), or how the pool was matched. */
  note: z.string().nullable(),
});

export const routerPointSchema = z.object({
  /** Seconds from the first interval's start. */
  t: z.number(),
  predicted: num,
  delivered: num,
  /** Requests the router routed in the interval. */
  requests: num,
});

export const routerSeriesSchema = z.object({
  poolId: z.string(),
  label: z.string(),
  points: z.array(routerPointSchema),
});

export const routerPredictionPayloadSchema = z.object({
  pools: z.array(routerPoolSchema),
  /** Engine endpoints no router pool was matched to, with their delivered hit rates. */
  unmatched: z.array(routerPoolEndpointSchema),
  /** Which side is absent from the whole upload and how to get it; null when both are present. */
  missing: z.string().nullable(),
  sliceS: num,
  startEpochMs: num,
  series: z.array(routerSeriesSchema),
});

export type RouterPoolEndpoint = z.infer<typeof routerPoolEndpointSchema>;
export type RouterPool = z.infer<typeof routerPoolSchema>;
export type RouterPoint = z.infer<typeof routerPointSchema>;
export type RouterSeries = z.infer<typeof routerSeriesSchema>;
export type RouterPredictionPayload = z.infer<typeof routerPredictionPayloadSchema>;
