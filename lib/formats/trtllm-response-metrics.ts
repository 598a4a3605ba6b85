/**
 * The client files that keep TensorRT-LLM's per-request metrics (docs/formats.md §TensorRT-LLM
 * metrics in responses), each response's fields found for lib/formats/trtllm-metrics-headers.ts:
 *
 * - **aiperf's raw export** (`--export-level raw`: `profile_export_raw.jsonl`, one `RawRecordInfo`
 *   per line, ai-dynamo/aiperf `src/aiperf/post_processors/raw_record_writer_processor.py`): its
 *   `responses` are the SSE messages aiperf read to the stream's end
 *   (`src/aiperf/transports/sse_utils.py`, `{perf_ns, packets: [{name, value}]}`), the
 *   `trtllm.perf_metrics` event after `[DONE]` among them; its `metadata.x_request_id` is the id
 *   the client sent. The writer sets `response_headers` to None: a non-streamed response's
 *   metrics headers are not kept (read when a later writer keeps them).
 * - **an HTTP capture**: `curl -i` (or `-D -`, or `-v` with its `< ` prefixes) of one response or
 *   many appended, status line, headers, body; or a `curl -N` stream body alone. A response's id
 *   is its `X-Request-ID` header when the server or a proxy echoes one; TensorRT-LLM does not.
 */
import { SSE_METRICS_EVENT, METRICS_HEADERS, parseMetricsEventData } from "./trtllm-metrics-headers";

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

export type ResponseMetrics =
  | { fields: Record<string, unknown>; requestId: string | null; via: "sse" | "headers" }
  | { none: true; requestId: string | null }
  | { error: string; requestId: string | null };

function idOf(v: unknown): string | null {
  if (typeof v === "string" && v !== "") return v;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return null;
}

/** An SSE message's fields: `{packets: [{name, value}]}` → its event name and data (joined by LF, as SSE does). */
function sseMessage(m: unknown): { event: string | null; data: string } | null {
  if (!isObject(m) || !Array.isArray(m.packets)) return null;
  let event: string | null = null;
  const data: string[] = [];
  for (const p of m.packets) {
    if (!isObject(p) || typeof p.name !== "string") continue;
    const name = p.name.toLowerCase();
    if (name === "event" && typeof p.value === "string") event = p.value;
    else if (name === "data" && typeof p.value === "string") data.push(p.value);
  }
  return { event, data: data.join("\n") };
}

/** The metrics headers among a header object, or null when it has none. */
function metricsHeaders(h: unknown): Record<string, unknown> | null {
  if (!isObject(h)) return null;
  const wanted = new Set(METRICS_HEADERS.map((n) => n.toLowerCase()));
  const out: Record<string, unknown> = {};
  let any = false;
  for (const [k, v] of Object.entries(h))
    if (wanted.has(k.toLowerCase())) {
      out[k] = v;
      any = true;
    }
  return any ? out : null;
}

/** True when a JSON line is aiperf's `RawRecordInfo` (metadata, start_perf_ns, responses; no metrics). */
export function isAiperfRawRecord(v: Obj): boolean {
  return isObject(v.metadata) && "start_perf_ns" in v && Array.isArray(v.responses) && !("metrics" in v);
}

/** One aiperf raw record's TensorRT-LLM metrics: the post-`[DONE]` event, else its response headers. */
export function aiperfRawMetrics(v: unknown): ResponseMetrics {
  if (!isObject(v) || !isAiperfRawRecord(v))
    return { error: "not an aiperf raw record (metadata, start_perf_ns, responses)", requestId: null };
  const requestId = idOf((v.metadata as Obj).x_request_id);
  for (const m of v.responses as unknown[]) {
    const msg = sseMessage(m);
    if (!msg || msg.event !== SSE_METRICS_EVENT) continue;
    const parsed = parseMetricsEventData(msg.data);
    return "error" in parsed
      ? { error: parsed.error, requestId }
      : { fields: parsed.fields, requestId, via: "sse" };
  }
  const headers = metricsHeaders(v.response_headers);
  if (headers) return { fields: headers, requestId, via: "headers" };
  return { none: true, requestId };
}

