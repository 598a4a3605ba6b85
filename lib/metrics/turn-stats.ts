/**
 * Per-turn statistics of a multi-turn run (docs/metrics.md §Turns): latency and lengths by turn
 * index as p50, p90 and mean, request, error and cancellation counts, the hit rate where the
 * server reported cached prompt tokens, and the split of each turn's prompt into served from
 * cache, reusable but recomputed, and new.
 */
import type { TurnBand, TurnReuse, TurnRow, TurnsPayload } from "@/lib/api/turns";
import { NO_TURN, type TurnColumns } from "./conversation-turns";
import { FLAG_CANCELLED, FLAG_ERROR, FLAG_WARMUP, type RequestLog } from "./requests-log";
import { percentileSorted, sortedFinite } from "./stats";

/** Turns from this index on share one row: agentic traces can run to hundreds of turns. */
export const MAX_TURN_ROWS = 100;

function band(values: number[]): TurnBand | null {
  const s = sortedFinite(values);
  if (s.length === 0) return null;
  let sum = 0;
  for (let i = 0; i < s.length; i++) sum += s[i];
  return {
    count: s.length,
    p50: percentileSorted(s, 50),
    p90: percentileSorted(s, 90),
    mean: sum / s.length,
  };
}

interface Acc {
  requests: number;
  errors: number;
  cancelled: number;
  ttft: number[];
  e2e: number[];
  isl: number[];
  osl: number[];
  hitPrompt: number;
  hitCached: number;
  possiblePrompt: number;
  possible: number;
  reuse: TurnReuse;
}

const emptyAcc = (): Acc => ({
  requests: 0,
  errors: 0,
  cancelled: 0,
  ttft: [],
  e2e: [],
  isl: [],
  osl: [],
  hitPrompt: 0,
  hitCached: 0,
  possiblePrompt: 0,
  possible: 0,
  reuse: {
    requests: 0,
    promptTokens: 0,
    cachedTokens: 0,
    recomputedReusableTokens: 0,
    newTokens: 0,
    possibleTokens: 0,
  },
});

/**
 * One request's prompt split into its parts, which add up to `prompt`: the cached tokens (capped
 * at the prompt), the reusable tokens the server recomputed (possible − cached, never negative)
 * and the rest, new to the conversation. A server can serve more than the conversation's own
 * history from cache (a system prompt shared across conversations): then nothing was recomputed
 * that could have been reused, and the new part shrinks.
 */
export function splitPrompt(prompt: number, cached: number, possible: number) {
  const c = Math.min(Math.max(cached, 0), prompt);
  const p = Math.min(Math.max(possible, 0), prompt);
  const recomputed = Math.max(p - c, 0);
  return { cached: c, recomputedReusable: recomputed, fresh: prompt - c - recomputed, possible: p };
}

/**
 * The Turns payload of the profiling requests in `log` (warm-up left out), with `turns` indexed
 * like it; null when no request has a turn index above 0 (not a multi-turn run).
 */
export function turnsPayload(
  log: RequestLog,
  turns: TurnColumns,
  conversations: number,
  theoreticalHitRate: number | null,
  possibleSource: "records" | "inputs" = "records",
): TurnsPayload | null {
  if (!turns.multiTurn) return null;
  const accs: Acc[] = [];
  let withoutTurn = 0;
  const c = log.cols;
  for (let i = 0; i < log.length; i++) {
    const flags = log.flags[i];
    if (flags & FLAG_WARMUP) continue;
    const t = turns.turn[i];
    if (t === NO_TURN) {
      withoutTurn++;
      continue;
    }
    const a = (accs[Math.min(t, MAX_TURN_ROWS - 1)] ??= emptyAcc());
    a.requests++;
    // Counted once each, so successful + errors + cancelled is the turn's requests.
    if (flags & FLAG_CANCELLED) a.cancelled++;
    else if (flags & FLAG_ERROR) a.errors++;
    if (flags & FLAG_ERROR) continue;
    a.ttft.push(c.ttftMs[i]);
    a.e2e.push(c.e2eMs[i]);
    a.isl.push(c.inputTokens[i]);
    a.osl.push(c.outputTokens[i]);
    const prompt = c.inputTokens[i];
    if (!Number.isFinite(prompt)) continue;
    const cached = turns.cached[i];
    const possible = turns.possible[i];
    if (Number.isFinite(cached)) {
      a.hitPrompt += prompt;
      a.hitCached += Math.min(cached, prompt);
    }
    if (Number.isFinite(possible)) {
      a.possiblePrompt += prompt;
      a.possible += Math.min(possible, prompt);
    }
    if (Number.isFinite(cached) && Number.isFinite(possible)) {
      const s = splitPrompt(prompt, cached, possible);
      const r = a.reuse;
      r.requests++;
      r.promptTokens += prompt;
      r.cachedTokens += s.cached;
      r.recomputedReusableTokens += s.recomputedReusable;
      r.newTokens += s.fresh;
      r.possibleTokens += s.possible;
    }
  }
  const rows: TurnRow[] = [];
  accs.forEach((a, turn) => {
    if (!a) return;
    rows.push({
      turn,
      pooled: turn === MAX_TURN_ROWS - 1,
      requests: a.requests,
      errors: a.errors,
      cancelled: a.cancelled,
      ttftMs: band(a.ttft),
      e2eMs: band(a.e2e),
      inputTokens: band(a.isl),
      outputTokens: band(a.osl),
      hitRate: a.hitPrompt > 0 ? a.hitCached / a.hitPrompt : null,
      possibleRate: a.possiblePrompt > 0 ? a.possible / a.possiblePrompt : null,
      reuse: a.reuse.requests > 0 ? a.reuse : null,
    });
  });
  return {
    conversations,
    withoutTurn,
    cachedKnown: turns.anyCached,
    theoreticalHitRate,
    possibleSource,
    rows,
  };
}
