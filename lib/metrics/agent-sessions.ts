/**
 * Agent sessions of an agentic run (docs/metrics.md §Agent sessions): the session tree (root
 * sessions and the sub-agent sessions they spawned), each session's turns with TTFT against the
 * prompt's input tokens, its model time and tool time, its hit rate, and the turn where the cache
 * stopped hitting.
 *
 * Two sources. aiperf's per-request records (MetricRecordMetadata in ai-dynamo/aiperf
 * `src/aiperf/common/models/record_models.py`): a session is one `x_correlation_id` (shared by a
 * session's turns), its parent the `parent_correlation_id` a sub-agent fork writes (the parent's
 * x_correlation_id, omitted for a root), its depth `agent_depth`; a turn is `turn_index`. aiperf
reuses an x_correlation_id over several conversations (ConversationSource.next takes the id from
its caller; the user-centric strategy, `src/aiperf/timing/strategies/user_centric_rate.py`, names a
session by its user number, `x_correlation_id=str(user_id)`, counted from 1 by each strategy): an
id whose records span several conversation_ids with a turn index repeated is split by
conversation_id, and the payload says so (`sessionIds`). A Dynamo
 * request trace: a session is `agent_context.session_id`, its parent `parent_session_id`, its
 * tools the harness's `tool_end` rows. Nothing here is guessed: a field the files lack is null
 * and `absent` names the file that lacks it.
 */
import {
  addToTotals,
  agentSessionTotals,
  emptyTotals,
  SESSION_PAGE_CHARS,
  SESSIONS_PAYLOAD_CHARS,
  SPLIT_NAMED,
  type AgentSession,
  type AgentSessionsPayload,
  type AgentTurn,
} from "@/lib/api/agent-sessions";
import type { DynamoTrace } from "@/lib/formats/dynamo-request-trace";
import { FLAG_CANCELLED, FLAG_ERROR, FLAG_WARMUP, type RequestLog } from "./requests-log";
import type { ConversationIndex, TurnColumns } from "./conversation-turns";
import { ChunkedColumn } from "./chunked-column";
import { IdTable } from "./id-table";

/** Sessions kept in the payload; past this many, the ones with the fewest turns are left out. */
export const MAX_SESSIONS = 500;
/** Turns kept in the payload over all its sessions (a session's turns are kept whole or not at all). */
export const MAX_TURNS = 20_000;

const NO_SESSION = -1;

/**
 * Each logged aiperf record's session, indexed like the run's RequestLog, and each session's
 * lineage. One Int32 per record; per session, its id in an IdTable (no Map or array of id
 * strings), its parent's number in another and its depth, in typed columns.
 */
export class AgentSessionColumns {
  length = 0;
  /** Chunked while the read fills it (docs/performance.md §Ingest memory of an aiperf upload) */
  private sessionStore = new ChunkedColumn(Int32Array);
  /** Session ids, numbered by slot (0, 1, … in order of first sight) */
  private idTable = new IdTable();
  /** Parent session ids, each by its number in `parentTable` */
  private parentTable = new IdTable();
  /** Each slot's parent's number in `parentTable`, NO_SESSION when none was written */
  private parentStore = new ChunkedColumn(Int32Array);
  /** Each slot's agent_depth, NaN when none was written */
  private depthStore = new ChunkedColumn(Float64Array);
  /** Whether any record wrote agent_depth or parent_correlation_id (aiperf 0.8 and later) */
  lineageWritten = false;

  constructor(private readonly max = 200_000) {}

  /** Each record's session slot (NO_SESSION for none), as one exact typed array. */
  get session(): Int32Array {
    return this.sessionStore.array();
  }

  /** Sessions held */
  get sessionCount(): number {
    return this.idTable.size;
  }

  /** The session id of a slot */
  idOf(slot: number): string | undefined {
    return this.idTable.text(slot);
  }

  /** The parent session id of a slot, null when none was written */
  parentOf(slot: number): string | null {
    const p = this.parentStore.get(slot);
    return p === NO_SESSION ? null : this.parentTable.text(p)!;
  }

  /** The agent_depth of a slot, null when none was written */
  depthOf(slot: number): number | null {
    const d = this.depthStore.get(slot);
    return Number.isNaN(d) ? null : d;
  }

