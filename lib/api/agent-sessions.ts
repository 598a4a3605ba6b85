/**
 * The agent sessions payload (docs/metrics.md §Agent sessions): each session of an agentic run
 * with its parent (a sub-agent's spawning session), its turns (TTFT against the prompt's input
 * tokens, cached prompt tokens), model time, tool time, hit rate and the turn where the cache
 * stopped hitting. Built from aiperf's per-request records or from a Dynamo request trace; where
 * the files lack a field, `absent` says which file lacks it and the value is null, never 0.
 */
import { z } from "zod";
import type { UpgradeResult } from "./chart-upgrade";

export const agentTurnSchema = z.object({
  /** aiperf's turn_index; for a Dynamo trace the request's place in its session by receive time */
  turn: z.number().int(),
  inputTokens: z.number().nullable(),
  ttftMs: z.number().nullable(),
  cachedTokens: z.number().nullable(),
  /** The request's latency (aiperf request_latency, Dynamo total_time_ms) */
  modelMs: z.number().nullable(),
  failed: z.boolean(),
});

export const agentCacheStopSchema = z.object({
  /** The first turn whose cached prompt tokens fell below the previous turn's */
  turn: z.number().int(),
  cachedTokens: z.number(),
  previousTurn: z.number().int(),
  previousCachedTokens: z.number(),
});

export const agentSessionSchema = z.object({
  id: z.string(),
  /** The spawning session's id; null for a root session */
  parentId: z.string().nullable(),
  /** aiperf's agent_depth (0 root); null where the file does not write it */
  depth: z.number().int().nullable(),
  turns: z.array(agentTurnSchema),
  /** Σ of the turns' model time; null when no turn carries it */
  modelTimeMs: z.number().nullable(),
  /** Σ of the session's tool durations; null when the source records no tool time */
  toolTimeMs: z.number().nullable(),
  /** Tool calls of the session; null when the source records no tools */
  toolCalls: z.number().int().nullable(),
  /** Σ cached ÷ Σ input tokens over the turns carrying both; null when none does */
  hitRate: z.number().nullable(),
  /**
   * The cache stop (the turn and both counts), `"held"` when the session's cached tokens never
   * fell, null when cached tokens are not recorded or the session has fewer than two such turns
   */
  cacheStop: z.union([agentCacheStopSchema, z.literal("held")]).nullable(),
});

/** Which id grouped the records into sessions, said on the view (docs/metrics.md §Agent sessions). */
export const agentSessionIdsSchema = z.object({
  /** The field whose value names a session (aiperf: conversation_id where a record has none) */
  by: z.enum(["x_correlation_id", "agent_context.session_id"]),
  /**
   * x_correlation_ids that span several conversations with a turn index repeated (aiperf reused
   * the id): each is split by conversation_id, a session named `x_correlation_id/conversation_id`.
   * At most SPLIT_NAMED are named here.
   */
  splitByConversation: z.array(z.string()),
  /** How many x_correlation_ids were split (all of them, named or not) */
  splitCount: z.number().int(),
});

/** Split x_correlation_ids named in the payload; the count says how many in all. */
export const SPLIT_NAMED = 20;

/**
 * The run's totals over every session, the ones the payload leaves out (`omitted`) included:
 * what the Sessions view's facts say (docs/metrics.md §Agent sessions).
 */
export const agentSessionTotalsSchema = z.object({
  sessions: z.number().int(),
  /** Sessions with no parent */
  roots: z.number().int(),
  turns: z.number().int(),
  /** Σ of the sessions' model time; null when no session carries it */
  modelTimeMs: z.number().nullable(),
  /** Σ of the sessions' tool time; null when the source records no tool time */
  toolTimeMs: z.number().nullable(),
  toolCalls: z.number().int().nullable(),
  /** Σ min(cached, input) and Σ input tokens over the turns that carry both and did not fail */
  cachedTokens: z.number(),
  inputTokens: z.number(),
  /** Sessions whose cache stopped hitting, and those whose cached prefix never shrank */
  cacheStops: z.number().int(),
  cacheHeld: z.number().int(),
});

export const agentSessionsPayloadSchema = z.object({
  source: z.enum(["aiperf-records", "dynamo-request-trace"]),
  sessionIds: agentSessionIdsSchema,
  /** The files the sessions were read from */
  files: z.array(z.string()),
  sessions: z.array(agentSessionSchema),
  /**
   * Sessions left out past the cap (the longest by turns are kept, within SESSIONS_PAYLOAD_CHARS):
   * every session is served a page at a time by GET /api/runs/{id}/agent-sessions
   */
  omitted: z.number().int(),
  /** Over every session of the run, `omitted` ones included */
  totals: agentSessionTotalsSchema,
  /** Turns not counted because their record named no session */
  withoutSession: z.number().int(),
  /** What the files lack, each naming the file and the field; null when present */
  absent: z.object({
    parent: z.string().nullable(),
    cached: z.string().nullable(),
    tools: z.string().nullable(),
  }),
});

