/**
 * Path parameters and the chart query of the API routes. Next.js hands path parameters over as
 * strings; a path that does not match these names nothing, so the routes answer it with 404.
 */
import { z } from "zod";
import { runIdSchema } from "./schemas";

export const runParamsSchema = z.object({ id: runIdSchema });

/** Chart keys are the stored payloads' names (see the *-charts.ts contracts). */
export const chartParamsSchema = runParamsSchema.extend({ key: z.string().regex(/^[\w.:-]{1,100}$/) });

export const fileParamsSchema = runParamsSchema.extend({ fileId: runIdSchema });

const requestIndex = z.coerce
  .number()
  .int()
  .min(0)
  .max(2 ** 31);

/** A TensorRT-LLM request by its index in the run. */
export const requestParamsSchema = runParamsSchema.extend({ idx: requestIndex });

/** An aiperf request of the timeline by the id its bar carries. */
export const timelineRequestParamsSchema = runParamsSchema.extend({ rid: requestIndex });

/** `v` is the chart version the client believes current (lib/api/chart-version.ts). */
export const chartQuerySchema = z.object({ v: z.string().optional() });
