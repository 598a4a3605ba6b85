/**
 * Dynamo request traces (docs/formats.md §Dynamo request traces). Uploaded alone, the trace is
 * the run: its requests block comes from the trace's own ttft_ms and total_time_ms. Uploaded with
 * aiperf's per-request records, the aiperf run stays the run and the trace attaches to it by
 * `x_request_id`; the summary says how many requests joined and which file lacks the id
 * (docs/metrics.md §Dynamo request traces).
 */
import type { DynamoTraceRequestsPayload } from "@/lib/api/request-journey";
import {
  readDynamoTrace,
  type DynamoTrace,
  type DynamoTraceRequest,
  type DynamoTraceTool,
} from "@/lib/formats/dynamo-request-trace";
import { agentSessionsFromTrace } from "@/lib/metrics/agent-sessions";
import { dynamoTraceFigures, dynamoTraceRequestsBlock, joinByRequestId } from "@/lib/metrics/dynamo-trace";
import { piecedPayloads } from "@/lib/metrics/request-pieces";
import { aiperfRequestIds } from "@/lib/store/columnar/aiperf-request-file";
import { agentSessionCharts } from "./agent-session-charts";
import type { Analyzer, AnalyzerResult, FileReport, IngestContext, IngestFile } from "../analyzer";
import {
  DYNAMO_TRACE_CHART,
  DYNAMO_TRACE_REQUEST_PIECES,
  DYNAMO_TRACE_REQUESTS_CHART,
} from "@/lib/api/chart-catalog";

const n = (v: number) => v.toLocaleString("en-US");

