/**
 * Goodput per sweep over the wire: every run's goodput under the viewer's SLOs (computed from its
 * per-request rows), and the highest load at which a run still meets every SLO.
 */
import { z } from "zod";
import { goodputSchema, sloSchema } from "./slo";

export const sweepGoodputSchema = z.object({
  slos: z.array(sloSchema),
  runs: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      concurrency: z.number().nullable(),
      requestRate: z.number().nullable(),
      /** Every SLO met: each percentile SLO by the run, each per-request SLO by every request */
      meetsAll: z.boolean(),
      goodput: goodputSchema,
    }),
  ),
  /** The run with the highest concurrency (else request rate) that meets every SLO; null when none does */
  highestMeeting: z
    .object({ id: z.string(), concurrency: z.number().nullable(), requestRate: z.number().nullable() })
    .nullable(),
});
export type SweepGoodput = z.infer<typeof sweepGoodputSchema>;
