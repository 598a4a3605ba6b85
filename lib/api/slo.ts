/**
 * Service-level objectives for goodput (docs/metrics.md §Goodput): a threshold on TTFT, TPOT
 * (ITL) or E2E latency, met per request or by the run at a percentile. In the URL as
 * `slo=ttft:p99:200,tpot:req:20,e2e:p90:5000` (metric : req or pNN : milliseconds).
 */
import { z } from "zod";
import { derivedValueSchema } from "./derived-throughput";

export const SLO_METRICS = ["ttft", "tpot", "e2e"] as const;
export const SLO_MODES = ["req", "p50", "p75", "p90", "p95", "p99"] as const;
export type SloMetric = (typeof SLO_METRICS)[number];
export type SloMode = (typeof SLO_MODES)[number];

export const SLO_METRIC_LABELS: Record<SloMetric, string> = { ttft: "TTFT", tpot: "TPOT", e2e: "E2E" };

export const sloSchema = z.object({
  metric: z.enum(SLO_METRICS),
  mode: z.enum(SLO_MODES),
  thresholdMs: z.number().positive().max(1e9),
});
export type Slo = z.infer<typeof sloSchema>;

const ALIASES: Record<string, SloMetric> = { ttft: "ttft", tpot: "tpot", itl: "tpot", e2e: "e2e" };

/** Parses the `slo` parameter; null when any part is malformed (the caller says so). One SLO per metric. */
export function parseSlos(raw: string | null | undefined): Slo[] | null {
  if (!raw) return [];
  const out: Slo[] = [];
  for (const part of raw.split(",")) {
    const [m, mode, t, extra] = part.trim().toLowerCase().split(":");
    const metric = ALIASES[m ?? ""];
    const thresholdMs = Number(t);
    const parsed = sloSchema.safeParse({ metric, mode, thresholdMs });
    if (extra !== undefined || !parsed.success || out.some((s) => s.metric === metric)) return null;
    out.push(parsed.data);
  }
  return out;
}

export function formatSlos(slos: readonly Slo[]): string {
  return slos.map((s) => `${s.metric}:${s.mode}:${s.thresholdMs}`).join(",");
}

/** "TTFT p99 ≤ 200 ms", "TPOT ≤ 20 ms per request" */
export function describeSlo(s: Slo): string {
  const t = `${s.thresholdMs.toLocaleString("en-US")} ms`;
  return s.mode === "req"
    ? `${SLO_METRIC_LABELS[s.metric]} ≤ ${t} per request`
    : `${SLO_METRIC_LABELS[s.metric]} ${s.mode} ≤ ${t}`;
}

export const goodputQuerySchema = z.object({
  slo: z
    .string()
    .max(200)
    .refine((v) => parseSlos(v) !== null, "expected metric:mode:ms items, e.g. ttft:p99:200,tpot:req:20")
    .transform((v) => parseSlos(v)!),
});

export const sloCheckSchema = z.object({
  slo: sloSchema,
  /** Per request: how many requests miss it (no value counts as a miss). At a percentile: that percentile. */
  missed: z.number().nullable(),
  observedMs: z.number().nullable(),
  met: z.boolean(),
});

export const goodputSchema = z.object({
  slos: z.array(sloSchema),
  /** Where the per-request rows come from ("aiperf records", "TensorRT-LLM perf metrics") */
  source: z.string().nullable(),
  note: z.string().nullable(),
  /** Requests counted (profiling phase, errors included: a failed request meets no SLO) */
  requests: z.number(),
  /** Requests meeting every per-request SLO, when the run meets every percentile SLO */
  meeting: z.number(),
  /** meeting / requests; null without requests */
  share: z.number().nullable(),
  durationS: z.number().nullable(),
  checks: z.array(sloCheckSchema),
  goodputReqPerS: derivedValueSchema,
  goodputTokPerS: derivedValueSchema,
});
export type SloCheck = z.infer<typeof sloCheckSchema>;
export type Goodput = z.infer<typeof goodputSchema>;