export function dynamoTraceAnalyzer(): Analyzer {
  const requests: DynamoTraceRequest[] = [];
  const tools: DynamoTraceTool[] = [];
  const otherEvents: Record<string, number> = {};
  const names: string[] = [];
  const withoutId = new Set<string>();
  const withoutIdCount = new Map<string, number>();

  async function ingestFile(file: IngestFile, ctx: IngestContext): Promise<FileReport> {
    const { trace, warnings, skipped } = await readDynamoTrace(await file.open(), ctx.limits.maxLineBytes);
    names.push(file.name);
    for (const r of trace.requests) requests.push(r);
    for (const t of trace.tools) tools.push(t);
    for (const [k, v] of Object.entries(trace.otherEvents)) otherEvents[k] = (otherEvents[k] ?? 0) + v;
    const missing = trace.requests.filter((r) => r.xRequestId === null).length;
    if (missing > 0) {
      withoutId.add(file.name);
      withoutIdCount.set(file.name, missing);
    }
    return {
      records: trace.requests.length + trace.tools.length,
      skipped,
      warnings: warnings.toList(),
      meta: {
        requestEnd: trace.requests.length,
        toolEnd: trace.tools.length,
        withoutXRequestId: missing,
        note: `${n(trace.requests.length)} request_end, ${n(trace.tools.length)} tool_end rows`,
      },
    };
  }

  async function finish(ctx: IngestContext): Promise<AnalyzerResult> {
    if (names.length === 0) return {};
    const trace: DynamoTrace = { requests, tools, otherEvents };
    const f = dynamoTraceFigures(trace);
    const info: Record<string, string | number | null> = {
      dynamoTraceRequests: f.requests,
      dynamoTraceInputTokens: f.inputTokens,
      dynamoTraceOutputTokens: f.outputTokens,
      dynamoTraceCachedTokens: f.cachedTokens,
      dynamoTraceRequestWeightedKvHitRate: f.kvHitRateRequestWeighted,
      dynamoTraceTokenWeightedKvHitRate: f.kvHitRateTokenWeighted,
      dynamoTraceCachedTokenHitRate: f.cachedTokenShare,
      dynamoTraceSessions: f.sessions,
      dynamoTraceRootSessions: f.rootSessions,
      dynamoTraceTurns: f.turns,
      dynamoTraceToolCalls: f.toolCalls,
      dynamoTraceToolTimeMs: f.toolTimeMs,
      dynamoTraceModelTimeMs: f.modelTimeMs,
    };
    const warnings: string[] = [
      "Dynamo request trace: KV hit rate request-weighted is the mean of each request's kv_hit_rate; token-weighted weighs each by its input_tokens; cached-token hit rate is Σ cached_tokens ÷ Σ input_tokens (docs/metrics.md §Dynamo request traces)",
    ];
    const records = await aiperfRequestIds(ctx.db, ctx.runId);
    // Each request's ids and times, for the request detail's client-to-engine axis.
    const perRequest: DynamoTraceRequestsPayload = {
      withoutId: [...withoutIdCount].map(([file, count]) => ({ file, requests: count })),
      requests: requests.map((r) => ({
        xRequestId: r.xRequestId,
        requestId: r.requestId,
        receivedMs: r.receivedMs,
        ttftMs: r.ttftMs,
        totalMs: r.totalTimeMs,
        worker: null,
      })),
    };
    const charts: Record<string, unknown> = {
      [DYNAMO_TRACE_CHART.key]: { sessions: f.perSession },
      [DYNAMO_TRACE_REQUESTS_CHART.key]: perRequest,
      // One request's journey reads its piece only (lib/runs/request-journey.ts).
      ...piecedPayloads(DYNAMO_TRACE_REQUEST_PIECES, perRequest.requests, perRequest.withoutId),
    };
    // The trace's sessions carry tool time: they replace aiperf's, stored before (docs/metrics.md §Agent sessions).
    const agents = agentSessionsFromTrace(trace, names);
    if (agents) {
      Object.assign(charts, agentSessionCharts(agents));
      info.agentSessions = agents.count;
    }
    if (records.length === 0)
      return {
        requests: dynamoTraceRequestsBlock(trace),
        requestCount: f.requests,
        info,
        charts,
        warnings,
      };
    const join = joinByRequestId(
      trace,
      records.map((r) => r.request_id),
    );
    // The trace's own TTFT, beside the client's in the aiperf requests block.
    const ttft = dynamoTraceRequestsBlock(trace).ttftMs;
    info.dynamoTraceTtftP50Ms = ttft?.p50 ?? null;
    info.dynamoTraceTtftP99Ms = ttft?.p99 ?? null;
    info.dynamoTraceJoinedRequests = join.joined;
    info.dynamoTraceUnjoinedRequests = join.traceWithoutId + join.traceUnmatched;
    const parts = [
      `Dynamo request trace attached to the aiperf records by x_request_id: ${n(join.joined)} of ${n(f.requests)} trace requests joined`,
    ];
    if (join.traceWithoutId > 0)
      parts.push(
        `${n(join.traceWithoutId)} trace requests carry no x_request_id (${[...withoutId].join(", ")} lacks the id)`,
      );
    if (join.traceUnmatched > 0)
      parts.push(`${n(join.traceUnmatched)} trace requests name an x_request_id no aiperf record has`);
    if (join.recordsUnmatched > 0) parts.push(`${n(join.recordsUnmatched)} aiperf records have no trace row`);
    if (join.recordsWithoutId > 0) {
      const fileIds = [...new Set(records.filter((r) => !r.request_id).map((r) => r.file_id))];
      const named = await ctx.db.selectFrom("files").select("name").where("id", "in", fileIds).execute();
      const which = named.length > 0 ? named.map((f) => f.name).join(", ") : "the per-request records";
      parts.push(`${n(join.recordsWithoutId)} aiperf records carry no x_request_id (${which} lacks the id)`);
    }
    warnings.push(parts.join("; "));
    return { info, charts, warnings };
  }

  return {
    name: "dynamo-trace",
    tables: [],
    accepts: (file) => file.kind === "dynamo-request-trace",
    ingestFile,
    finish,
  };
}