  /** Makes the per-record column one exact array (docs/performance.md §Ingest memory of an aiperf upload). */
  compact(): void {
    void this.session;
  }

  /** Forgets every record and session once the session tree is made: the columns and the ids. */
  release(): void {
    this.length = 0;
    this.sessionStore.release();
    this.idTable.clear();
    this.parentTable.clear();
    this.parentStore.release();
    this.depthStore.release();
  }

  /** Sessions remembered and bytes of the per-record column, for the memory tests. */
  get held(): { ids: number; bytes: number } {
    return { ids: this.idTable.size, bytes: this.sessionStore.bytes };
  }

  /** Bytes of the per-session structures (ids, parents, depths), for the memory tests. */
  get sessionBytes(): number {
    return this.idTable.bytes + this.parentTable.bytes + this.parentStore.bytes + this.depthStore.bytes;
  }

  private parentNumber(parentId: string): number {
    const known = this.parentTable.find(parentId);
    return known >= 0 ? known : this.parentTable.add(parentId);
  }

  /** One record: its session id (x_correlation_id, else the conversation), parent and depth. */
  add(sessionId: string | null, parentId: string | null, depth: number | null): void {
    if (depth !== null || parentId !== null) this.lineageWritten = true;
    let slot = sessionId === null ? NO_SESSION : this.idTable.find(sessionId);
    if (sessionId !== null && slot === NO_SESSION && this.idTable.size < this.max) {
      slot = this.idTable.add(sessionId);
      this.parentStore.push(parentId === null ? NO_SESSION : this.parentNumber(parentId));
      this.depthStore.push(depth ?? NaN);
    } else if (slot !== NO_SESSION) {
      if (parentId !== null && this.parentStore.get(slot) === NO_SESSION)
        this.parentStore.set(slot, this.parentNumber(parentId));
      if (depth !== null && Number.isNaN(this.depthStore.get(slot))) this.depthStore.set(slot, depth);
    }
    this.sessionStore.push(slot);
    this.length++;
  }
}

interface SessionAcc {
  id: string;
  parentId: string | null;
  depth: number | null;
  turns: AgentTurn[];
  toolTimeMs: number | null;
  toolCalls: number;
}

const num = (v: number): number | null => (Number.isFinite(v) ? v : null);

/**
 * The first turn whose cached prompt tokens fell below the previous turn's (turns in order, only
 * those that carry cached tokens and did not fail): the prefix served from cache shrank while the
 * history only grew. "held" when it never fell over two or more such turns; null with fewer.
 */
export function cacheStop(turns: AgentTurn[]): AgentSession["cacheStop"] {
  const known = turns.filter((t) => !t.failed && t.cachedTokens !== null).sort((a, b) => a.turn - b.turn);
  if (known.length < 2) return null;
  for (let i = 1; i < known.length; i++) {
    if (known[i].cachedTokens! < known[i - 1].cachedTokens!)
      return {
        turn: known[i].turn,
        cachedTokens: known[i].cachedTokens!,
        previousTurn: known[i - 1].turn,
        previousCachedTokens: known[i - 1].cachedTokens!,
      };
  }
  return "held";
}

function finishSession(s: SessionAcc, toolsRecorded: boolean): AgentSession {
  const turns = [...s.turns].sort((a, b) => a.turn - b.turn);
  let model: number | null = null;
  let cached = 0;
  let input = 0;
  let both = 0;
  for (const t of turns) {
    if (t.modelMs !== null) model = (model ?? 0) + t.modelMs;
    if (!t.failed && t.cachedTokens !== null && t.inputTokens !== null) {
      cached += Math.min(t.cachedTokens, t.inputTokens);
      input += t.inputTokens;
      both++;
    }
  }
  return {
    id: s.id,
    parentId: s.parentId,
    depth: s.depth,
    turns,
    modelTimeMs: model,
    toolTimeMs: toolsRecorded ? (s.toolCalls > 0 ? s.toolTimeMs : 0) : null,
    toolCalls: toolsRecorded ? s.toolCalls : null,
    hitRate: both > 0 && input > 0 ? cached / input : null,
    cacheStop: cacheStop(turns),
  };
}

