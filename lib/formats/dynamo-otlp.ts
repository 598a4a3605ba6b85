/**
 * Dynamo's per-request OpenTelemetry spans (docs/formats.md §Dynamo OpenTelemetry spans), as an
 * OTLP JSON export: one `ExportTraceServiceRequest` document
 * (`{resourceSpans: [{resource, scopeSpans: [{scope, spans: […]}]}]}`), or JSON lines of them as
 * the OpenTelemetry Collector's file exporter writes. Dynamo names its spans with `tracing`
 * (target `request_span`) and exports them through `tracing-opentelemetry`, so every span field
 * becomes an attribute: `http-request` (the frontend's root, with `x_request_id` and
 * `request_id`), `kv_router.select_worker`, `kv_router.route_request` / `router.route_request`
 * (with `worker_id` and `phase`), `prefill_routing`, `handle_payload` (the worker's ingress, with
 * `component`), `engine.generate` (with `disagg_role`, `ttft_ms`), `generate`. Source read:
 * ai-dynamo/dynamo `lib/runtime/src/logging.rs` (`make_inference_request_span`,
 * `make_handle_payload_span`), `lib/llm/src/kv_router/` (`kv_router.route_request`,
 * `kv_router.select_worker`), `lib/runtime/src/pipeline/network/egress/push_router.rs`
 * (`router.route_request`) and the backend's `EngineAdapter` (`engine.generate`).
 *
 * This module reads spans only; which spans make one request is grouped here too (by trace id),
 * since it is the file's own structure, not a computation.
 */
import type { Readable } from "node:stream";
import { eachRecordLine, type WarningLog } from "./json-lines";

export type SpanValue = string | number | boolean;

export interface OtlpSpan {
  traceId: string;
  spanId: string;
  /** Null for a trace's root (OTLP writes an empty string) */
  parentSpanId: string | null;
  name: string;
  /** The resource's `service.name` (Dynamo: `OTEL_SERVICE_NAME`, e.g. dynamo-frontend) */
  service: string | null;
  /** Unix epoch milliseconds (a double: exact to about a quarter of a microsecond today) */
  startMs: number;
  endMs: number;
  attributes: Record<string, SpanValue>;
}

/** The phase of serving a span belongs to, as Dynamo tells it. */
export type SpanRole = "frontend" | "router" | "prefill" | "decode" | "worker";

