/**
 * The cache-reuse ledger (docs/metrics.md §Reuse ledger): one run's reuse from what its prompts
 * could have reused to what its responses reported, step by step, with each step's loss named.
 * Stored at ingest, served by /api/runs/{id}/charts/reuse-ledger.
 */
import { z } from "zod";
import { endpointRoleSchema } from "@/lib/api/schemas";

const num = z.number().nullable();

export const LEDGER_STEP_IDS = ["theoretical", "predicted", "delivered", "reported"] as const;
export type LedgerStepId = (typeof LEDGER_STEP_IDS)[number];

/**
 * One weighting of one step: a share of prompt tokens (or blocks), what it was counted from, or
 * why it is not measured and what to upload. `rate` null with `missing` set is "not measured",
 * never 0.
 */
export const ledgerFigureSchema = z.object({
  rate: num,
  /** Hit tokens (or blocks) and all prompt tokens (or blocks) the rate is Σ of; null for a mean */
  hit: num,
  of: num,
  /** Requests (mean over requests) or lookups the figure covers */
  requests: num,
  unit: z.enum(["tokens", "blocks"]).nullable(),
  source: z.string().nullable(),
  missing: z.string().nullable(),
});
export type LedgerFigure = z.infer<typeof ledgerFigureSchema>;

export const ledgerStepSchema = z.object({
  id: z.enum(LEDGER_STEP_IDS),
  label: z.string(),
  /** Σ hit / Σ prompt, blocks or tokens */
  blockWeighted: ledgerFigureSchema,
  /** Mean over requests of each request's hit / prompt */
  requestWeighted: ledgerFigureSchema,
  /** Delivered only: the share each tier served (block-weighted), null = tier not exported */
  tiers: z
    .object({ gpu: ledgerFigureSchema, host: ledgerFigureSchema, external: ledgerFigureSchema })
    .nullable(),
});
export type LedgerStep = z.infer<typeof ledgerStepSchema>;

export const LEDGER_LOSS_IDS = [
  "routed-elsewhere",
  "evicted-before-reuse",
  "not-offloaded",
  "recomputed-reusable",
  "not-reported",
] as const;
export type LedgerLossId = (typeof LEDGER_LOSS_IDS)[number];

/** A loss between two steps, in points of prompt tokens, tokens, and mean TTFT it cost per request. */
export const ledgerLossSchema = z.object({
  id: z.enum(LEDGER_LOSS_IDS),
  label: z.string(),
  /** The steps it lies between */
  from: z.string(),
  to: z.string(),
  points: num,
  tokens: num,
  /** Mean TTFT the lost tokens cost per request, ms (slope × lost tokens per request) */
  ttftMsPerRequest: num,
  missing: z.string().nullable(),
  /**
   * The later step counted more than the earlier (no loss; points null), said in words: e.g. the
   * engines reused more than the router predicted. Null otherwise.
   */
  finding: z.string().nullable().default(null),
});
export type LedgerLoss = z.infer<typeof ledgerLossSchema>;

/** One engine endpoint's delivered tiers, with the router's prediction where the data maps it. */
export const ledgerEndpointSchema = z.object({
  endpoint: z.string(),
  role: endpointRoleSchema,
  lookupTokens: num,
  gpuTokens: num,
  hostTokens: num,
  externalTokens: num,
  delivered: num,
  /** Router log Σ overlap / Σ blocks of the worker this endpoint is (null: not mappable) */
  predictedBlocks: num,
  /** Router histogram mean of the pool this endpoint belongs to */
  predictedRequests: num,
  note: z.string().nullable(),
});
export type LedgerEndpoint = z.infer<typeof ledgerEndpointSchema>;

/** One scrape interval (or merged neighbours): each step's share of the interval's prompt tokens. */
export const ledgerIntervalSchema = z.object({
  t: z.number(),
  durationS: num,
  requests: z.number(),
  theoretical: num,
  predicted: num,
  gpu: num,
  offload: num,
  reported: num,
});
export type LedgerInterval = z.infer<typeof ledgerIntervalSchema>;

export const reuseLedgerPayloadSchema = z.object({
  steps: z.array(ledgerStepSchema),
  losses: z.array(ledgerLossSchema),
  /** Prompt tokens the losses' tokens are shares of, and which count they are */
  basisTokens: num,
  basis: z.string().nullable(),
  /** TTFT per computed prompt token (least squares over the requests); null with why */
  ttftMsPerToken: num,
  ttftFit: z.string(),
  endpoints: z.array(ledgerEndpointSchema),
  startEpochMs: num,
  intervals: z.array(ledgerIntervalSchema),
});
export type ReuseLedgerPayload = z.infer<typeof reuseLedgerPayloadSchema>;
