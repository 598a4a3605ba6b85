export function dynamoRequestTrace(opts?: {
  requests?: number;
  ids?: string[];
  receivedMs?: number[];
  turns?: number;
  noIdEvery?: number;
  plain?: number;
  subagentEvery?: number;
  bad?: number;
  seed?: number;
}): { text: string; rows: Array<Record<string, unknown>>; badLines: number[] };
