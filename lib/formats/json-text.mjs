// JSON text of one line or document. Plain JavaScript so that the aiperf parse thread
// (lib/ingest/aiperf-parse-worker.mjs), which runs without a TypeScript loader, shares it with
// the rest of the readers; types in json-text.d.mts.

export const PARSE_FAILED = Symbol("parse-failed");

/** JSON.parse that returns PARSE_FAILED instead of throwing, and accepts NaN/Infinity as null. */
export function parseJsonText(text) {
  try {
    return JSON.parse(text);
  } catch {
    if (!/NaN|Infinity/.test(text)) return PARSE_FAILED;
    try {
      return JSON.parse(text.replace(/(?<=[:,[]\s*)-?(?:NaN|Infinity)(?=\s*[,}\]])/g, "null"));
    } catch {
      return PARSE_FAILED;
    }
  }
}
