/**
 * Run facts (docs/metrics.md §Run facts): what was benchmarked — model, backend, hardware, GPU
 * count, parallelism per role, load, ISL/OSL — each with the artifact it was read from. A fact
 * the files do not state is null, never guessed; a user can set or correct any fact, and an
 * edited fact says so and outlives re-ingest.
 */
import { z } from "zod";

const factOf = <T extends z.ZodType>(value: T) =>
  z.object({
    value,
    /** Where the value was read, e.g. "aiperf input_config", "GPU telemetry (2 distinct GPUs)", "edited" */
    source: z.string(),
    edited: z.boolean(),
  });

const count = z.number().int().positive();

/** One serving role (prefill, decode, a combined worker…) and its parallelism; null = not stated. */
export const roleFactSchema = z.object({
  role: z.string().trim().min(1).max(64),
  /** Workers (replicas) of this role */
  count: count.nullable(),
  tp: count.nullable(),
  pp: count.nullable(),
  ep: count.nullable(),
  dp: count.nullable(),
});

export const runFactsSchema = z.object({
  model: factOf(z.string()).nullable(),
  backend: factOf(z.string()).nullable(),
  backendVersion: factOf(z.string()).nullable(),
  gpuModel: factOf(z.string()).nullable(),
  gpuCount: factOf(count).nullable(),
  roles: factOf(z.array(roleFactSchema)).nullable(),
  concurrency: factOf(z.number().positive()).nullable(),
  requestRate: factOf(z.number().positive()).nullable(),
  /** Input / output sequence length in tokens; the source says config setting or measured mean */
  isl: factOf(z.number().nonnegative()).nullable(),
  osl: factOf(z.number().nonnegative()).nullable(),
});

export type RunFacts = z.infer<typeof runFactsSchema>;
export type FactKey = keyof RunFacts;
export type RoleFact = z.infer<typeof roleFactSchema>;
export type FactValue<K extends FactKey> = NonNullable<RunFacts[K]>["value"];
export type Fact<K extends FactKey> = NonNullable<RunFacts[K]>;

export const FACT_KEYS = Object.keys(runFactsSchema.shape) as FactKey[];

export const FACT_LABELS: Record<FactKey, string> = {
  model: "Model",
  backend: "Backend",
  backendVersion: "Backend version",
  gpuModel: "Hardware",
  gpuCount: "GPUs",
  roles: "Roles",
  concurrency: "Concurrency",
  requestRate: "Request rate",
  isl: "ISL",
  osl: "OSL",
};

/** What ingest read from the files: a value and its source per fact it found. */
export type ExtractedFacts = { [K in FactKey]?: { value: FactValue<K>; source: string } };

/** A user's corrections as stored: the value per edited fact. */
export type FactEdits = { [K in FactKey]?: FactValue<K> };

const text = z.string().trim().min(1).max(200);

/**
 * The `facts` of `PATCH /api/runs/{id}`: a value sets (or corrects) a fact, null clears the edit
 * so the value read from the files shows again. Unknown keys are refused.
 */
export const factsPatchSchema = z
  .object({
    model: text.nullable(),
    backend: text.nullable(),
    backendVersion: text.nullable(),
    gpuModel: text.nullable(),
    gpuCount: count.max(100_000).nullable(),
    roles: z.array(roleFactSchema).max(16).nullable(),
    concurrency: z.number().positive().max(1e7).nullable(),
    requestRate: z.number().positive().max(1e9).nullable(),
    isl: z.number().nonnegative().max(1e8).nullable(),
    osl: z.number().nonnegative().max(1e8).nullable(),
  })
  .partial()
  .strict();

export type FactsPatch = z.infer<typeof factsPatchSchema>;

export const EMPTY_FACTS: RunFacts = Object.fromEntries(FACT_KEYS.map((k) => [k, null])) as RunFacts;

/** The facts a run shows: every edit over what the files said. */
export function effectiveFacts(extracted: ExtractedFacts | null, edits: FactEdits | null): RunFacts {
  const out: Record<string, unknown> = { ...EMPTY_FACTS };
  for (const k of FACT_KEYS) {
    const read = extracted?.[k];
    if (read) out[k] = { value: read.value, source: read.source, edited: false };
    const edit = edits?.[k];
    if (edit !== undefined && edit !== null) out[k] = { value: edit, source: "edited", edited: true };
  }
  return out as RunFacts;
}

/** Stored edits with a patch applied: a value replaces, null removes. */
export function applyFactsPatch(edits: FactEdits | null, patch: FactsPatch): FactEdits {
  const out: Record<string, unknown> = { ...(edits ?? {}) };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else if (v !== undefined) out[k] = v;
  }
  return out as FactEdits;
}
