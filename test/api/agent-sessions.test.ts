/**
 * Agent sessions (docs/metrics.md §Agent sessions) through POST /api/runs and the stored
 * payload, every expected number computed here from the uploaded files:
 * - Real: real-public/aiperf-0.8.0-sglang-glm5.1-agentic-conc16 (aiperf 0.8.0 records of an
 *   agentic replay: x_correlation_id, turn_index, agent_depth 0, no parent_correlation_id, no
 *   cached tokens), read by the line reader and by DuckDB natively.
 * - aiperf records of a sub-agent fork written as aiperf 0.8's MetricRecordMetadata serialises
 *   them (ai-dynamo/aiperf src/aiperf/common/models/record_models.py: `agent_depth`, and
 *   `parent_correlation_id` = the parent's x_correlation_id, omitted for a root).
 * - aiperf records of a user-centric run with two profiling phases, where aiperf reuses an
 *   x_correlation_id over several conversations, from test/generators/aiperf-user-centric.mjs
 *   (after ai-dynamo/aiperf src/aiperf/timing/strategies/user_centric_rate.py,
 *   src/aiperf/timing/conversation_source.py, src/aiperf/timing/phase/runner.py).
 * - A Dynamo request trace from test/generators/dynamo-request-trace.mjs, which follows
 *   ai-dynamo/dynamo lib/llm/src/request_trace/types.rs and agent_context.rs.
 */
import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { agentSessionsPayloadSchema, type AgentSessionsPayload } from "@/lib/api/agent-sessions";
import { AGENT_SESSIONS_CHART, upgradeStoredPayload } from "@/lib/api/chart-catalog";
import { hasAgentSessions } from "@/lib/api/run-views";
import { recordsReadLog } from "@/lib/ingest/analyzers/aiperf-native-ingest";
import { cacheStop } from "@/lib/metrics/agent-sessions";
import { sessionTree } from "@/lib/metrics/agent-session-rows";
import { aiperfUserCentric } from "../generators/aiperf-user-centric.mjs";
import { dynamoRequestTrace } from "../generators/dynamo-request-trace.mjs";
import { describeRealPublic, realPublicFile } from "../helpers/real-public";
import { readChart, readRun } from "../helpers/read-api";
import { freshAppEachTest, uploadRun } from "../helpers/test-app";

freshAppEachTest();

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- records and rows, read as JSON
type Row = Record<string, any>;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

async function sessionsOf(id: string): Promise<AgentSessionsPayload> {
  return agentSessionsPayloadSchema.parse(await readChart(id, AGENT_SESSIONS_CHART.key));
}

/** The cache stop as docs/metrics.md words it, written again here over plain rows. */
function expectedStop(turns: Array<{ turn: number; cached: number | null }>) {
  const known = turns.filter((t) => t.cached !== null);
  if (known.length < 2) return null;
  for (let i = 1; i < known.length; i++)
    if (known[i].cached! < known[i - 1].cached!)
      return {
        turn: known[i].turn,
        cachedTokens: known[i].cached,
        previousTurn: known[i - 1].turn,
        previousCachedTokens: known[i - 1].cached,
      };
  return "held";
}

const AGENTIC = "aiperf-0.8.0-sglang-glm5.1-agentic-conc16";

