import { FLAG_ERROR, FLAG_WARMUP, RequestLog, type RequestValues } from "@/lib/metrics/requests-log";

// Request values of a made-up aiperf run, for the memory tests of the request log
// (test/unit/aiperf-finish-memory.test.ts, test/unit/aiperf-read-columns-memory.test.ts).

/** Bytes a request of the log: seven Float64 columns and one byte of flags */
export const LOG_BYTES = 7 * 8 + 1;
/** Bytes a request of the turn columns: turn and conversation (Int32), cached and possible (Float64) */
export const TURN_BYTES = 4 + 4 + 8 + 8;

/** Request i's values: some TTFTs missing, every other value varied. */
export function requestValuesOf(i: number): RequestValues {
  const startNs = 1_000_000_000n + BigInt(i) * 1_000_000n;
  return {
    startNs,
    endNs: startNs + BigInt(5_000_000 + ((i * 7919) % 1000) * 1000),
    ttftMs: i % 13 === 0 ? null : 1 + ((i * 31) % 97),
    e2eMs: 5 + ((i * 7919) % 1000) / 1000,
    itlMs: 0.5 + (i % 17) / 10,
    inputTokens: 100 + (i % 50),
    outputTokens: 20 + (i % 9),
  };
}

/** Request i's flags: every tenth a warm-up, some errors. */
export const requestFlagsOf = (i: number) => (i % 10 === 0 ? FLAG_WARMUP : i % 23 === 0 ? FLAG_ERROR : 0);

/** A log of n such requests. */
export function logOf(n: number): RequestLog {
  const log = new RequestLog();
  for (let i = 0; i < n; i++) log.add(requestValuesOf(i), requestFlagsOf(i));
  return log;
}
