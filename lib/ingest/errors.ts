/**
 * An internal error's message as it may be shown to users (run error, upload response): no
 * stack, no absolute file paths (blob locations, temp files, source paths), bounded length.
 */
export function publicMessage(err: unknown): string {
  const raw = err instanceof Error ? err.message : String(err);
  const firstLine = raw.split("\n")[0] ?? "";
  return firstLine.replace(/(?:[A-Za-z]:)?(?:[\\/][\w.@~-]+){2,}[\\/]?/g, "<path>").slice(0, 500);
}
