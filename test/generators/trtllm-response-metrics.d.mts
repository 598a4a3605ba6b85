type Step = Record<string, number>;
export function recordFixture(o?: {
  arrival?: number;
  scheduled?: number;
  firstToken?: number;
  lastToken?: number;
  steps?: Step[];
  chunks?: Step[];
}): Record<string, unknown>;
export function buildMetricsHeaders(record: Record<string, unknown>): Record<string, string>;
export function buildMetricsSseEvent(headers: Record<string, string>): string;
export function aiperfRawLine(o: {
  xRequestId?: string;
  headers?: Record<string, string>;
  eventData?: string;
  startPerfNs?: number;
  requestStartNs?: number;
  /** Text of each streamed chunk (a long one pushes the metrics event far into the line). */
  tokens?: string[];
}): string;
export function curlNonStreamed(headers: Record<string, string>, o?: { requestId?: string }): string;
export function curlStreamed(
  headers: Record<string, string>,
  o?: { requestId?: string; withHeaders?: boolean },
): string;
export function recordFromHeaders(
  headers: Record<string, string>,
  phase: string,
  requestId?: string,
): Record<string, unknown> | null;
export function combineDisaggMetrics(
  requestId: string,
  disaggPhase: Record<string, unknown>,
  ctxRecord: Record<string, unknown> | null,
  genRecord: Record<string, unknown> | null,
  disaggRequestId?: number,
): Record<string, unknown>;
export function disaggRecordFixture(
  t: number,
  o?: { kv?: boolean; disaggRequestId?: number },
): Record<string, unknown>;
