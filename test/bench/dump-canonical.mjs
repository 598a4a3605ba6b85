// Canonical JSON for the before/after dump (docs/performance.md, "Before/after dump"): keys
// sorted at every depth, and what differs between two uploads of the same bytes taken out, so two
// dumps of the same numbers are byte-identical.

/** Upload and ingest instants: they say when, not what was computed. */
export const VOLATILE_KEYS = new Set([
  "createdAt",
  "updatedAt",
  "summaryReadyAt",
  "drilldownReadyAt",
  "ingestedAt",
]);

/**
 * The ids an upload was given (its run and files), each with the name it is written as: a file by
 * its name, so the dump still says which file an id was.
 */
export function volatileIds(summary, upload) {
  const ids = new Map();
  if (summary?.id) ids.set(summary.id, "<run>");
  for (const f of [...(summary?.files ?? []), ...(upload?.files ?? [])])
    if (f?.id) ids.set(f.id, `<file:${f.name}>`);
  for (const r of upload?.runs ?? []) if (r?.id) ids.set(r.id, "<run>");
  return ids;
}

/** A string with every volatile id put by its name, and `?v=` of chart URLs left out. */
function scrubString(s, ids) {
  let out = s;
  for (const [id, name] of ids) if (out.includes(id)) out = out.split(id).join(name);
  return out.replace(/([?&])v=[^&#"]*/g, "$1v=<version>");
}

/** A copy with keys sorted, volatile keys dropped and volatile ids named. */
export function canonical(value, ids = new Map()) {
  if (Array.isArray(value)) return value.map((v) => canonical(v, ids));
  if (value && typeof value === "object") {
    const out = {};
    for (const k of Object.keys(value).sort()) {
      if (VOLATILE_KEYS.has(k)) continue;
      out[k] = canonical(value[k], ids);
    }
    return out;
  }
  return typeof value === "string" ? scrubString(value, ids) : value;
}

/** The text a dump file holds: one key or item a line, so a plain `diff` reads it too. */
export function canonicalText(value, ids) {
  return `${JSON.stringify(canonical(value, ids), null, 1)}\n`;
}