/** One request's spans: those of one trace, with the ids its attributes carry. */
export interface OtlpRequest {
  traceId: string;
  /** The client's `x-request-id` header (Dynamo records it as `x_request_id`) */
  xRequestId: string | null;
  /** Dynamo's own request id (`request_id`) */
  requestId: string | null;
  spans: OtlpSpan[];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Nanoseconds since the epoch (a decimal string, as OTLP/JSON writes 64-bit integers, or a number) → ms. */
export function nanosToMs(v: unknown): number | null {
  if (typeof v === "number") return Number.isFinite(v) && v > 0 ? v / 1e6 : null;
  if (typeof v !== "string" || !/^\d{1,20}$/.test(v)) return null;
  // Whole microseconds are exact in a double (≈1.8e15 today), so the digits are split there; the
  // sum in milliseconds is then as exact as a double near 1.8e12 holds (≈0.24 µs).
  const us = v.length > 3 ? Number(v.slice(0, -3)) : 0;
  const ns = Number(v.slice(-3));
  const ms = us / 1000 + ns / 1e6;
  return ms > 0 ? ms : null;
}

/** An OTLP `AnyValue` → a plain value; arrays and maps are not read. */
function anyValue(v: unknown): SpanValue | null {
  if (!isObject(v)) return null;
  if (typeof v.stringValue === "string") return v.stringValue;
  if (typeof v.boolValue === "boolean") return v.boolValue;
  if (typeof v.doubleValue === "number") return v.doubleValue;
  if (typeof v.intValue === "number") return v.intValue;
  if (typeof v.intValue === "string" && /^-?\d+$/.test(v.intValue)) return Number(v.intValue);
  return null;
}

function attributesOf(list: unknown): Record<string, SpanValue> {
  const out: Record<string, SpanValue> = {};
  if (!Array.isArray(list)) return out;
  for (const kv of list) {
    if (!isObject(kv) || typeof kv.key !== "string") continue;
    const v = anyValue(kv.value);
    if (v !== null) out[kv.key] = v;
  }
  return out;
}

const hexId = (v: unknown): string | null =>
  typeof v === "string" && /^[0-9a-fA-F]+$/.test(v) && !/^0+$/.test(v) ? v.toLowerCase() : null;

/**
 * The spans of one `ExportTraceServiceRequest`. A span without a trace id, span id, name or times
 * (or ending before it starts) is left out and reported through `bad`.
 */
export function spansOfExport(doc: unknown, bad: (m: string) => void): OtlpSpan[] | string {
  if (!isObject(doc) || !Array.isArray(doc.resourceSpans))
    return "not an OTLP trace export (no resourceSpans)";
  const out: OtlpSpan[] = [];
  for (const rs of doc.resourceSpans) {
    if (!isObject(rs)) continue;
    const resource = attributesOf(isObject(rs.resource) ? rs.resource.attributes : undefined);
    const service = typeof resource["service.name"] === "string" ? resource["service.name"] : null;
    // `instrumentationLibrarySpans` is the name before OTLP 0.15.
    const scopes = Array.isArray(rs.scopeSpans)
      ? rs.scopeSpans
      : Array.isArray(rs.instrumentationLibrarySpans)
        ? rs.instrumentationLibrarySpans
        : [];
    for (const ss of scopes) {
      if (!isObject(ss) || !Array.isArray(ss.spans)) continue;
      for (const s of ss.spans) {
        if (!isObject(s)) continue;
        const traceId = hexId(s.traceId);
        const spanId = hexId(s.spanId);
        const name = typeof s.name === "string" && s.name !== "" ? s.name : null;
        const startMs = nanosToMs(s.startTimeUnixNano);
        const endMs = nanosToMs(s.endTimeUnixNano);
        if (!traceId || !spanId || !name) {
          bad("a span without traceId, spanId or name was left out");
          continue;
        }
        if (startMs === null || endMs === null || endMs < startMs) {
          bad("a span without start and end times (or ending before it starts) was left out");
          continue;
        }
        out.push({
          traceId,
          spanId,
          parentSpanId: hexId(s.parentSpanId),
          name,
          service,
          startMs,
          endMs,
          attributes: attributesOf(s.attributes),
        });
      }
    }
  }
  return out;
}

const str = (v: SpanValue | undefined): string | null =>
  typeof v === "string" && v !== "" && v !== "None" ? v : typeof v === "number" ? String(v) : null;

/**
 * Spans grouped by trace: one request each. Its `x_request_id` is the root's (`http-request`)
 * when the root has one, else the first span's that has one; `request_id` likewise.
 */
export function requestsOfSpans(spans: OtlpSpan[]): OtlpRequest[] {
  const byTrace = new Map<string, OtlpSpan[]>();
  for (const s of spans) {
    let list = byTrace.get(s.traceId);
    if (!list) byTrace.set(s.traceId, (list = []));
    list.push(s);
  }
  const out: OtlpRequest[] = [];
  for (const [traceId, list] of byTrace) {
    list.sort((a, b) => a.startMs - b.startMs || b.endMs - a.endMs);
    const pick = (key: string) => {
      const root = list.find((s) => s.name === "http-request" && str(s.attributes[key]) !== null);
      const any = root ?? list.find((s) => str(s.attributes[key]) !== null);
      return any ? str(any.attributes[key]) : null;
    };
    out.push({ traceId, xRequestId: pick("x_request_id"), requestId: pick("request_id"), spans: list });
  }
  return out;
}

/**
 * What part of serving a span is, from Dynamo's own fields: `disagg_role` (engine.generate),
 * `phase` (kv_router.route_request), `component` (handle_payload), the span name, else the
 * service name (`dynamo-worker-prefill`).
 */
export function spanRole(s: OtlpSpan): SpanRole {
  const a = s.attributes;
  const said = [a.disagg_role, a.phase, a.component].map((v) =>
    typeof v === "string" ? v.toLowerCase() : "",
  );
  if (s.name.startsWith("kv_router.") || s.name.startsWith("router.") || s.name === "prefill_routing")
    return "router";
  if (s.name === "http-request") return "frontend";
  for (const v of said) {
    if (v.includes("prefill")) return "prefill";
    if (v.includes("decode")) return "decode";
  }
  const service = (s.service ?? "").toLowerCase();
  if (service.includes("prefill")) return "prefill";
  if (service.includes("decode")) return "decode";
  if (service.includes("frontend")) return "frontend";
  return "worker";
}

/**
 * Reads a whole OTLP JSON file: JSON lines of exports (`format: "jsonl"`), or one document read
 * whole (`format: "json"`, up to `maxJsonDocumentBytes`). A line that is not an export is
 * skipped and reported with its number.
 */
export async function readDynamoOtlp(
  source: Readable | AsyncIterable<Buffer>,
  maxLineBytes: number,
): Promise<{ spans: OtlpSpan[]; warnings: WarningLog; skipped: number }> {
  const spans: OtlpSpan[] = [];
  const { warnings, skipped } = await eachRecordLine<OtlpSpan[]>(
    source,
    { maxLineBytes },
    (value, _text, bad) => spansOfExport(value, bad),
    (list) => {
      for (const s of list) spans.push(s);
    },
  );
  return { spans, warnings, skipped };
}
