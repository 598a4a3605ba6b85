/** The series fields a run carries (docs/metrics.md §Regressions), set at upload or by PATCH. */
import { z } from "zod";
import { orderSchema } from "./series-order";

/** A series name: path-like (`nightly/llama-70b/h100/c64`), printable, no leading or trailing slash. */
export const seriesNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(
    /^[A-Za-z0-9._~:@+=-]+(\/[A-Za-z0-9._~:@+=-]+)*$/,
    "letters, digits, . _ ~ : @ + = - and / between parts",
  );

export const commitSchema = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[\x21-\x7e]+$/, "no spaces");
export const branchSchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .regex(/^[\x21-\x7e]+$/, "no spaces");

export { orderSchema };

/** Series fields of an upload or a PATCH; null clears one. */
export const seriesFieldsSchema = z.object({
  series: seriesNameSchema.nullable().optional(),
  commit: commitSchema.nullable().optional(),
  branch: branchSchema.nullable().optional(),
  /** Where the run sits in its series: a number, a version or an ISO date (./series-order.ts) */
  order: orderSchema.nullable().optional(),
});

export type SeriesFields = z.input<typeof seriesFieldsSchema>;
