/**
 * Shapes of the series and verdict routes (docs/metrics.md §Regressions): GET /api/series,
 * GET /api/series/{name}, GET /api/runs/{id}/verdicts and POST /api/gate.
 */
import { z } from "zod";
import { allowDifferentSchema, comparabilityReportSchema } from "./comparability-schema";
import { collectorMismatchSchema, COMPARE_STATS } from "./compare-schemas";
import { branchSchema, commitSchema, orderSchema, seriesNameSchema } from "./series-fields";
import { metricVerdictSchema } from "./verdict-schema";

export { metricVerdictSchema, verdictKindSchema, type MetricVerdictDto } from "./verdict-schema";

export { seriesFieldsSchema, seriesNameSchema } from "./series-fields";

/** `last` (the previous run of the series), `last:N` (the N before it, pooled) or a run id. */
export const baselineSpecSchema = z
  .string()
  .regex(/^(last(:([1-9]\d?))?|[A-Za-z0-9_-]{8,64})$/, "last, last:N (N ≤ 99) or a run id")
  .transform((s) =>
    s === "last"
      ? { kind: "last" as const, n: 1 }
      : s.startsWith("last:")
        ? { kind: "last" as const, n: Number(s.slice(5)) }
        : { kind: "run" as const, id: s },
  );
export type BaselineSpec = z.output<typeof baselineSpecSchema>;

const judgeOptions = {
  thresholds: z.string().max(1000).optional(),
  seed: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .optional(),
};

export const verdictsQuerySchema = z.object({
  baseline: baselineSpecSchema.default({ kind: "last", n: 1 }),
  failOn: z.string().max(1000).optional(),
  /** Differences accepted by name, or all: judge a baseline that differs in them (docs/metrics.md §Comparable runs) */
  allowDifferent: allowDifferentSchema,
  format: z.enum(["json", "markdown"]).default("json"),
  ...judgeOptions,
});

export const gateQuerySchema = verdictsQuerySchema.extend({
  series: seriesNameSchema,
  commit: commitSchema.optional(),
  branch: branchSchema.optional(),
  order: orderSchema.optional(),
});

export const judgementSchema = z.object({
  runId: z.string(),
  runName: z.string(),
  series: z.string().nullable(),
  /** What the run was judged against, in words, and the runs it is made of */
  baseline: z.object({ label: z.string(), runIds: z.array(z.string()) }),
  verdicts: z.array(metricVerdictSchema),
  collectorMismatches: z.array(collectorMismatchSchema),
  /** The doctor's report against each baseline run (none blocks, or its differences were accepted) */
  comparability: z
    .array(comparabilityReportSchema.extend({ baselineRunId: z.string().nullable() }))
    .optional(),
});

export const gateResultSchema = z.object({
  outcome: z.enum(["pass", "fail", "unjudged"]),
  /** What the CLI exits with: 0 pass, 1 a regression past a threshold, 2 could not judge */
  exitCode: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  reasons: z.array(z.string()),
  runUrl: z.string().nullable(),
  compareUrl: z.string().nullable(),
  judgement: judgementSchema.nullable(),
  /** The doctor's reports when the baseline was not comparable (the judgement then is null) */
  comparability: z
    .array(comparabilityReportSchema.extend({ baselineRunId: z.string().nullable() }))
    .optional(),
  markdown: z.string(),
});

export const seriesListSchema = z.object({
  series: z.array(
    z.object({ name: z.string(), runCount: z.number(), firstAt: z.string(), lastAt: z.string() }),
  ),
});

export const seriesQuerySchema = z.object({
  stat: z.enum(COMPARE_STATS).default("p50"),
  /** Earlier runs each run is judged against (the noise band's window) */
  window: z.coerce.number().int().min(3).max(50).default(10),
  /**
   * `run`: run-level verdicts only, from stored headline figures (fast: what the page opens with);
   * `all`: the latency verdicts too, each a bootstrap over the runs' stored requests
   */
  judge: z.enum(["run", "all"]).default("all"),
  /** Differences accepted by name, or all: judge a run that differs from the one before in them */
  allowDifferent: allowDifferentSchema,
  ...judgeOptions,
});

export const seriesRunSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  commit: z.string().nullable(),
  branch: z.string().nullable(),
  /** The order key the uploader set; null: the run is ordered by its upload time */
  order: z.string().nullable(),
  facts: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  /** Headline values by verdict metric id (and `kv_usage_peak`) */
  metrics: z.record(z.string(), z.number().nullable()),
  /** The noise band of each metric over the runs before this one: null with fewer than 3 */
  bands: z.record(z.string(), z.object({ low: z.number(), high: z.number() }).nullable()),
  verdicts: z.array(metricVerdictSchema),
  /**
   * The doctor's report against the run before it (null for the first run); a run not comparable
   * with it gets no verdicts unless the difference is accepted
   */
  comparability: comparabilityReportSchema.nullable().optional(),
});

export const seriesDetailSchema = z.object({
  name: z.string(),
  stat: z.enum(COMPARE_STATS),
  window: z.number(),
  /** Which verdicts were reached: `run` leaves the latency ones out (the query's `judge`) */
  judged: z.enum(["run", "all"]),
  runs: z.array(seriesRunSchema),
});

export type Judgement = z.infer<typeof judgementSchema>;
export type GateResult = z.infer<typeof gateResultSchema>;
export type SeriesDetail = z.infer<typeof seriesDetailSchema>;
export type SeriesRun = z.infer<typeof seriesRunSchema>;
export type SeriesQuery = z.output<typeof seriesQuerySchema>;
