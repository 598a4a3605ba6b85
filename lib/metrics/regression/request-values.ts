/**
 * The per-request values a latency verdict resamples, gathered while a run is ingested so they
 * are stored once, sorted, beside its summary (docs/metrics.md §Regressions). Each field holds
 * exactly the values of the request rows a verdict would otherwise read: aiperf's profiling
 * requests without an error, TensorRT-LLM's every joined request, finite values only.
 */
import { REQUEST_FIELDS, type RequestField } from "./catalog";
import { Float64Column } from "../float-column";
import { sortInSteps } from "../stats";
import type { Steps } from "../steps";
import type { RequestColumn, RequestLog } from "../requests-log";

export type RequestValues = Partial<Record<RequestField, Float64Array>>;

const LOG_COLUMNS: Array<[RequestField, RequestColumn]> = [
  ["ttft", "ttftMs"],
  ["itl", "itlMs"],
  ["e2e", "e2eMs"],
];

/** Client-side TTFT, ITL and E2E of an aiperf (or imported benchmark) run, each ascending. */
export function logRequestValues(log: RequestLog): RequestValues {
  return Object.fromEntries(LOG_COLUMNS.map(([field, column]) => [field, log.sortedMeasured(column)]));
}

/** A growing column of one field's finite values, handed over ascending. */
export class ValueColumn {
  private readonly column = new Float64Column();

  add(v: number | null): void {
    if (v === null || !Number.isFinite(v)) return;
    this.column.push(v);
  }

  sorted(): Float64Array {
    return this.column.values().slice().sort();
  }

  /**
   * `sorted()` in steps (../stats.ts `sortInSteps`): the same bytes, no step sorting more than
   * SORT_STEP values (a TensorRT-LLM run's two columns were sorted whole in one turn of its finish).
   */
  *sortedInSteps(): Steps<Float64Array> {
    const copy = this.column.values().slice();
    yield;
    return yield* sortInSteps(copy);
  }
}

/**
 * Every field's values of a run from what its analyzers gathered, ascending; a field no analyzer
 * measured is empty, so a stored run says "none" instead of sending the reader to its rows. A
 * field only parts in the run's request file give (`inFile[i]`: aiperf's, once its Parquet file
 * is written) is left out: the verdict reads it from that file, and the catalog does not hold the
 * values twice.
 */
export function mergeRequestValues(
  parts: ReadonlyArray<RequestValues | undefined>,
  inFile: ReadonlyArray<boolean | undefined> = [],
): Map<RequestField, Float64Array> {
  const out = new Map<RequestField, Float64Array>();
  for (const field of REQUEST_FIELDS) {
    const givers = parts.flatMap((p, i) => (p?.[field] === undefined ? [] : [i]));
    if (givers.length > 0 && givers.every((i) => inFile[i])) continue;
    const given = givers.map((i) => parts[i]![field]!);
    if (given.length <= 1) {
      out.set(field, given[0] ?? new Float64Array(0));
      continue;
    }
    const all = new Float64Array(given.reduce((n, v) => n + v.length, 0));
    let at = 0;
    for (const v of given) {
      all.set(v, at);
      at += v.length;
    }
    out.set(field, all.sort());
  }
  return out;
}