describeRealPublic(AGENTIC, () => {
  const before = process.env.RUNLENS_AIPERF_READ;
  afterEach(() => {
    if (before === undefined) delete process.env.RUNLENS_AIPERF_READ;
    else process.env.RUNLENS_AIPERF_READ = before;
  });

  for (const read of ["line reader", "native"] as const) {
    it(`aiperf 0.8.0 agentic records (${read}): sessions by x_correlation_id, turns, model time, absent fields named`, async () => {
      if (read === "native") process.env.RUNLENS_AIPERF_READ = "native";
      const file = realPublicFile(AGENTIC, "profile_export.jsonl");
      const records = fs
        .readFileSync(file, "utf8")
        .split("\n")
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as Row)
        .filter((r) => r.metadata.benchmark_phase !== "warmup");
      const bySession = new Map<string, Row[]>();
      for (const r of records) {
        const k = r.metadata.x_correlation_id as string;
        bySession.set(k, [...(bySession.get(k) ?? []), r]);
      }
      // The file's own shape: 18 sessions over 17 conversations (one conversation ran twice).
      expect(bySession.size).toBe(18);
      expect(new Set(records.map((r) => r.metadata.conversation_id)).size).toBe(17);
      expect(
        records.every((r) => r.metadata.agent_depth === 0 && !("parent_correlation_id" in r.metadata)),
      ).toBe(true);
      expect(records.some((r) => "usage_prompt_cache_read_tokens" in r.metrics)).toBe(false);

      const native = recordsReadLog.native;
      const id = await uploadRun([{ name: "profile_export.jsonl", path: file }]);
      expect(recordsReadLog.native - native, `read natively (${recordsReadLog.lastReason})`).toBe(
        read === "native" ? 1 : 0,
      );
      const run = await readRun(id);
      expect(run.info.agentSessions).toBe(18);
      expect(hasAgentSessions(run)).toBe(true);
      const p = await sessionsOf(id);
      expect(p.source).toBe("aiperf-records");
      expect(p.files).toEqual(["profile_export.jsonl"]);
      expect(p.omitted).toBe(0);
      expect(p.withoutSession).toBe(0);
      // The conversation that ran twice ran under two ids: two sessions, no id split.
      expect(p.sessionIds).toEqual({ by: "x_correlation_id", splitByConversation: [], splitCount: 0 });
      // agent_depth is written (0 everywhere): every session is a root, and that is known, not absent.
      expect(p.absent.parent).toBeNull();
      expect(p.absent.cached).toContain("profile_export.jsonl carries no usage_prompt_cache_read_tokens");
      expect(p.absent.tools).toContain("profile_export.jsonl records only model requests");
      expect(p.sessions.map((s) => s.id).sort()).toEqual([...bySession.keys()].sort());
      for (const s of p.sessions) {
        const mine = bySession.get(s.id)!.sort((a, b) => a.metadata.turn_index - b.metadata.turn_index);
        expect(s.parentId).toBeNull();
        expect(s.depth).toBe(0);
        expect(s.turns.map((t) => t.turn)).toEqual(mine.map((r) => r.metadata.turn_index));
        expect(s.turns.map((t) => t.ttftMs)).toEqual(mine.map((r) => r.metrics.time_to_first_token.value));
        expect(s.turns.map((t) => t.inputTokens)).toEqual(
          mine.map((r) => r.metrics.input_sequence_length.value),
        );
        expect(s.modelTimeMs).toBeCloseTo(sum(mine.map((r) => r.metrics.request_latency.value)), 6);
        // Not recorded is null, never 0.
        expect(s.turns.every((t) => t.cachedTokens === null)).toBe(true);
        expect([s.hitRate, s.cacheStop, s.toolTimeMs, s.toolCalls]).toEqual([null, null, null, null]);
      }
      // The total model time is the sum of every record's request_latency.
      expect(sum(p.sessions.map((s) => s.modelTimeMs!))).toBeCloseTo(
        sum(records.map((r) => r.metrics.request_latency.value)),
        4,
      );
    });
  }
});

/** aiperf 0.8 records of a root session that forks one sub-agent (record_models.py MetricRecordMetadata). */
function forkRecords(): { text: string; records: Row[] } {
  const t0 = 1780510000000000000n;
  const records: Row[] = [];
  const add = (
    corr: string,
    conv: string,
    turn: number,
    isl: number,
    cached: number,
    ttft: number,
    parent: string | null,
    depth: number,
  ) => {
    const start = t0 + BigInt(records.length) * 1_000_000_000n;
    records.push({
      metadata: {
        session_num: records.length,
        x_request_id: `req-${records.length}`,
        x_correlation_id: corr,
        conversation_id: conv,
        turn_index: turn,
        agent_depth: depth,
        ...(parent ? { parent_correlation_id: parent } : {}),
        request_start_ns: start,
        request_end_ns: start + 500_000_000n,
        worker_id: "worker_1",
        record_processor_id: "rp_1",
        benchmark_phase: "profiling",
        was_cancelled: false,
      },
      metrics: {
        time_to_first_token: { value: ttft, unit: "ms" },
        request_latency: { value: 500, unit: "ms" },
        input_sequence_length: { value: isl, unit: "tokens" },
        output_sequence_length: { value: 20, unit: "tokens" },
        usage_prompt_cache_read_tokens: { value: cached, unit: "tokens" },
      },
    });
  };
  // Root: the cached prefix grows, then shrinks at turn 3 (evicted), then grows again.
  add("root-a", "conv-a", 0, 1000, 0, 80, null, 0);
  add("root-a", "conv-a", 1, 1400, 992, 40, null, 0);
  add("root-a", "conv-a", 2, 1900, 1392, 45, null, 0);
  add("sub-b", "conv-b", 0, 600, 512, 30, "root-a", 1);
  add("sub-b", "conv-b", 1, 900, 608, 28, "root-a", 1);
  add("root-a", "conv-a", 3, 2500, 256, 160, null, 0);
  add("root-a", "conv-a", 4, 3000, 2496, 50, null, 0);
  const text = records
    .map((r) => JSON.stringify(r, (_k, v) => (typeof v === "bigint" ? Number(v) : v)))
    .join("\n");
  return { text: text + "\n", records };
}

