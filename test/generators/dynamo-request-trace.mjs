/**
 * Synthetic Dynamo request traces (`dynamo.request.trace.v1` JSONL), row for row in the shape
 * Dynamo's frontend serialises: `RequestTraceRecord`, `RequestTraceMetrics`,
 * `RequestTraceToolEvent` and `FinishReasonMetadata` in ai-dynamo/dynamo
 * `lib/llm/src/request_trace/types.rs` (optional fields are omitted, never null:
 * `skip_serializing_if = "Option::is_none"`), with `agent_context{session_id, parent_session_id}`
 * from `lib/llm/src/request_trace/agent_context.rs` and the replay block hashes of
 * `RequestReplayMetrics`. Tool rows come from the harness (`event_source: "harness"`).
 *
 * Each agent session runs `turns` model requests; between two turns a tool runs (a `tool_start`
 * then a `tool_end` row). Every `subagentEvery`-th session is a child of the previous root.
 */
import { prng } from "./prng.mjs";

const BASE_MS = 1764700000000;
const BLOCK = 16;

/**
 * opts: requests (default 40), receivedMs (request_received_ms per request, else a clock of its
 * own), ids (x_request_id per request, else `req-NNNNNNNN` like the aiperf
 * generator), turns per session (4), noIdEvery (every k-th request carries no x_request_id; 0 none),
 * plain (k: the first k requests carry no agent_context, the compact replay-only row), bad
 * (malformed lines appended between rows), seed.
 * Returns { text, rows (the parsed objects written), badLines (1-based line numbers) }.
 */
export function dynamoRequestTrace(opts = {}) {
  const count = opts.requests ?? 40;
  const turns = opts.turns ?? 4;
  const noIdEvery = opts.noIdEvery ?? 0;
  const plain = opts.plain ?? 0;
  const subagentEvery = opts.subagentEvery ?? 3;
  const rand = prng(opts.seed ?? 7);
  const rows = [];
  let t = BASE_MS;
  let session = null;
  let rootId = null;
  let sessionIndex = -1;
  let turn = 0;
  for (let i = 0; i < count; i++) {
    const agent = i >= plain;
    if (agent && (session === null || turn === turns)) {
      sessionIndex++;
      turn = 0;
      const child = sessionIndex % subagentEvery === subagentEvery - 1 && rootId !== null;
      session = { session_id: `sess-${sessionIndex}`, ...(child ? { parent_session_id: rootId } : {}) };
      if (!child) rootId = session.session_id;
    }
    const input = 200 + Math.floor(rand() * 1800) + turn * 300;
    const output = 20 + Math.floor(rand() * 400);
    const hit = agent && turn > 0 ? Math.round(rand() * 1000) / 1000 : 0;
    const cached = Math.floor((input * hit) / BLOCK) * BLOCK;
    const ttft = Math.round((15 + rand() * 120 + input * 0.01) * 1000) / 1000;
    const itl = Math.round((6 + rand() * 6) * 1000) / 1000;
    const total = Math.round((ttft + itl * (output - 1)) * 1000) / 1000;
    // opts.receivedMs: when the frontend received each request (e.g. a little after a client's send).
    const received = opts.receivedMs ? opts.receivedMs[i] : Math.round(t);
    const id = opts.ids ? opts.ids[i] : `req-${String(i).padStart(8, "0")}`;
    const blocks = Math.ceil(input / BLOCK);
    const request = {
      request_id: `dyn-${i}`,
      ...(noIdEvery > 0 && i % noIdEvery === noIdEvery - 1 ? {} : { x_request_id: id }),
      ...(agent ? { model: "Qwen/Qwen3-0.6B" } : {}),
      input_tokens: input,
      output_tokens: output,
      cached_tokens: cached,
      request_received_ms: received,
      ttft_ms: ttft,
      total_time_ms: total,
      avg_itl_ms: itl,
      kv_hit_rate: hit,
      replay: {
        trace_block_size: BLOCK,
        input_length: input,
        input_sequence_hashes: Array.from(
          { length: Math.min(blocks, 8) },
          (_, k) => 1000 + k + 97 * (sessionIndex + 1),
        ),
      },
      ...(agent
        ? { finish_reason_metadata: { finish_reason: turn < turns - 1 ? "tool_calls" : "stop" } }
        : {}),
    };
    const endMs = received + Math.ceil(total);
    rows.push({
      schema: "dynamo.request.trace.v1",
      event_type: "request_end",
      event_time_unix_ms: endMs,
      ...(agent ? { event_source: "dynamo", agent_context: session } : {}),
      request,
    });
    t = endMs + 1;
    turn++;
    if (agent && turn < turns) {
      const dur = Math.round(50 + rand() * 900);
      const tool = { tool_call_id: `call-${i}`, tool_class: turn % 2 ? "bash" : "read_file" };
      rows.push({
        schema: "dynamo.request.trace.v1",
        event_type: "tool_start",
        event_time_unix_ms: t,
        event_source: "harness",
        agent_context: session,
        tool: { ...tool, started_at_unix_ms: t, status: "running" },
      });
      rows.push({
        schema: "dynamo.request.trace.v1",
        event_type: "tool_end",
        event_time_unix_ms: t + dur,
        event_source: "harness",
        agent_context: session,
        tool: {
          ...tool,
          started_at_unix_ms: t,
          ended_at_unix_ms: t + dur,
          status: "succeeded",
          duration_ms: dur,
          output_bytes: 512,
        },
      });
      t += dur + 1;
    }
  }
  const lines = rows.map((r) => JSON.stringify(r));
  const badLines = [];
  const bad = opts.bad ?? 0;
  const badTexts = [
    '{"schema":"dynamo.request.trace.v1","event_type":"request_end","event_time_unix_ms":1,"request":{"request_id":"trunc',
    '{"schema":"dynamo.request.trace.v2","event_type":"request_end","event_time_unix_ms":1,"request":{"request_id":"x"}}',
    '{"schema":"dynamo.request.trace.v1","event_type":"request_end","event_time_unix_ms":1}',
  ];
  for (let k = 0; k < bad; k++) {
    const at = Math.min(lines.length, 3 + k * 5);
    lines.splice(at, 0, badTexts[k % badTexts.length]);
  }
  lines.forEach((l, idx) => {
    if (badTexts.includes(l)) badLines.push(idx + 1);
  });
  return { text: lines.join("\n") + "\n", rows, badLines };
}
