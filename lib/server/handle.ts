import { UploadError } from "@/lib/ingest/errors";
import { jsonError } from "./http";

/** Errors from the store being unreachable or locked: the client should retry. */
function isStoreUnavailable(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  const code = e?.code ?? "";
  return (
    [
      "SQLITE_BUSY",
      "SQLITE_LOCKED",
      "ECONNREFUSED",
      "ECONNRESET",
      "57P01",
      "57P03",
      "53300",
      "08006",
      "08001",
    ].includes(code) ||
    /connection terminated|timeout exceeded when trying to connect|database is locked/i.test(e?.message ?? "")
  );
}

/** The disk or database is full: nothing the client can fix by retrying at once, but not a bug either. */
function isStorageFull(err: unknown): boolean {
  const code = (err as { code?: string })?.code ?? "";
  return ["ENOSPC", "EDQUOT", "SQLITE_FULL", "53100"].includes(code);
}

/**
 * Wraps a route handler so every exit is the design.md §6 error shape: client mistakes keep
 * their status, an unavailable store is a 503, anything else a 500 without internals.
 */
export function handle<A extends unknown[]>(
  fn: (...args: A) => Promise<Response>,
): (...args: A) => Promise<Response> {
  return async (...args: A) => {
    try {
      // eslint-disable-next-line no-restricted-syntax -- a route's own few arguments
      return await fn(...args);
    } catch (err) {
      if (err instanceof UploadError) return jsonError(err.status, err.code, err.message, err.details);
      // PostgreSQL refusing text it cannot encode: the request's text, not the server, is at fault.
      if (["22021", "22P05"].includes((err as { code?: string })?.code ?? ""))
        return jsonError(422, "unstorable_text", "the request holds text the database cannot store");
      if (isStoreUnavailable(err))
        return jsonError(503, "store_unavailable", "the database is busy or unreachable; try again shortly");
      if (isStorageFull(err)) {
        console.error("[runlens] storage full:", err);
        return jsonError(507, "storage_full", "the server has no room left to store this; ask its operator");
      }
      console.error("[runlens] unhandled error:", err);
      return jsonError(500, "internal_error", "something went wrong on the server");
    }
  };
}