describe("agent sessions: an x_correlation_id aiperf reused", () => {
  const before = process.env.RUNLENS_AIPERF_READ;
  afterEach(() => {
    if (before === undefined) delete process.env.RUNLENS_AIPERF_READ;
    else process.env.RUNLENS_AIPERF_READ = before;
  });

  for (const read of ["line reader", "native"] as const) {
    it(`(${read}) spans several conversations with repeated turn indices: split by conversation_id, and the view says so`, async () => {
      if (read === "native") process.env.RUNLENS_AIPERF_READ = "native";
      const { text, records } = aiperfUserCentric({ users: 3, turns: 3, phases: 2 });
      const profiling = records.filter((r) => r.metadata.benchmark_phase === "profiling");
      const id = await uploadRun([{ name: "uc/profile_export.jsonl", content: text }]);
      const p = await sessionsOf(id);
      // One session per (x_correlation_id, conversation_id) of the profiling records.
      const expected = new Map<string, Row[]>();
      for (const r of profiling) {
        const k = `${r.metadata.x_correlation_id}/${r.metadata.conversation_id}`;
        expected.set(k, [...(expected.get(k) ?? []), r]);
      }
      expect(expected.size).toBe(6);
      expect(p.sessionIds).toEqual({
        by: "x_correlation_id",
        splitByConversation: ["2", "3", "4"],
        splitCount: 3,
      });
      expect((await readRun(id)).info.agentSessions).toBe(6);
      expect(p.withoutSession).toBe(0);
      expect(p.sessions.map((s) => s.id)).toEqual([...expected.keys()]);
      for (const s of p.sessions) {
        const mine = expected.get(s.id)!;
        // Each session's turns run 0, 1, … once each: no turn of another conversation mixed in.
        expect(s.turns.map((t) => t.turn)).toEqual(mine.map((_, i) => i));
        expect(s.turns.map((t) => t.ttftMs)).toEqual(mine.map((r) => r.metrics.time_to_first_token.value));
        expect(s.turns.map((t) => t.cachedTokens)).toEqual(
          mine.map((r) => r.metrics.usage_prompt_cache_read_tokens.value),
        );
        expect(s.modelTimeMs).toBe(400 * mine.length);
        expect(s.cacheStop).toBe(mine.length < 2 ? null : "held");
        expect([s.parentId, s.depth]).toEqual([null, 0]);
      }
      // The tree: six roots, no sub-agents, no orphans.
      const tree = sessionTree(p.sessions);
      expect(tree.orphans).toBe(0);
      expect(tree.roots.map((r) => [r.session.id, r.children.length])).toEqual(
        [...expected.keys()].map((k) => [k, 0]),
      );
    });
  }

  it("a payload stored before sessionIds: a trace's is read as grouped by session_id, aiperf's is recomputed", () => {
    const v1 = (source: string) => ({
      source,
      files: ["f"],
      sessions: [],
      omitted: 0,
      withoutSession: 0,
      absent: { parent: null, cached: null, tools: null },
    });
    expect(upgradeStoredPayload(AGENT_SESSIONS_CHART, v1("dynamo-request-trace"), 1)).toMatchObject({
      payload: { sessionIds: { by: "agent_context.session_id", splitByConversation: [], splitCount: 0 } },
    });
    expect(upgradeStoredPayload(AGENT_SESSIONS_CHART, v1("aiperf-records"), 1)).toEqual({
      recompute: expect.stringContaining("x_correlation_id"),
    });
  });

  it("a payload stored before its totals: from its sessions when it left none out, else recomputed", () => {
    const turn = { turn: 0, inputTokens: 100, ttftMs: 10, cachedTokens: 40, modelMs: 50, failed: false };
    const session = (id: string, parentId: string | null) => ({
      id,
      parentId,
      depth: null,
      turns: [turn, { ...turn, turn: 1, cachedTokens: 80 }],
      modelTimeMs: 100,
      toolTimeMs: null,
      toolCalls: null,
      hitRate: 0.6,
      cacheStop: "held",
    });
    const v2 = (omitted: number) => ({
      source: "dynamo-request-trace",
      sessionIds: { by: "agent_context.session_id", splitByConversation: [], splitCount: 0 },
      files: ["f"],
      sessions: [session("a", null), session("b", "a")],
      omitted,
      withoutSession: 0,
      absent: { parent: null, cached: null, tools: null },
    });
    expect(upgradeStoredPayload(AGENT_SESSIONS_CHART, v2(0), 2)).toMatchObject({
      payload: {
        totals: { sessions: 2, roots: 1, turns: 4, modelTimeMs: 200, cachedTokens: 240, inputTokens: 400 },
      },
    });
    expect(upgradeStoredPayload(AGENT_SESSIONS_CHART, v2(3), 2)).toEqual({
      recompute: expect.stringContaining("every session"),
    });
  });

  it("x_correlation_ids each on one conversation are not split", async () => {
    const { text } = forkRecords();
    const id = await uploadRun([{ name: "run/profile_export.jsonl", content: text }]);
    const p = await sessionsOf(id);
    expect(p.sessionIds).toEqual({ by: "x_correlation_id", splitByConversation: [], splitCount: 0 });
    expect(p.sessions.map((s) => s.id)).toEqual(["root-a", "sub-b"]);
  });
});

