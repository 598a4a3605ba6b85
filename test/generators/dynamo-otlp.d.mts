/** Types of test/generators/dynamo-otlp.mjs. */
export interface OtlpClient {
  x: string;
  startNs: bigint;
  ttftMs: number;
  e2eMs: number;
}
export interface OtlpGap {
  /** The x_request_id the trace carries; null where the generator left it out */
  x: string | null;
  sendMs: number;
  ttftMs: number;
  e2eMs: number;
}
export function dynamoOtlpSpans(opts: { clients: OtlpClient[]; noIdEvery?: number; document?: boolean }): {
  text: string;
  gaps: OtlpGap[];
};
export function clientsOfAiperf(jsonl: string): OtlpClient[];