/**
 * Every session of the run, in pages stored beside the payload (which carries the longest few):
 * the index says how many pages and sessions; each page holds consecutive sessions, some
 * `SESSION_PAGE_CHARS` of JSON (docs/metrics.md §Agent sessions).
 */
export const agentSessionPagesIndexSchema = z.object({
  pages: z.number().int().min(1),
  sessions: z.number().int(),
});
export const agentSessionPageSchema = z.object({ sessions: z.array(agentSessionSchema) });

/** JSON characters of sessions the payload carries at most: it stays under 256 KiB whatever the run. */
export const SESSIONS_PAYLOAD_CHARS = 192 * 1024;
/** JSON characters of sessions a stored page holds (a page holds at least one session). */
export const SESSION_PAGE_CHARS = 128 * 1024;

/** GET /api/runs/{id}/agent-sessions?page=n: one page of every session of the run. */
export const agentSessionPageWireSchema = z.object({
  page: z.number().int(),
  pages: z.number().int(),
  /** Sessions in all pages */
  total: z.number().int(),
  sessions: z.array(agentSessionSchema),
  /**
   * False for a run stored before the pages: its one page is the payload's sessions, and the
   * ones it left out are reached by re-ingesting the run
   */
  complete: z.boolean(),
});
export type AgentSessionPageWire = z.infer<typeof agentSessionPageWireSchema>;

/** The query of GET /api/runs/{id}/agent-sessions. */
export const agentSessionPageQuerySchema = z.object({
  page: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

/**
 * An agent sessions payload of version 1 (before it said which id grouped its sessions): a
 * Dynamo trace's were grouped by agent_context.session_id as now; aiperf's by x_correlation_id
 * alone, which merged the conversations of a reused id, so those are recomputed.
 */
function upgradeFromV1(stored: Record<string, unknown>): UpgradeResult {
  if (stored.source === "dynamo-request-trace")
    return {
      payload: {
        ...stored,
        sessionIds: { by: "agent_context.session_id", splitByConversation: [], splitCount: 0 },
      },
    };
  return {
    recompute:
      "which id grouped the sessions (an x_correlation_id that aiperf reused over several conversations is now split by conversation_id)",
  };
}

/**
 * An agent sessions payload of version 1 or 2 (before it carried `totals`): the totals come from
 * its sessions when it left none out; with sessions left out, only their pages hold them, so it
 * is recomputed.
 */
export function upgradeAgentSessionsPayload(stored: Record<string, unknown>, version: number): UpgradeResult {
  let p = stored;
  if (version < 2) {
    const up = upgradeFromV1(p);
    if ("recompute" in up) return up;
    p = up.payload as Record<string, unknown>;
  }
  if (p.omitted !== 0)
    return { recompute: "the totals over every session (the payload holds the longest few)" };
  const sessions = z.array(agentSessionSchema).safeParse(p.sessions);
  return { payload: sessions.success ? { ...p, totals: agentSessionTotals(sessions.data) } : p };
}

/** The totals over `sessions` (every session of the run, at ingest). */
export function agentSessionTotals(sessions: readonly AgentSession[]): AgentSessionTotals {
  const t = emptyTotals(sessions.length);
  for (const s of sessions) addToTotals(t, s);
  return t;
}

/** Totals over `sessions` sessions, before any is added (`addToTotals`). */
export function emptyTotals(sessions: number): AgentSessionTotals {
  return {
    sessions,
    roots: 0,
    turns: 0,
    modelTimeMs: null,
    toolTimeMs: null,
    toolCalls: null,
    cachedTokens: 0,
    inputTokens: 0,
    cacheStops: 0,
    cacheHeld: 0,
  };
}

/** Adds one session to the totals, sessions in their order (the sums are of floating point). */
export function addToTotals(t: AgentSessionTotals, s: AgentSession): void {
  if (s.parentId === null) t.roots++;
  t.turns += s.turns.length;
  if (s.modelTimeMs !== null) t.modelTimeMs = (t.modelTimeMs ?? 0) + s.modelTimeMs;
  if (s.toolTimeMs !== null) t.toolTimeMs = (t.toolTimeMs ?? 0) + s.toolTimeMs;
  if (s.toolCalls !== null) t.toolCalls = (t.toolCalls ?? 0) + s.toolCalls;
  for (const turn of s.turns)
    if (!turn.failed && turn.cachedTokens !== null && turn.inputTokens !== null) {
      t.cachedTokens += Math.min(turn.cachedTokens, turn.inputTokens);
      t.inputTokens += turn.inputTokens;
    }
  if (s.cacheStop === "held") t.cacheHeld++;
  else if (s.cacheStop !== null) t.cacheStops++;
}

export type AgentSessionIds = z.infer<typeof agentSessionIdsSchema>;
export type AgentTurn = z.infer<typeof agentTurnSchema>;
export type AgentSession = z.infer<typeof agentSessionSchema>;
export type AgentSessionsPayload = z.infer<typeof agentSessionsPayloadSchema>;
export type AgentSessionTotals = z.infer<typeof agentSessionTotalsSchema>;
