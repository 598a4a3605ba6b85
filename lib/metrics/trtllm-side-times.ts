/** A joined request's timestamps, flattened from its context and generation records. */
import { TIMING_FIELDS, type TrtllmTiming } from "@/lib/formats/trtllm-record";
import type { RequestTimes, TimeKey } from "./time-breakdown";

/** The first source's value of `k` that is not null (`first` is read before `second`). */
function pick(k: keyof TrtllmTiming, first: TrtllmTiming | undefined, second: TrtllmTiming | undefined) {
  if (first && first[k] !== null) return first[k];
  if (second && second[k] !== null) return second[k];
  return null;
}

/**
 * Each side's timestamps, as named on its worker record (on the request they get the side's
 * prefix): a context worker's own times; a generation worker's also time the KV transfer.
 */
const CTX_TIMES = TIMING_FIELDS.slice(0, 6);
const GEN_TIMES = TIMING_FIELDS.slice(0, 8);

/** Built once: fillSide runs for every request of a run. */
const SIDE_KEYS = { ctx: sideKeys("ctx", CTX_TIMES), gen: sideKeys("gen", GEN_TIMES) };

function sideKeys(
  side: "ctx" | "gen",
  names: ReadonlyArray<keyof TrtllmTiming>,
): Array<[TimeKey, keyof TrtllmTiming]> {
  return names.map((k) => [`${side}${k[0].toUpperCase()}${k.slice(1)}` as TimeKey, k]);
}

/** Fills one side's timestamps of a request, each from the first of its two records that has it. */
export function fillSide(
  times: RequestTimes,
  side: "ctx" | "gen",
  a: TrtllmTiming | undefined,
  b?: TrtllmTiming | undefined,
): void {
  for (const [to, from] of SIDE_KEYS[side]) times[to] = pick(from, a, b);
}
