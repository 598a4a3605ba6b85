import type { AiperfRecord } from "./aiperf-records";

/** A nanosecond timestamp read from the line's text (exact, unlike the parsed number); null when absent. */
export declare function nsFromText(text: string, key: string): bigint | null;
export declare function nsMetricFromText(text: string, key: string): bigint | null;
export declare const OLD_METRIC_TAGS: Readonly<Record<string, string>>;

/** Said once per file with how many records had it (docs/metrics.md §Requests). */
export declare const NEGATIVE_TOKENS: string;

/**
 * A token count as a record carries it: null past 2^53 or below 0 (the latter reported through
 * `badValue` with NEGATIVE_TOKENS).
 */
export declare function tokenCount(v: number | null, badValue: (message: string) => void): number | null;

/**
 * aiperf's `credit_to_start_latency` of one record in ms (`request_start_ns − credit_issued_ns`
 * as float64, clamped at 0); null without either stamp.
 */
export declare function queueWaitMs(
  text: string,
  meta: Record<string, unknown>,
  startNs: bigint | null,
): number | null;

/** Parses one record; a string (the reason) when the line is not an aiperf record. */
export declare function parseAiperfRecord(
  value: unknown,
  text: string,
  badValue?: (message: string) => void,
): AiperfRecord | string;

/** aiperf's (latency − TTFT) / (OSL − 1), for records that omit the tag; null below 2 output tokens. */
export declare function derivedItlMs(
  ttftMs: number | null,
  e2eMs: number | null,
  outputTokens: number | null,
): number | null;