/**
 * Which sessions the payload keeps: at most MAX_SESSIONS sessions, MAX_TURNS turns and
 * SESSIONS_PAYLOAD_CHARS of JSON in all, dropping the sessions with the fewest turns first, from
 * each session's turn count and JSON length. Every session is stored in pages besides
 * (`SessionPager`).
 */
function keptSessions(turnCounts: Int32Array, chars: Float64Array): Uint8Array {
  const count = turnCounts.length;
  const keep = new Uint8Array(count);
  let kept = 0;
  let turns = 0;
  let text = 0;
  const order = Int32Array.from({ length: count }, (_, i) => i).sort(
    (a, b) => turnCounts[b] - turnCounts[a] || a - b,
  );
  for (const i of order) {
    if (kept === MAX_SESSIONS) break;
    const n = turnCounts[i];
    if (turns + n > MAX_TURNS || text + chars[i] > SESSIONS_PAYLOAD_CHARS) continue;
    keep[i] = 1;
    kept++;
    turns += n;
    text += chars[i];
  }
  return keep;
}

/** The kept sessions and how many were left out (`keptSessions`), the kept ones in their order. */
function capped(all: AgentSession[]): { sessions: AgentSession[]; omitted: number } {
  const keep = keptSessions(
    Int32Array.from(all, (s) => s.turns.length),
    Float64Array.from(all, (s) => JSON.stringify(s).length),
  );
  const sessions = all.filter((_, i) => keep[i] === 1);
  return { sessions, omitted: all.length - sessions.length };
}

/**
 * Every session in pages of consecutive sessions, some SESSION_PAGE_CHARS of JSON each (one at
 * least), each page made JSON text (`{"sessions":[…]}`, exactly `JSON.stringify` of the page) as
 * soon as it is full and handed to `made` (which may pack it): the sessions are handed over one at
 * a time as their JSON and none is held.
 */
export class SessionPager<P = string> {
  readonly pages: P[] = [];
  private parts: string[] = [];
  private text = 0;

  constructor(private readonly made: (text: string) => P = (text) => text as P) {}

  /** One session's JSON (`JSON.stringify` of it) */
  add(json: string): void {
    if (this.text + json.length > SESSION_PAGE_CHARS && this.parts.length > 0) this.close();
    this.parts.push(json);
    this.text += json.length;
  }

  /** Every page (one page, empty, when no session came) */
  done(): P[] {
    if (this.parts.length > 0 || this.pages.length === 0) this.close();
    return this.pages;
  }

  private close(): void {
    this.pages.push(this.made(`{"sessions":[${this.parts.join(",")}]}`));
    this.parts = [];
    this.text = 0;
  }
}

/** Every session's pages as JSON text (`SessionPager`). */
export function sessionPages(all: readonly AgentSession[]): string[] {
  const pager = new SessionPager();
  for (const s of all) pager.add(JSON.stringify(s));
  return pager.done();
}

/**
 * A run's agent sessions: the payload (the longest few), how many sessions in all, and every
 * session in pages (each page's JSON text, or what `made` packed it as), the sessions themselves
 * let go as their page is made.
 */
export interface AgentSessionsBuilt<P = string> {
  payload: AgentSessionsPayload;
  count: number;
  pages: P[];
}

/**
 * The sessions (x_correlation_ids, by slot) that aiperf reused: their profiling records span more
 * than one conversation and repeat a turn index. One id, one conversation is one session however
 * its turns run; several conversations with distinct turn indices are left as one session too.
 */
export function reusedSessions(
  log: RequestLog,
  turns: TurnColumns,
  sessions: AgentSessionColumns,
): Set<number> {
  const firstConv = new Map<number, number>();
  const manyConvs = new Set<number>();
  const seen = new Map<number, Set<number>>();
  const repeated = new Set<number>();
  for (let i = 0; i < log.length && i < sessions.length; i++) {
    if (log.flags[i] & FLAG_WARMUP) continue;
    const slot = sessions.session[i];
    const turn = turns.turn[i];
    if (slot === NO_SESSION || turn < 0) continue;
    const conv = turns.conv[i];
    const first = firstConv.get(slot);
    if (first === undefined) firstConv.set(slot, conv);
    else if (first !== conv) manyConvs.add(slot);
    let t = seen.get(slot);
    if (!t) seen.set(slot, (t = new Set()));
    if (t.has(turn)) repeated.add(slot);
    else t.add(turn);
  }
  return new Set([...manyConvs].filter((slot) => repeated.has(slot)));
}

