/** Where each value of a compact TensorRT-LLM record sits in its block, shared by writer and reader. */
import { TIMING_FIELDS } from "@/lib/formats/trtllm-record";

/**
 * A record's block: 9 timing values, 3 numeric ids (NaN = none or a string id), then KV blocks
 * (4), speculative tokens (2), first/last iteration, steps at/count, chunks at/count, the
 * clock-offset sample and the KV-transfer duration sent without stamps. NaN = not recorded.
 */
export const BLOCK = 27;
export const X = 13;

/** Timing values lead the block, in record order. */
export const TIMING_KEYS = TIMING_FIELDS;

export const orNaN = (v: number | null | undefined) => (v === null || v === undefined ? NaN : v);
export const orNull = (v: number) => (Number.isNaN(v) ? null : v);
