/**
 * The name a run gets when the uploader gave none: what was benchmarked (model, backend,
 * concurrency), as read from the files, rather than the first file's name ("profile_export.jsonl"
 * names every aiperf run alike). The uploader's own name always wins; this is only the default.
 */
import type { SummaryBlocks } from "@/lib/api/schemas";
import { plural } from "@/lib/format-number";

const MAX_NAME = 200;

export interface RunFacts {
  model: string | null;
  backend: string | null;
  concurrency: number | null;
  /** TensorRT-LLM serving mode (aggregated / disaggregated), when perf metrics were read */
  serving: string | null;
  requestCount: number | null;
}

const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);
const count = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : null);

/** The facts a default name is made of, from a run's summary blocks and backend column. */
export function runFacts(
  blocks: Pick<SummaryBlocks, "info">,
  backend: string | null,
  requestCount: number | null,
): RunFacts {
  return {
    model: text(blocks.info.model),
    backend: text(backend),
    concurrency: count(blocks.info.concurrency),
    serving: text(blocks.info["TRT-LLM serving"]),
    requestCount: count(requestCount),
  };
}

/**
 * "model · backend · concurrency N". Without model or concurrency, the serving mode and request
 * count tell runs of one backend apart; with nothing known, `fallback` (the file or folder name).
 * A backend alone says too little, so the fallback follows it.
 */
export function defaultRunName(f: RunFacts, fallback: string): string {
  const parts = [f.model, f.backend, f.concurrency === null ? null : `concurrency ${f.concurrency}`];
  if (f.model === null && f.concurrency === null) {
    parts.push(f.serving, f.requestCount === null ? null : plural(f.requestCount, "request"));
    if (f.serving === null && f.requestCount === null) parts.push(fallback);
  }
  const known = parts.filter((p): p is string => p !== null);
  return (known.length > 0 ? known.join(" · ") : fallback).slice(0, MAX_NAME);
}
