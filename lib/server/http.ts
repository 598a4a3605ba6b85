import type { z } from "zod";

/** The one error shape (docs/http-api.md); never a stack trace or a file path. */
export function jsonError(status: number, code: string, message: string, details?: unknown): Response {
  const error: { code: string; message: string; details?: unknown } = { code, message };
  if (details !== undefined) error.details = details;
  return Response.json({ error }, { status });
}

export const notFound = (what = "run") => jsonError(404, "not_found", `${what} not found`);

/** Validates a response body against its API schema before it leaves the server (in development and tests). */
export function jsonOk<S extends z.ZodType>(schema: S, body: z.infer<S>, init?: ResponseInit): Response {
  if (process.env.NODE_ENV !== "production") schema.parse(body);
  return Response.json(body, init);
}

/** Immutable payloads of a ready run: cached by browsers and proxies until re-ingest changes the ETag. */
export const IMMUTABLE_CACHE = "public, max-age=31536000, immutable";