/**
 * Sessions from aiperf's profiling records (warm-up left out): one per x_correlation_id, or per
 * x_correlation_id and conversation_id where aiperf reused the id (`reusedSessions`). Null when no
 * session has more than one turn: a single-turn run has no sessions to show. The records are
 * ordered by session in one typed array and each session is made, paged and let go in turn: no
 * more than one session's turns are objects at a time (a page's JSON and the kept few aside).
 */
export function agentSessionsFromRecords<P = string>(
  log: RequestLog,
  turns: TurnColumns,
  sessions: AgentSessionColumns,
  conversations: ConversationIndex,
  files: string[],
  /** What each page's JSON text is kept as until it is stored: the text itself by default */
  made?: (text: string) => P,
): AgentSessionsBuilt<P> | null {
  const reused = reusedSessions(log, turns, sessions);
  const n = Math.min(log.length, sessions.length);
  const slots = sessions.session;
  const turnOf = turns.turn;
  const convOf = turns.conv;
  // Each record's session number, in order of first sight (-1: warm-up or no session).
  const keyOf = new Int32Array(n).fill(-1);
  const keyOfSlot = new Int32Array(sessions.sessionCount).fill(-1);
  const splitKeys = new Map<string, number>();
  const sizes: number[] = [];
  const firstRecord: number[] = [];
  let withoutSession = 0;
  let anyCached = false;
  for (let i = 0; i < n; i++) {
    if (log.flags[i] & FLAG_WARMUP) continue;
    const slot = slots[i];
    if (slot === NO_SESSION || turnOf[i] < 0) {
      withoutSession++;
      continue;
    }
    let k: number;
    if (reused.has(slot)) {
      const key = `${slot}:${convOf[i]}`;
      k = splitKeys.get(key) ?? -1;
      if (k < 0) splitKeys.set(key, (k = sizes.length));
    } else {
      k = keyOfSlot[slot];
      if (k < 0) keyOfSlot[slot] = k = sizes.length;
    }
    if (k === sizes.length) {
      sizes.push(0);
      firstRecord.push(i);
    }
    sizes[k]++;
    keyOf[i] = k;
    if (num(turns.cached[i]) !== null) anyCached = true;
  }
  splitKeys.clear();
  const count = sizes.length;
  if (!sizes.some((size) => size > 1)) return null;
  // The records of each session, in record order (a counting sort by session number).
  const start = new Int32Array(count + 1);
  for (let k = 0; k < count; k++) start[k + 1] = start[k] + sizes[k];
  const next = start.slice(0, count);
  const order = new Int32Array(start[count]);
  for (let i = 0; i < n; i++) if (keyOf[i] >= 0) order[next[keyOf[i]]++] = i;
  const c = log.cols;
  const session = (k: number): AgentSession => {
    const first = firstRecord[k];
    const slot = slots[first];
    const s: SessionAcc = {
      id: reused.has(slot)
        ? `${sessions.idOf(slot)}/${conversations.id(convOf[first]) ?? "?"}`
        : sessions.idOf(slot)!,
      parentId: sessions.parentOf(slot),
      depth: sessions.depthOf(slot),
      turns: [],
      toolTimeMs: null,
      toolCalls: 0,
    };
    for (let j = start[k]; j < start[k + 1]; j++) {
      const i = order[j];
      s.turns.push({
        turn: turnOf[i],
        inputTokens: num(c.inputTokens[i]),
        ttftMs: num(c.ttftMs[i]),
        cachedTokens: num(turns.cached[i]),
        modelMs: num(c.e2eMs[i]),
        failed: (log.flags[i] & (FLAG_ERROR | FLAG_CANCELLED)) !== 0,
      });
    }
    return finishSession(s, false);
  };
  const pager = new SessionPager<P>(made);
  const totals = emptyTotals(count);
  const turnCounts = new Int32Array(count);
  const chars = new Float64Array(count);
  for (let k = 0; k < count; k++) {
    const s = session(k);
    const json = JSON.stringify(s);
    pager.add(json);
    addToTotals(totals, s);
    turnCounts[k] = s.turns.length;
    chars[k] = json.length;
  }
  const keep = keptSessions(turnCounts, chars);
  const kept: AgentSession[] = [];
  for (let k = 0; k < count; k++) if (keep[k] === 1) kept.push(session(k));
  const named = files.length > 0 ? files.join(", ") : "profile_export.jsonl";
  const splitIds = [...reused].map((slot) => sessions.idOf(slot)!);
  const payload: AgentSessionsPayload = {
    source: "aiperf-records",
    sessionIds: {
      by: "x_correlation_id",
      splitByConversation: splitIds.slice(0, SPLIT_NAMED),
      splitCount: splitIds.length,
    },
    files,
    sessions: kept,
    omitted: count - kept.length,
    totals,
    withoutSession,
    absent: {
      parent: sessions.lineageWritten
        ? null
        : `${named} carries no agent_depth or parent_correlation_id (aiperf writes them from 0.8 on): every session is shown as a root`,
      cached: anyCached
        ? null
        : `${named} carries no usage_prompt_cache_read_tokens (the server returned no usage.prompt_tokens_details.cached_tokens)`,
      tools: `${named} records only model requests: aiperf writes no tool time`,
    },
  };
  return { payload, count, pages: pager.done() };
}

