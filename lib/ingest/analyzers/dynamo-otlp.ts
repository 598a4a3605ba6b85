/**
 * Dynamo's per-request OpenTelemetry spans (docs/formats.md §Dynamo OpenTelemetry spans). The
 * spans of every file are grouped by trace (a frontend's and its workers' exports may be separate
 * files), one request each; each request's root span alone is stored with the run
 * (`DYNAMO_SPAN_ROOTS_CHART`) for the run's summary, and each request's spans in pieces by
 * x_request_id (`DYNAMO_SPAN_PIECES`) for one request's journey, which puts them on the client's
 * time axis. The whole list (`DYNAMO_SPANS_CHART`) is no longer stored: the roots and the pieces
 * serve every reader, and only a run stored before them is read from it. Beside
 * aiperf's records the summary says how many requests joined by x_request_id and which file lacks
 * the id (docs/metrics.md §Client to engine).
 */
import { DYNAMO_SPAN_PIECES, DYNAMO_SPAN_ROOTS_CHART } from "@/lib/api/chart-catalog";
import type { DynamoSpanRootsPayload, DynamoSpansPayload } from "@/lib/api/request-journey";
import { readWholeText } from "@/lib/formats/aiperf-read";
import { readDynamoOtlp, requestsOfSpans, spansOfExport, type OtlpSpan } from "@/lib/formats/dynamo-otlp";
import { WarningLog } from "@/lib/formats/json-lines";
import { parseJsonText, PARSE_FAILED } from "@/lib/formats/json-text.mjs";
import { spanRootsOf, spansPayloadOf } from "@/lib/metrics/request-journey";
import { piecedPayloads } from "@/lib/metrics/request-pieces";
import { aiperfRequestIds } from "@/lib/store/columnar/aiperf-request-file";
import type { Analyzer, AnalyzerResult, FileReport, IngestContext, IngestFile } from "../analyzer";

const n = (v: number) => v.toLocaleString("en-US");

async function readFile(file: IngestFile, ctx: IngestContext) {
  if (file.format !== "json") return readDynamoOtlp(await file.open(), ctx.limits.maxLineBytes);
  // One export written as a (pretty-printed) document.
  const warnings = new WarningLog();
  const text = await readWholeText(await file.open(), ctx.limits.maxJsonDocumentBytes);
  if (text === null)
    throw new Error("OTLP JSON document larger than the limit (RUNLENS_MAX_JSON_DOCUMENT_BYTES)");
  const doc = parseJsonText(text);
  const spans = doc === PARSE_FAILED ? "not JSON" : spansOfExport(doc, (m) => warnings.count(m));
  if (typeof spans === "string") throw new Error(`not an OTLP trace export: ${spans}`);
  return { spans, warnings, skipped: 0 };
}

export function dynamoOtlpAnalyzer(): Analyzer {
  const spans: OtlpSpan[] = [];
  /** Which files each trace's spans came from */
  const filesOf = new Map<string, Set<string>>();
  let files = 0;

  async function ingestFile(file: IngestFile, ctx: IngestContext): Promise<FileReport> {
    const read = await readFile(file, ctx);
    files++;
    const traces = new Set<string>();
    for (const s of read.spans) {
      spans.push(s);
      traces.add(s.traceId);
      let set = filesOf.get(s.traceId);
      if (!set) filesOf.set(s.traceId, (set = new Set()));
      set.add(file.name);
    }
    const names = new Set(read.spans.map((s) => s.name));
    return {
      records: read.spans.length,
      skipped: read.skipped,
      warnings: read.warnings.toList(),
      meta: {
        spans: read.spans.length,
        traces: traces.size,
        note: `${n(read.spans.length)} spans of ${n(traces.size)} traces (${[...names].slice(0, 6).join(", ")})`,
      },
    };
  }

  async function finish(ctx: IngestContext): Promise<AnalyzerResult> {
    if (files === 0) return {};
    const requests = requestsOfSpans(spans);
    const withoutId = new Map<string, number>();
    for (const r of requests)
      if (r.xRequestId === null)
        for (const f of filesOf.get(r.traceId) ?? []) withoutId.set(f, (withoutId.get(f) ?? 0) + 1);
    const payload: DynamoSpansPayload = {
      withoutId: [...withoutId].map(([file, count]) => ({ file, requests: count })),
      requests: spansPayloadOf(requests),
    };
    const roots: DynamoSpanRootsPayload = {
      withoutId: payload.withoutId,
      requests: spanRootsOf(payload.requests),
    };
    const info: Record<string, string | number | null> = {
      dynamoSpans: spans.length,
      dynamoSpanRequests: requests.length,
    };
    const warnings: string[] = [];
    const records = await aiperfRequestIds(ctx.db, ctx.runId);
    if (records.length > 0) {
      const ids = new Set(records.map((r) => r.request_id).filter((id): id is string => !!id));
      const joined = requests.filter((r) => r.xRequestId !== null && ids.has(r.xRequestId)).length;
      info.dynamoSpanJoinedRequests = joined;
      const parts = [
        `Dynamo spans attached to the aiperf records by x_request_id: ${n(joined)} of ${n(requests.length)} traced requests joined`,
      ];
      for (const [file, count] of withoutId)
        parts.push(`${n(count)} traced requests carry no x_request_id (${file} lacks the id)`);
      const noId = records.filter((r) => !r.request_id).length;
      if (noId > 0) parts.push(`${n(noId)} aiperf records carry no x_request_id`);
      warnings.push(parts.join("; "));
    }
    return {
      info,
      charts: {
        [DYNAMO_SPAN_ROOTS_CHART.key]: roots,
        // One request's journey reads its piece only (lib/runs/request-journey.ts); the whole
        // list is not stored beside them (it doubled the run's span storage).
        ...piecedPayloads(DYNAMO_SPAN_PIECES, payload.requests, payload.withoutId),
      },
      warnings,
    };
  }

  return {
    name: "dynamo-otlp",
    tables: [],
    accepts: (file) => file.kind === "dynamo-otlp-spans",
    ingestFile,
    finish,
  };
}
