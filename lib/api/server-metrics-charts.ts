/**
 * Chart payloads of the server-metrics views (stored at ingest, served by
 * /api/runs/{id}/charts/{key}); the browser validates them with these schemas.
 */
import { z } from "zod";
import { endpointRoleSchema } from "@/lib/api/schemas";

const num = z.number().nullable();

/** vLLM tiered offloading: CPU tier ↔ one secondary tier (read = secondary → CPU). */
export const smOffloadTierSchema = z.object({
  tier: z.string(),
  readBytes: num,
  readTimeS: num,
  readBandwidth: num,
  writeBytes: num,
  writeTimeS: num,
  writeBandwidth: num,
  hitRate: num,
});

export const smEndpointDetailSchema = z.object({
  endpoint: z.string(),
  role: endpointRoleSchema,
  engine: z.string().nullable(),
  hitRate: num,
  hitRateMethod: z.string().nullable(),
  gaugeHitRateAvg: num,
  cpuHitRate: num,
  promptTokens: num,
  cachedTokens: num,
  externalCachedTokens: num,
  generationTokens: num,
  kvCapacityTokens: num,
  kvPoolTokens: z.array(z.number()),
  kvCapacitySource: z.string().nullable(),
  kvUsageAvg: num,
  kvUsageMax: num,
  cpuUsageMax: num,
  offloadBytesGpuToCpu: num,
  offloadBytesCpuToGpu: num,
  offloadBandwidthGpuToCpuBytesPerSecond: num,
  offloadBandwidthCpuToGpuBytesPerSecond: num,
  offloadBandwidthMethod: z.string().nullable(),
  // Added with aggregator version 3; payloads stored before it lack them and read as unknown.
  offloadTimeGpuToCpuS: num.default(null),
  offloadTimeCpuToGpuS: num.default(null),
  offloadSource: z.string().nullable().default(null),
  offloadTiers: z.array(smOffloadTierSchema).default([]),
  externalHitRate: num.default(null),
  runningAvg: num,
  waitingAvg: num,
  frontendHitRate: num,
  routerKvHitRate: num,
  routerSharedHitRate: num,
  windowS: num,
  /** What the window is: the profiling phase (and from which file) or the scrape span. */
  windowSource: z.string().nullable().default(null),
});

export const smRoleSubtotalSchema = z.object({
  role: endpointRoleSchema,
  endpoints: z.number(),
  hitRate: num,
  hitRateMethod: z.string().nullable(),
  promptTokens: num,
  cachedTokens: num,
  generationTokens: num,
  kvCapacityTokens: num,
  kvUsageAvg: num,
  kvUsageMax: num,
  offloadBytesGpuToCpu: num,
  offloadBytesCpuToGpu: num,
});

export const smSeriesGroupRefSchema = z.object({
  /** The `endpoint` URL value: "all", "role:<role>" or an endpoint key. */
  id: z.string(),
  label: z.string(),
  chartKey: z.string(),
});

export const smEndpointsPayloadSchema = z.object({
  rows: z.array(smEndpointDetailSchema),
  roles: z.array(smRoleSubtotalSchema),
  groups: z.array(smSeriesGroupRefSchema),
});

export const smPointSchema = z.object({
  /** Seconds since the first interval of the run. */
  t: z.number(),
  hitRate: num,
  promptTokens: num,
  cachedTokens: num,
  externalCachedTokens: num,
  computedTokens: num,
  kvUsage: num,
  kvUsageMax: num,
  kvUsedTokens: num,
  offloadGpuToCpuBytesPerSecond: num,
  offloadCpuToGpuBytesPerSecond: num,
  /** Bytes over transfer seconds in the interval, where the engine counts transfer time. */
  offloadGpuToCpuBandwidth: num.default(null),
  offloadCpuToGpuBandwidth: num.default(null),
  running: num,
  waiting: num,
  /**
   * Seconds the interval covers: shorter than `sliceS` for the last one when the window ends
   * inside it (a partial interval, whose counts are not comparable with full ones).
   */
  durationS: num.default(null),
});

export const smSeriesPayloadSchema = z.object({
  id: z.string(),
  label: z.string(),
  sliceS: z.number().nullable(),
  kvCapacityTokens: num,
  /**
   * Epoch ms of the first interval's start (the scrapes' clock), which places the series beside
   * the request timeline. Added with aggregator version 8; older payloads read as unknown.
   */
  startEpochMs: num.default(null),
  points: z.array(smPointSchema),
});

export type SmOffloadTier = z.infer<typeof smOffloadTierSchema>;
export type SmEndpointDetail = z.infer<typeof smEndpointDetailSchema>;
export type SmRoleSubtotal = z.infer<typeof smRoleSubtotalSchema>;
export type SmEndpointsPayload = z.infer<typeof smEndpointsPayloadSchema>;
export type SmPoint = z.infer<typeof smPointSchema>;
export type SmSeriesPayload = z.infer<typeof smSeriesPayloadSchema>;