/** Sessions from a Dynamo request trace's agent_context; null when no row carries one. */
export function agentSessionsFromTrace(trace: DynamoTrace, files: string[]): AgentSessionsBuilt | null {
  const acc = new Map<string, SessionAcc & { order: Array<{ at: number; line: number; t: AgentTurn }> }>();
  const session = (id: string, parentId: string | null) => {
    let s = acc.get(id);
    if (!s) {
      s = { id, parentId, depth: null, turns: [], toolTimeMs: null, toolCalls: 0, order: [] };
      acc.set(id, s);
    }
    if (s.parentId === null && parentId !== null) s.parentId = parentId;
    return s;
  };
  let withoutSession = 0;
  let anyCached = false;
  for (const r of trace.requests) {
    if (r.sessionId === null) {
      withoutSession++;
      continue;
    }
    const s = session(r.sessionId, r.parentSessionId);
    if (r.cachedTokens !== null) anyCached = true;
    // Dynamo writes no turn index: a request's turn is its place in the session by receive time.
    const at = r.receivedMs ?? r.eventTimeMs - (r.totalTimeMs ?? 0);
    s.order.push({
      at,
      line: r.lineNo,
      t: {
        turn: 0,
        inputTokens: r.inputTokens,
        ttftMs: r.ttftMs,
        cachedTokens: r.cachedTokens,
        modelMs: r.totalTimeMs,
        failed: false,
      },
    });
  }
  for (const t of trace.tools) {
    if (t.sessionId === null) continue;
    const s = session(t.sessionId, t.parentSessionId);
    s.toolCalls++;
    if (t.durationMs !== null) s.toolTimeMs = (s.toolTimeMs ?? 0) + t.durationMs;
  }
  if (acc.size === 0) return null;
  for (const s of acc.values()) {
    s.order.sort((a, b) => a.at - b.at || a.line - b.line);
    s.turns = s.order.map((o, i) => ({ ...o.t, turn: i }));
  }
  const named = files.length > 0 ? files.join(", ") : "the request trace";
  const toolsRecorded = trace.tools.length > 0;
  const finished = [...acc.values()].map((s) => finishSession(s, toolsRecorded));
  const { sessions, omitted } = capped(finished);
  const payload: AgentSessionsPayload = {
    source: "dynamo-request-trace",
    sessionIds: { by: "agent_context.session_id", splitByConversation: [], splitCount: 0 },
    files,
    sessions,
    omitted,
    totals: agentSessionTotals(finished),
    withoutSession,
    absent: {
      parent: null,
      cached: anyCached ? null : `${named} carries no request.cached_tokens`,
      tools: toolsRecorded
        ? null
        : `${named} has no tool_end rows (the agent harness writes them, event_source "harness")`,
    },
  };
  return { payload, count: finished.length, pages: sessionPages(finished) };
}