describe("agent sessions", () => {
  it("aiperf sub-agent fork: parent_correlation_id makes the tree; the cache stop is the turn the cached prefix shrank", async () => {
    const { text, records } = forkRecords();
    const id = await uploadRun([{ name: "run/profile_export.jsonl", content: text }]);
    const p = await sessionsOf(id);
    expect(p.absent).toEqual({
      parent: null,
      cached: null,
      tools: "run/profile_export.jsonl records only model requests: aiperf writes no tool time",
    });
    const root = p.sessions.find((s) => s.id === "root-a")!;
    const sub = p.sessions.find((s) => s.id === "sub-b")!;
    expect(sub).toMatchObject({ parentId: "root-a", depth: 1 });
    expect(root).toMatchObject({ parentId: null, depth: 0 });
    for (const s of [root, sub]) {
      const mine = records.filter((r) => r.metadata.x_correlation_id === s.id);
      const cached = mine.map((r) => r.metrics.usage_prompt_cache_read_tokens.value as number);
      const isl = mine.map((r) => r.metrics.input_sequence_length.value as number);
      expect(s.hitRate).toBeCloseTo(sum(cached) / sum(isl), 12);
      expect(s.cacheStop).toEqual(
        expectedStop(mine.map((r, i) => ({ turn: r.metadata.turn_index, cached: cached[i] }))),
      );
      expect(s.modelTimeMs).toBe(500 * mine.length);
    }
    expect(root.cacheStop).toEqual({
      turn: 3,
      cachedTokens: 256,
      previousTurn: 2,
      previousCachedTokens: 1392,
    });
    expect(sub.cacheStop).toBe("held");
    const { roots } = sessionTree(p.sessions);
    expect(roots.map((r) => [r.session.id, r.children.map((c) => c.session.id)])).toEqual([
      ["root-a", ["sub-b"]],
    ]);
  });

  it("aiperf records before 0.8 (no agent_depth): the file that lacks the parents is named", async () => {
    const { text } = forkRecords();
    const old = text.replace(/"agent_depth":\d+,/g, "").replace(/"parent_correlation_id":"[^"]*",/g, "");
    const id = await uploadRun([{ name: "old/profile_export.jsonl", content: old }]);
    const p = await sessionsOf(id);
    expect(p.absent.parent).toBe(
      "old/profile_export.jsonl carries no agent_depth or parent_correlation_id (aiperf writes them from 0.8 on): every session is shown as a root",
    );
    expect(p.sessions.every((s) => s.parentId === null && s.depth === null)).toBe(true);
  });

  it("Dynamo request trace: session tree from agent_context, turns by receive time, tool time from tool_end rows", async () => {
    const { text, rows } = dynamoRequestTrace({ requests: 40, turns: 5, subagentEvery: 3, seed: 11 });
    const id = await uploadRun([{ name: "dynamo-request-trace.jsonl", content: text }]);
    const run = await readRun(id);
    const p = await sessionsOf(id);
    const ends = (rows as Row[]).filter((r) => r.event_type === "request_end");
    const tools = (rows as Row[]).filter((r) => r.event_type === "tool_end");
    const ids = [...new Set(ends.map((r) => r.agent_context.session_id as string))];
    expect(run.info.agentSessions).toBe(ids.length);
    expect(p).toMatchObject({
      source: "dynamo-request-trace",
      files: ["dynamo-request-trace.jsonl"],
      omitted: 0,
    });
    expect(p.absent).toEqual({ parent: null, cached: null, tools: null });
    expect(p.sessionIds).toEqual({ by: "agent_context.session_id", splitByConversation: [], splitCount: 0 });
    expect(p.sessions.map((s) => s.id)).toEqual(ids);
    const children = ends.filter((r) => r.agent_context.parent_session_id);
    expect(children.length).toBeGreaterThan(0);
    for (const s of p.sessions) {
      const mine = ends
        .filter((r) => r.agent_context.session_id === s.id)
        .sort((a, b) => a.request.request_received_ms - b.request.request_received_ms);
      const q = mine.map((r) => r.request);
      expect(s.parentId).toBe(mine[0].agent_context.parent_session_id ?? null);
      expect(s.depth).toBeNull();
      expect(s.turns.map((t) => [t.turn, t.ttftMs, t.inputTokens, t.cachedTokens])).toEqual(
        q.map((r, i) => [i, r.ttft_ms, r.input_tokens, r.cached_tokens]),
      );
      expect(s.modelTimeMs).toBeCloseTo(sum(q.map((r) => r.total_time_ms)), 9);
      const myTools = tools.filter((r) => r.agent_context.session_id === s.id);
      expect(s.toolCalls).toBe(myTools.length);
      expect(s.toolTimeMs).toBe(sum(myTools.map((r) => r.tool.duration_ms)));
      expect(s.hitRate).toBeCloseTo(
        sum(q.map((r) => r.cached_tokens)) / sum(q.map((r) => r.input_tokens)),
        12,
      );
      expect(s.cacheStop).toEqual(expectedStop(q.map((r, i) => ({ turn: i, cached: r.cached_tokens }))));
    }
    // The generator's random hit rates make the cached prefix shrink somewhere.
    expect(p.sessions.some((s) => s.cacheStop !== null && s.cacheStop !== "held")).toBe(true);
    const { roots } = sessionTree(p.sessions);
    expect(roots.length).toBe(p.sessions.filter((s) => s.parentId === null).length);
    expect(sum(roots.map((r) => r.children.length))).toBe(p.sessions.length - roots.length);
  });

  it("a Dynamo trace without agent_context or tool rows stores no sessions; the view is disabled", async () => {
    const { text } = dynamoRequestTrace({ requests: 6, plain: 6 });
    const plainOnly = text
      .split("\n")
      .filter((l) => !l.includes('"tool_'))
      .join("\n");
    const id = await uploadRun([{ name: "dynamo-request-trace.jsonl", content: plainOnly }]);
    const run = await readRun(id);
    expect(run.info.agentSessions).toBeUndefined();
    expect(hasAgentSessions(run)).toBe(false);
  });

  it("cache stop and tree rules on edge cases", () => {
    const t = (turn: number, cachedTokens: number | null, failed = false) => ({
      turn,
      inputTokens: 1000,
      ttftMs: 1,
      cachedTokens,
      modelMs: 1,
      failed,
    });
    expect(cacheStop([t(0, 0)])).toBeNull();
    expect(cacheStop([t(0, 0), t(1, 512), t(2, 512)])).toBe("held");
    // A failed turn (no usage) and a turn without cached tokens are passed over, not read as 0.
    expect(cacheStop([t(0, 0), t(1, 512), t(2, null), t(3, 0, true), t(4, 768)])).toBe("held");
    expect(cacheStop([t(2, 900), t(0, 0), t(1, 1000)])).toEqual({
      turn: 2,
      cachedTokens: 900,
      previousTurn: 1,
      previousCachedTokens: 1000,
    });
    const s = (id: string, parentId: string | null) => ({
      id,
      parentId,
      depth: null,
      turns: [],
      modelTimeMs: null,
      toolTimeMs: null,
      toolCalls: null,
      hitRate: null,
      cacheStop: null,
    });
    const tree = sessionTree([
      s("a", null),
      s("b", "a"),
      s("c", "b"),
      s("d", "gone"),
      s("x", "y"),
      s("y", "x"),
    ]);
    expect(tree.orphans).toBe(1);
    const flat = (ns: typeof tree.roots): string[] =>
      ns.flatMap((n) => [`${n.session.id}@${n.level}`, ...flat(n.children)]);
    // A parent cycle has no root: its sessions are drawn once each.
    expect(flat(tree.roots).sort()).toEqual(["a@0", "b@1", "c@2", "d@0", "x@0", "y@1"].sort());
  });
});