const STATUS_LINE = /^HTTP\/\d(\.\d)? \d{3}\b/;

/** A capture's first line: a status line (curl -i, -D -, -v) or an SSE field (curl -N). */
export function looksLikeHttpCapture(firstLine: string): boolean {
  const l = firstLine.replace(/^< /, "");
  return STATUS_LINE.test(l) || /^(data|event): /.test(l);
}

/** One response of a capture: where it starts, its metrics (or none) and its id. */
export type CapturedResponse = ResponseMetrics & { line: number };

/**
 * Reads a capture line by line: a status line starts a response, its headers run to the first
 * blank line, then its body; an `event: trtllm.perf_metrics` message (its `data:` lines up to
 * the blank line that ends it) is the response's metrics. A capture of bodies alone (no status
 * line) is one response per metrics event.
 */
export class HttpCaptureReader {
  private cur: {
    line: number;
    inHeaders: boolean;
    headers: Record<string, string>;
    requestId: string | null;
    event: string | null;
    data: string[] | null;
    result: CapturedResponse | null;
  } | null = null;
  private sawStatus = false;

  constructor(private readonly emit: (r: CapturedResponse) => void) {}

  private close(): void {
    const c = this.cur;
    if (!c) return;
    this.endMessage();
    if (c.result) this.emit(c.result);
    else {
      const headers = metricsHeaders(c.headers);
      this.emit(
        headers
          ? { fields: headers, requestId: c.requestId, via: "headers", line: c.line }
          : { none: true, requestId: c.requestId, line: c.line },
      );
    }
    this.cur = null;
  }

  private endMessage(): void {
    const c = this.cur;
    if (!c || c.data === null) return;
    if (c.event === SSE_METRICS_EVENT) {
      const parsed = parseMetricsEventData(c.data.join("\n"));
      c.result =
        "error" in parsed
          ? { error: parsed.error, requestId: c.requestId, line: c.line }
          : { fields: parsed.fields, requestId: c.requestId, via: "sse", line: c.line };
      // Bodies alone: each metrics event is one response.
      if (!this.sawStatus) {
        this.emit(c.result);
        this.cur = null;
        return;
      }
    }
    c.event = null;
    c.data = null;
  }

  line(lineNo: number, raw: string): void {
    const text = raw.replace(/^< /, "").replace(/\r$/, "");
    if (STATUS_LINE.test(text)) {
      this.close();
      this.sawStatus = true;
      this.cur = {
        line: lineNo,
        inHeaders: true,
        headers: {},
        requestId: null,
        event: null,
        data: null,
        result: null,
      };
      return;
    }
    if (!this.cur) {
      if (this.sawStatus || text.trim() === "") return;
      this.cur = {
        line: lineNo,
        inHeaders: false,
        headers: {},
        requestId: null,
        event: null,
        data: null,
        result: null,
      };
    }
    const c = this.cur;
    if (c.inHeaders) {
      if (text.trim() === "") {
        c.inHeaders = false;
        return;
      }
      const colon = text.indexOf(":");
      if (colon > 0) {
        const name = text.slice(0, colon).trim();
        const v = text.slice(colon + 1).trim();
        c.headers[name] = name in c.headers ? `${c.headers[name]}, ${v}` : v;
        if (name.toLowerCase() === "x-request-id") c.requestId = v || null;
      }
      return;
    }
    if (text.trim() === "") {
      this.endMessage();
      return;
    }
    const m = /^(event|data):\s?(.*)$/.exec(text);
    if (!m) return;
    if (m[1] === "event") {
      c.event = m[2].trim();
      c.data ??= [];
    } else (c.data ??= []).push(m[2]);
  }

  end(): void {
    if (this.cur && !this.sawStatus) {
      this.endMessage();
      this.cur = null;
      return;
    }
    this.close();
  }
}
