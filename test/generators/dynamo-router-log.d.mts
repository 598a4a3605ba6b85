import type { RouterDecisionTruth } from "./dynamo-router-scrapes.mjs";
export const WORKER_IDS: string[];
export const BLOCK: number;
export function routerLog(
  decisions: RouterDecisionTruth[],
  opts?: {
    format?: "text" | "jsonl";
    ansi?: boolean;
    debug?: boolean;
    warmup?: RouterDecisionTruth[];
    bad?: number;
  },
): string;
