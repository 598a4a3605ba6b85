type Json = Record<string, unknown>;

export declare function phaseKeyedWorker(rec: object, serverKind?: string): Json & { phases: Json };
export declare function phaseKeyedDisagg(rec: object): Json & { phases: Json };
export declare function jsonl(values: readonly unknown[]): string;
export declare function timeEventsLines(records: readonly object[], rank?: number): string;
export declare function iterationStats(first: number, count: number): Json[];
export declare function iterationStatsPolls(polls: readonly number[]): string;
export declare function requestStatsPerIteration(
  first: number,
  count: number,
  requestsPerIter?: number,
): Json[];
export declare const GEN_EVENTS: string[];
export declare function pythonDumps(value: unknown): string;
export declare function perEventTimeEvents(
  requests: ReadonlyArray<{
    requestId: bigint | number | string;
    ctxRequestId?: bigint | number | string | null;
    events?: readonly string[];
  }>,
  options?: { role?: string; rank?: number; pid?: number; t0?: number },
): string;
export declare function perRequestTimeEvents(
  requests: ReadonlyArray<{
    requestId: bigint | number | string;
    ctxRequestId?: bigint | number | string | null;
  }>,
  rank?: number,
): string;
