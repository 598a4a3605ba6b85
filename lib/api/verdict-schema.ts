/** One metric's noise-aware verdict (docs/metrics.md §Regressions), as every route reports it. */
import { z } from "zod";

export const verdictKindSchema = z.enum([
  "improved",
  "regressed",
  "within noise",
  "not enough history",
  "not measured",
]);

export const metricVerdictSchema = z.object({
  metric: z.string(),
  label: z.string(),
  unit: z.string(),
  direction: z.enum(["lower", "higher"]),
  kind: z.enum(["requests", "run"]),
  verdict: verdictKindSchema,
  effect: z.number().nullable(),
  low: z.number().nullable(),
  high: z.number().nullable(),
  baseline: z.number().nullable(),
  value: z.number().nullable(),
  threshold: z.number(),
  method: z.string(),
  samples: z.object({ run: z.number(), baseline: z.number(), unit: z.enum(["requests", "runs"]) }),
  seed: z.number().nullable(),
  resamples: z.number().nullable(),
  note: z.string().optional(),
});

export type MetricVerdictDto = z.infer<typeof metricVerdictSchema>;
