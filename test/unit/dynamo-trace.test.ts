/**
 * Dynamo request traces (docs/formats.md §Dynamo request traces, docs/metrics.md §Dynamo request
 * traces). Rows follow Dynamo's own serialisation, ai-dynamo/dynamo
 * `lib/llm/src/request_trace/types.rs` (`RequestTraceRecord`, `RequestTraceMetrics`,
 * `RequestTraceToolEvent`), written by test/generators/dynamo-request-trace.mjs. Every expected
 * number is computed here from the generated rows.
 */
import { Readable } from "node:stream";
import { createGunzip, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { detectKind } from "@/lib/formats/detect";
import { parseDynamoTraceLine, readDynamoTrace } from "@/lib/formats/dynamo-request-trace";
import { dynamoTraceFigures, dynamoTraceRequestsBlock, joinByRequestId } from "@/lib/metrics/dynamo-trace";
import { dynamoRequestTrace } from "../generators/dynamo-request-trace.mjs";
import { pct } from "../helpers/numpy-percentile";

const MAX = 64 * 1024 * 1024;
const read = (text: string) => readDynamoTrace(Readable.from([Buffer.from(text)]), MAX);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- generated rows, read as JSON
type Row = Record<string, any>;
const ends = (rows: Row[]) => rows.filter((r) => r.event_type === "request_end");
const toolEnds = (rows: Row[]) => rows.filter((r) => r.event_type === "tool_end");
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe("Dynamo request trace reader", () => {
  it("is recognised by its content, plain and after decompression", () => {
    const { text } = dynamoRequestTrace({ requests: 5 });
    const buf = Buffer.from(text);
    expect(detectKind(buf, true)).toEqual({ kind: "dynamo-request-trace", format: "jsonl" });
    // One huge first row (thousands of replay hashes) that outgrows the head is still recognised.
    const row = JSON.parse(text.split("\n")[0]);
    row.request.replay.input_sequence_hashes = Array.from({ length: 200_000 }, (_, i) => 1e15 + i);
    const big = Buffer.from(JSON.stringify(row) + "\n");
    expect(detectKind(big.subarray(0, 1 << 20), false).kind).toBe("dynamo-request-trace");
  });

  it("reads request_end and tool_end rows, skips malformed lines with their numbers", async () => {
    const { text, rows, badLines } = dynamoRequestTrace({ requests: 24, bad: 3, plain: 2 });
    const { trace, warnings, skipped } = await read(text);
    expect(trace.requests).toHaveLength(ends(rows).length);
    expect(trace.tools).toHaveLength(toolEnds(rows).length);
    expect(trace.otherEvents).toEqual({
      tool_start: rows.filter((r) => r.event_type === "tool_start").length,
    });
    expect(skipped).toBe(3);
    expect(
      warnings
        .toList()
        .map((w) => w.line)
        .filter((l) => l !== undefined),
    ).toEqual(badLines);
    const first = ends(rows)[0].request;
    expect(trace.requests[0]).toMatchObject({
      requestId: first.request_id,
      xRequestId: first.x_request_id,
      inputTokens: first.input_tokens,
      outputTokens: first.output_tokens,
      cachedTokens: first.cached_tokens,
      kvHitRate: first.kv_hit_rate,
      ttftMs: first.ttft_ms,
      totalTimeMs: first.total_time_ms,
      sessionId: null,
      model: null,
    });
    const agent = ends(rows)[2];
    expect(trace.requests[2].sessionId).toBe(agent.agent_context.session_id);
    const tool = toolEnds(rows)[0].tool;
    expect(trace.tools[0]).toMatchObject({ toolCallId: tool.tool_call_id, durationMs: tool.duration_ms });
  });

  it("reads a .jsonl.gz trace as the upload hands it over (decompressed)", async () => {
    const { text, rows } = dynamoRequestTrace({ requests: 12 });
    const gz = gzipSync(Buffer.from(text));
    const { trace, skipped } = await readDynamoTrace(Readable.from([gz]).pipe(createGunzip()), MAX);
    expect(skipped).toBe(0);
    expect(trace.requests.map((r) => r.xRequestId)).toEqual(ends(rows).map((r) => r.request.x_request_id));
  });

  it("reads agent_context.trajectory_id (newer Dynamo) as the session", () => {
    const row = parseDynamoTraceLine(
      {
        schema: "dynamo.request.trace.v1",
        event_type: "request_end",
        event_time_unix_ms: 1777312801000,
        agent_context: { trajectory_id: "run-42:researcher", parent_trajectory_id: "run-42:planner" },
        request: { request_id: "r", x_request_id: "x", total_time_ms: 1000 },
      },
      () => {},
    );
    expect(
      typeof row !== "string" && row.kind === "request" && [row.r.sessionId, row.r.parentSessionId],
    ).toEqual(["run-42:researcher", "run-42:planner"]);
  });

  it("a value Dynamo did not write is null, never 0", async () => {
    const line = JSON.stringify({
      schema: "dynamo.request.trace.v1",
      event_type: "request_end",
      event_time_unix_ms: 1100,
      request: {
        request_id: "r",
        request_received_ms: 1000,
        output_tokens: 4,
        replay: { trace_block_size: 2, input_length: 4, input_sequence_hashes: [1, 2] },
      },
    });
    const { trace } = await read(line + "\n");
    expect(trace.requests[0]).toMatchObject({
      inputTokens: null,
      cachedTokens: null,
      kvHitRate: null,
      ttftMs: null,
      xRequestId: null,
    });
    const f = dynamoTraceFigures(trace);
    expect(f).toMatchObject({
      inputTokens: null,
      cachedTokens: null,
      kvHitRateRequestWeighted: null,
      kvHitRateTokenWeighted: null,
      sessions: 0,
      toolTimeMs: null,
    });
    expect(dynamoTraceRequestsBlock(trace).ttftMs).toBeNull();
  });
});

describe("Dynamo request trace figures", () => {
  it("counts, statistics, both KV hit rates, sessions and tool against model time", async () => {
    const { text, rows } = dynamoRequestTrace({ requests: 40, plain: 3, turns: 4 });
    const { trace } = await read(text);
    const f = dynamoTraceFigures(trace);
    const req = ends(rows).map((r) => r.request);
    expect(f.requests).toBe(req.length);
    expect(f.inputTokens).toBe(sum(req.map((r) => r.input_tokens)));
    expect(f.outputTokens).toBe(sum(req.map((r) => r.output_tokens)));
    expect(f.cachedTokens).toBe(sum(req.map((r) => r.cached_tokens)));
    expect(f.kvHitRateRequestWeighted).toBeCloseTo(sum(req.map((r) => r.kv_hit_rate)) / req.length, 12);
    expect(f.kvHitRateTokenWeighted).toBeCloseTo(
      sum(req.map((r) => r.kv_hit_rate * r.input_tokens)) / sum(req.map((r) => r.input_tokens)),
      12,
    );
    expect(f.cachedTokenShare).toBeCloseTo(f.cachedTokens! / f.inputTokens!, 12);
    const agentRows = ends(rows).filter((r) => r.agent_context);
    const sessionIds = new Set(agentRows.map((r) => r.agent_context.session_id));
    expect(f.sessions).toBe(sessionIds.size);
    expect(f.rootSessions).toBe(
      new Set(
        agentRows.filter((r) => !r.agent_context.parent_session_id).map((r) => r.agent_context.session_id),
      ).size,
    );
    expect(f.rootSessions).toBeLessThan(f.sessions);
    expect(f.turns).toBe(agentRows.length);
    const tools = toolEnds(rows);
    expect(f.toolCalls).toBe(tools.length);
    expect(f.toolTimeMs).toBe(sum(tools.map((r) => r.tool.duration_ms)));
    const toolSessions = new Set(tools.map((r) => r.agent_context.session_id));
    expect(f.modelTimeMs).toBeCloseTo(
      sum(
        agentRows
          .filter((r) => toolSessions.has(r.agent_context.session_id))
          .map((r) => r.request.total_time_ms),
      ),
      9,
    );
    const s0 = f.perSession.find((s) => s.sessionId === "sess-0")!;
    const s0Rows = agentRows.filter((r) => r.agent_context.session_id === "sess-0");
    expect(s0).toMatchObject({ turns: s0Rows.length, toolCalls: s0Rows.length - 1 });
    expect(s0.toolTimeMs).toBe(
      sum(tools.filter((r) => r.agent_context.session_id === "sess-0").map((r) => r.tool.duration_ms)),
    );

    const block = dynamoTraceRequestsBlock(trace);
    const ttft = req.map((r) => r.ttft_ms);
    expect(block.count).toBe(req.length);
    expect(block.ttftMs!.mean).toBeCloseTo(sum(ttft) / ttft.length, 9);
    expect(block.ttftMs!.p50).toBeCloseTo(pct(ttft, 50), 9);
    expect(block.ttftMs!.p99).toBeCloseTo(pct(ttft, 99), 9);
    expect(block.e2eMs!.p90).toBeCloseTo(
      pct(
        req.map((r) => r.total_time_ms),
        90,
      ),
      9,
    );
    const t0 = Math.min(...req.map((r) => r.request_received_ms));
    const t1 = Math.max(...ends(rows).map((r) => r.event_time_unix_ms));
    expect(block.durationS).toBeCloseTo((t1 - t0) / 1000, 9);
    expect(block.outputTokensTotal).toBe(f.outputTokens);
  });

  it("joins to records by x_request_id and counts what did not join", async () => {
    const { text } = dynamoRequestTrace({ requests: 20, noIdEvery: 4 });
    const { trace } = await read(text);
    const ids = [...Array.from({ length: 18 }, (_, i) => `req-${String(i).padStart(8, "0")}`), null];
    const j = joinByRequestId(trace, ids);
    // Requests 3, 7, 11, 15, 19 carry no id (4 of them among the records' 18 ids); 18 is past them.
    expect(j).toEqual({
      joined: 14,
      traceWithoutId: 5,
      traceUnmatched: 1,
      recordsUnmatched: 4,
      recordsWithoutId: 1,
    });
  });
});
