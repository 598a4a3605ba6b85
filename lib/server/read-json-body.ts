import { TooLargeError } from "@/lib/api/request-errors";

/** Small JSON request bodies (rename, labels) are capped: `req.json()` would buffer any size. */
export const MAX_JSON_BODY_BYTES = 64 * 1024;

/**
 * Reads a JSON request body of at most `maxBytes`, streaming so an oversized body is refused as
 * soon as it crosses the limit (413) rather than after it has been buffered. Returns `undefined`
 * for a body that is not JSON (the caller's schema then reports what was expected).
 */
export async function readJsonBody(req: Request, maxBytes = MAX_JSON_BODY_BYTES): Promise<unknown> {
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > maxBytes)
    throw new TooLargeError("payload_too_large", `the JSON body exceeds ${maxBytes} bytes`);
  if (!req.body) return undefined;
  const reader = req.body.getReader();
  const parts: Uint8Array[] = [];
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    bytes += value.byteLength;
    if (bytes > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new TooLargeError("payload_too_large", `the JSON body exceeds ${maxBytes} bytes`);
    }
    parts.push(value);
  }
  try {
    return JSON.parse(Buffer.concat(parts).toString("utf8"));
  } catch {
    return undefined;
  }
}
