type Id = bigint | number | string;
type Offsets = Partial<
  Record<"arrival" | "scheduled" | "firstToken" | "lastToken" | "serverArrival" | "serverFirstToken", number>
>;
export interface WorkerPartOptions {
  requestId: Id;
  ctxRequestId?: Id | null;
  /** Steady-clock seconds every offset is from */
  t: number;
  /** Offsets in ms from t */
  ms: Offsets;
  firstIter?: number;
  lastIter?: number;
}
export const AGGREGATED_MS: Required<Offsets>;
export function snowflakeId(o: {
  monotonicMs: number;
  node?: number;
  processId?: number;
  counter: number;
}): bigint;
export function pythonJson(value: unknown): string;
export function workerPart(o: WorkerPartOptions): Record<string, unknown>;
export function workerRecordLine(o: WorkerPartOptions & { disaggRequestId?: Id; status?: string }): string;
export function disaggRecordLine(o: {
  ctxServer: string;
  genServer: string;
  t: number;
  ms: { dispatch: number; firstToken: number };
  ctx: WorkerPartOptions;
  gen: WorkerPartOptions;
  disaggRequestId?: Id;
}): string;
