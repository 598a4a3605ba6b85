/**
 * The name a run gets when the uploader gave none: what was benchmarked (model, backend,
 * concurrency), as read from the files, rather than the first file's name ("profile_export.jsonl"
 * names every aiperf run alike). The uploader's own name always wins; this is only the default.
 */
import type { RunFacts } from "@/lib/api/run-facts";
import type { SummaryBlocks } from "@/lib/api/schemas";
import { plural } from "@/lib/format-number";

const MAX_NAME = 200;

export interface NameFacts {
  model: string | null;
  backend: string | null;
  concurrency: number | null;
  /** Shown when no concurrency is known (a rate-driven benchmark) */
  requestRate?: number | null;
  /** TensorRT-LLM serving mode (aggregated / disaggregated), when perf metrics were read */
  serving: string | null;
  requestCount: number | null;
}

const text = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : null);
const count = (v: unknown) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : null);

/**
 * The facts a default name is made of: the run's facts (docs/metrics.md §Run facts; the model
 * from server-metrics labels or a log when no aiperf config names it), else its summary blocks
 * and backend column.
 */
export function nameFacts(
  facts: RunFacts | null,
  blocks: Pick<SummaryBlocks, "info">,
  backend: string | null,
  requestCount: number | null,
): NameFacts {
  return {
    model: text(facts?.model?.value) ?? text(blocks.info.model),
    backend: text(facts?.backend?.value) ?? text(backend),
    concurrency: count(facts?.concurrency?.value) ?? count(blocks.info.concurrency),
    requestRate: count(facts?.requestRate?.value) ?? count(blocks.info.requestRate),
    serving: text(blocks.info["TRT-LLM serving"]),
    requestCount: count(requestCount),
  };
}

/**
 * "model · backend · concurrency N". Without model or concurrency, the serving mode and request
 * count follow the backend; without a load (concurrency or request rate), `fallback` (the file or
 * folder name) ends the name, since the rest is shared by many runs; with nothing known, it is
 * the name.
 */
export function defaultRunName(f: NameFacts, fallback: string): string {
  const load =
    f.concurrency !== null
      ? `concurrency ${f.concurrency}`
      : f.requestRate
        ? `${f.requestRate.toLocaleString("en-US")} req/s`
        : null;
  const parts = [f.model, f.backend, load];
  if (f.model === null && load === null)
    parts.push(f.serving, f.requestCount === null ? null : plural(f.requestCount, "request", "requests"));
  // Without a load, model, backend, serving mode and request count are shared by many runs
  // (four single-request TensorRT-LLM uploads all read "trtllm · disaggregated · 1 request"):
  // the file or folder name tells them apart.
  if (load === null) parts.push(fallback);
  const known = parts.filter((p): p is string => p !== null);
  return (known.length > 0 ? known.join(" · ") : fallback).slice(0, MAX_NAME);
}
