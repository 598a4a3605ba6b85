/**
 * A Dynamo request trace through POST /api/runs (docs/formats.md §Dynamo request traces,
 * docs/metrics.md §Dynamo request traces): alone it is the run; beside aiperf's per-request
 * records it attaches to their run by x_request_id. Rows follow ai-dynamo/dynamo
 * `lib/llm/src/request_trace/types.rs`, written by test/generators/dynamo-request-trace.mjs; the
 * aiperf records by test/generators/aiperf.mjs. Every expected number is computed here from the
 * generated rows.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { dynamoTraceSessionsPayloadSchema } from "@/lib/api/dynamo-trace";
import { runSummarySchema } from "@/lib/api/schemas";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { dynamoRequestTrace } from "../generators/dynamo-request-trace.mjs";
import { freshAppEachTest, idParams, uploadRun } from "../helpers/test-app";
import { readChart } from "../helpers/read-api";
import { DYNAMO_TRACE_CHART } from "@/lib/api/chart-catalog";
import { pct } from "../helpers/numpy-percentile";

freshAppEachTest();

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- generated rows, read as JSON
type Row = Record<string, any>;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

async function summary(id: string) {
  const res = await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id));
  return runSummarySchema.parse(await res.json());
}

describe("Dynamo request trace upload", () => {
  it("alone (.jsonl.gz, malformed lines) is a run of its own with the trace's numbers", async () => {
    const { text, rows, badLines } = dynamoRequestTrace({ requests: 30, plain: 2, bad: 2 });
    const id = await uploadRun([
      { name: "dynamo-request-trace.000000.jsonl.gz", content: gzipSync(Buffer.from(text)) },
    ]);
    const run = await summary(id);
    const ends = (rows as Row[]).filter((r) => r.event_type === "request_end");
    const req = ends.map((r) => r.request);
    const tools = (rows as Row[]).filter((r) => r.event_type === "tool_end");

    const file = run.files[0];
    expect(file).toMatchObject({ kind: "dynamo-request-trace", format: "jsonl", skipped: 2 });
    expect(file.records).toBe(ends.length + tools.length);
    expect(file.warnings.map((w) => w.line).filter((l) => l !== undefined)).toEqual(badLines);

    expect(run.requests).toMatchObject({ source: "dynamo-request-trace", count: req.length, errorCount: 0 });
    const ttft = req.map((r) => r.ttft_ms);
    expect(run.requests!.ttftMs!.mean).toBeCloseTo(sum(ttft) / ttft.length, 9);
    expect(run.requests!.ttftMs!.p50).toBeCloseTo(pct(ttft, 50), 9);
    expect(run.requests!.ttftMs!.p99).toBeCloseTo(pct(ttft, 99), 9);
    expect(run.requests!.inputTokens!.mean).toBeCloseTo(sum(req.map((r) => r.input_tokens)) / req.length, 9);
    expect(run.requests!.outputTokensTotal).toBe(sum(req.map((r) => r.output_tokens)));

    const input = sum(req.map((r) => r.input_tokens));
    expect(run.info).toMatchObject({
      dynamoTraceRequests: req.length,
      dynamoTraceInputTokens: input,
      dynamoTraceOutputTokens: sum(req.map((r) => r.output_tokens)),
      dynamoTraceCachedTokens: sum(req.map((r) => r.cached_tokens)),
      dynamoTraceToolCalls: tools.length,
      dynamoTraceToolTimeMs: sum(tools.map((r) => r.tool.duration_ms)),
    });
    expect(run.info.dynamoTraceRequestWeightedKvHitRate).toBeCloseTo(
      sum(req.map((r) => r.kv_hit_rate)) / req.length,
      12,
    );
    expect(run.info.dynamoTraceTokenWeightedKvHitRate).toBeCloseTo(
      sum(req.map((r) => r.kv_hit_rate * r.input_tokens)) / input,
      12,
    );
    const agent = ends.filter((r) => r.agent_context);
    expect(run.info.dynamoTraceSessions).toBe(new Set(agent.map((r) => r.agent_context.session_id)).size);
    expect(run.info.dynamoTraceTurns).toBe(agent.length);
    expect(run.warnings.some((w) => w.includes("token-weighted"))).toBe(true);

    const sessions = dynamoTraceSessionsPayloadSchema.parse(
      await readChart(id, DYNAMO_TRACE_CHART.key),
    ).sessions;
    expect(sum(sessions.map((s) => s.turns))).toBe(agent.length);
    for (const s of sessions) {
      const mine = agent.filter((r) => r.agent_context.session_id === s.sessionId);
      expect(s.modelTimeMs).toBeCloseTo(sum(mine.map((r) => r.request.total_time_ms)), 9);
    }
  });

  it("beside aiperf records sharing x_request_id attaches to the aiperf run and says what joined", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dyn-trace-"));
    const gen = await generateAiperfRun(dir, { records: 40, concurrency: 4, seed: 3, csv: false });
    const ids = fs
      .readFileSync(gen.jsonlPath, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).metadata.x_request_id as string);
    // The trace saw the first 36 of aiperf's requests; every 6th row lost its x-request-id header.
    const { text, rows } = dynamoRequestTrace({ requests: 36, ids: ids.slice(0, 36), noIdEvery: 6 });
    const id = await uploadRun([
      { name: "run/profile_export.jsonl", path: gen.jsonlPath },
      { name: "run/profile_export_aiperf.json", path: gen.summaryPath },
      { name: "run/dynamo-request-trace.jsonl", content: text },
    ]);
    fs.rmSync(dir, { recursive: true, force: true });
    const run = await summary(id);
    const req = (rows as Row[]).filter((r) => r.event_type === "request_end").map((r) => r.request);
    const withId = req.filter((r) => r.x_request_id !== undefined);
    expect(run.requests).toMatchObject({ source: "aiperf", count: 40 });
    expect(run.info).toMatchObject({
      dynamoTraceRequests: req.length,
      dynamoTraceJoinedRequests: withId.length,
      dynamoTraceUnjoinedRequests: req.length - withId.length,
    });
    expect(run.info.dynamoTraceTtftP50Ms).toBeCloseTo(
      pct(
        req.map((r) => r.ttft_ms),
        50,
      ),
      9,
    );
    const said = run.warnings.find((w) => w.startsWith("Dynamo request trace attached"));
    expect(said).toContain(`${withId.length} of ${req.length} trace requests joined`);
    expect(said).toContain(
      `${req.length - withId.length} trace requests carry no x_request_id (run/dynamo-request-trace.jsonl lacks the id)`,
    );
    expect(said).toContain(`${40 - withId.length} aiperf records have no trace row`);
  });

  it("beside aiperf records without x_request_id says the records lack the id", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dyn-trace-"));
    const gen = await generateAiperfRun(dir, { records: 12, concurrency: 2, seed: 4, csv: false });
    // An aiperf build that wrote no x_request_id: the metadata key is absent.
    const stripped = fs.readFileSync(gen.jsonlPath, "utf8").replace(/"x_request_id":"[^"]*",/g, "");
    const { text, rows } = dynamoRequestTrace({ requests: 12 });
    const id = await uploadRun([
      { name: "run/profile_export.jsonl", content: stripped },
      { name: "run/profile_export_aiperf.json", path: gen.summaryPath },
      { name: "run/dynamo-request-trace.jsonl", content: text },
    ]);
    fs.rmSync(dir, { recursive: true, force: true });
    const run = await summary(id);
    const req = (rows as Row[]).filter((r) => r.event_type === "request_end");
    expect(run.info).toMatchObject({ dynamoTraceJoinedRequests: 0, dynamoTraceUnjoinedRequests: req.length });
    const said = run.warnings.find((w) => w.startsWith("Dynamo request trace attached"))!;
    expect(said).toContain(`0 of ${req.length} trace requests joined`);
    expect(said).toContain("12 aiperf records carry no x_request_id (run/profile_export.jsonl lacks the id)");
  });

  it("several shards of one trace are one run", async () => {
    const a = dynamoRequestTrace({ requests: 10, seed: 1 });
    const b = dynamoRequestTrace({
      requests: 7,
      seed: 2,
      ids: Array.from({ length: 7 }, (_, i) => `b-${i}`),
    });
    const id = await uploadRun([
      { name: "dynamo-request-trace.000000.jsonl.gz", content: gzipSync(Buffer.from(a.text)) },
      { name: "dynamo-request-trace.000001.jsonl.gz", content: gzipSync(Buffer.from(b.text)) },
    ]);
    const run = await summary(id);
    const ends = [...a.rows, ...b.rows].filter((r) => r.event_type === "request_end") as Row[];
    expect(run.requests).toMatchObject({ source: "dynamo-request-trace", count: ends.length });
    expect(run.info.dynamoTraceInputTokens).toBe(sum(ends.map((r) => r.request.input_tokens)));
  });
});
