/**
 * Sweeps over the wire: the list, one sweep with a point per run at each statistic, and the
 * bodies that create, change and regroup one (docs/metrics.md §Sweeps). The browser and the
 * route handlers share these schemas.
 */
import { z } from "zod";
import { runIdSchema, runStatusSchema } from "./schemas";

export const MAX_SWEEP_RUNS = 64;
export const MAX_OVERLAID_SWEEPS = 8;

/** The statistic a point reads from each latency (and interactivity) distribution. */
export const SWEEP_STATS = ["mean", "p50", "p90", "p99"] as const;
export type SweepStat = (typeof SWEEP_STATS)[number];

const num = z.number().nullable();

/** One run's position in the sweep's charts at one statistic; null = not measured (see `missing`). */
export const sweepPointSchema = z.object({
  outputTokPerSPerGpu: num,
  totalTokPerSPerGpu: num,
  requestsPerSPerGpu: num,
  /** Interactivity: output tok/s a user sees, 1000 / TPOT ms per request (aiperf's output_token_throughput_per_user) */
  tokPerSPerUser: num,
  outputTokPerS: num,
  totalTokPerS: num,
  requestsPerS: num,
  ttftMs: num,
  e2eMs: num,
  tpotMs: num,
  /** metric key → why it is null (what is missing and how to get it) */
  missing: z.record(z.string(), z.string()),
});
export type SweepPoint = z.infer<typeof sweepPointSchema>;

/** A run fact as lib/api/run-facts.ts serves it, narrowed to the plain values a sweep shows. */
export const factSchema = z.object({
  value: z.union([z.string(), z.number()]),
  source: z.string(),
  edited: z.boolean(),
});

export const sweepRunSchema = z.object({
  id: z.string(),
  name: z.string(),
  status: runStatusSchema,
  concurrency: num,
  requestRate: num,
  gpuCount: factSchema.nullable(),
  /**
   * The run's stated setup (model, backend and version, hardware, GPU count, roles) as one text:
   * runs of a sweep at one load with the same setup are repeats of one point (docs/metrics.md
   * §Sweeps).
   */
  setup: z.string().nullable(),
  /** Where the aggregates come from: the per-request records, or the producer's own summary */
  source: z.enum(["records", "summary", "none"]),
  /** Why that source, when the choice matters (records that hold only a sample of the requests) */
  sourceNote: z.string().nullable(),
  /** Whose summary, when the source is one: "aiperf", or the imported tool ("vLLM bench serve") */
  sourceProducer: z.string().nullable().optional(),
  points: z.object({
    mean: sweepPointSchema,
    p50: sweepPointSchema,
    p90: sweepPointSchema,
    p99: sweepPointSchema,
  }),
});
export type SweepRun = z.infer<typeof sweepRunSchema>;

export const sweepSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  /** Facts every run of the sweep states alike (model, backend, hardware, GPU count, ISL, OSL); absent when they differ */
  facts: z.record(z.string(), factSchema),
  runs: z.array(sweepRunSchema),
  /** aiperf's own sweep aggregate, when the upload held one: its parameter and Pareto-optimal values */
  aiperf: z
    .object({
      parameterName: z.string(),
      parameterValues: z.array(z.number()),
      paretoOptimal: z.array(z.number()),
    })
    .nullable(),
});
export type Sweep = z.infer<typeof sweepSchema>;

export const sweepListItemSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  runCount: z.number(),
});
export const sweepListSchema = z.object({ sweeps: z.array(sweepListItemSchema) });

const runIds = z
  .array(runIdSchema)
  .min(1)
  .max(MAX_SWEEP_RUNS)
  .transform((ids) => [...new Set(ids)]);
const sweepName = z.string().trim().min(1).max(200);

export const createSweepBodySchema = z.object({ name: sweepName, runIds });

/** Rename, replace the runs, or add / remove some; removing every run leaves an empty sweep. */
export const patchSweepBodySchema = z
  .object({
    name: sweepName.optional(),
    runIds: runIds.optional(),
    addRunIds: runIds.optional(),
    removeRunIds: z.array(runIdSchema).max(MAX_SWEEP_RUNS).optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: "nothing to change" });

export const sweepIdParamsSchema = z.object({ id: runIdSchema });

export const sweepListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(100),
});
