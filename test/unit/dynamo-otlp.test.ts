/**
 * Dynamo's OpenTelemetry spans (docs/formats.md §Dynamo OpenTelemetry spans) and the client↔server
 * gap (docs/metrics.md §Client to engine). Spans follow ai-dynamo/dynamo's span definitions
 * (`lib/runtime/src/logging.rs` http-request and handle_payload, `lib/llm/src/kv_router/`
 * kv_router.select_worker and kv_router.route_request, the backend's engine.generate), written
 * by test/generators/dynamo-otlp.mjs.
 */
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { detectKind } from "@/lib/formats/detect";
import {
  nanosToMs,
  readDynamoOtlp,
  requestsOfSpans,
  spanRole,
  spansOfExport,
} from "@/lib/formats/dynamo-otlp";
import {
  gapsOf,
  journeySummary,
  requestJourney,
  serverView,
  spansPayloadOf,
} from "@/lib/metrics/request-journey";
import { dynamoOtlpSpans } from "../generators/dynamo-otlp.mjs";

const clients = Array.from({ length: 6 }, (_, i) => ({
  x: `req-${i}`,
  startNs: 1764700000000000000n + BigInt(i) * 100_000_000n,
  ttftMs: 40 + i,
  e2eMs: 300 + 10 * i,
}));

describe("Dynamo OTLP span reader", () => {
  it("reads nanosecond strings exactly to the microsecond and beyond", () => {
    expect(nanosToMs("1764700000123456789")).toBe(1764700000123.456789);
    expect(nanosToMs("0")).toBeNull();
    expect(nanosToMs("12x")).toBeNull();
    expect(nanosToMs(1.5e6)).toBe(1.5);
  });

  it("groups spans by trace, takes x_request_id from http-request, and names each span's role", async () => {
    const { text } = dynamoOtlpSpans({ clients });
    const { spans, skipped } = await readDynamoOtlp(Readable.from([Buffer.from(text)]), 1 << 20);
    expect(skipped).toBe(0);
    expect(spans).toHaveLength(clients.length * 8);
    const reqs = requestsOfSpans(spans);
    expect(reqs.map((r) => r.xRequestId)).toEqual(clients.map((c) => c.x));
    const first = reqs[0];
    expect(first.spans[0].name).toBe("http-request");
    expect(first.spans[0].service).toBe("dynamo-frontend");
    // The frontend received it sendGap(0) = 0.25 ms after the client sent it.
    expect(first.spans[0].startMs).toBeCloseTo(1764700000000.25, 6);
    const roles = Object.fromEntries(
      first.spans.map((s) => [
        `${s.name}:${s.attributes.phase ?? s.attributes.component ?? s.attributes.disagg_role ?? ""}`,
        spanRole(s),
      ]),
    );
    expect(roles).toMatchObject({
      "http-request:": "frontend",
      "kv_router.select_worker:": "router",
      "kv_router.route_request:Prefill": "router",
      "handle_payload:prefill": "prefill",
      "engine.generate:prefill": "prefill",
      "handle_payload:decode": "decode",
      "engine.generate:decode": "decode",
    });
    // Parents by index; engine.generate's ttft_ms string is read as a number.
    const stored = spansPayloadOf(reqs)[0];
    const eg = stored.spans.find((s) => s.name === "engine.generate" && s.role === "decode")!;
    expect(stored.spans[eg.parent!].name).toBe("handle_payload");
    expect(typeof eg.ttftMs).toBe("number");
  });

  it("leaves out spans without ids or times and skips lines that are no export", async () => {
    const bad: string[] = [];
    const out = spansOfExport(
      {
        resourceSpans: [
          {
            scopeSpans: [
              {
                spans: [
                  {
                    traceId: "01",
                    spanId: "02",
                    name: "x",
                    startTimeUnixNano: "2000000",
                    endTimeUnixNano: "1000000",
                  },
                  { spanId: "02", name: "x", startTimeUnixNano: "1", endTimeUnixNano: "2" },
                  {
                    traceId: "0a",
                    spanId: "0b",
                    name: "ok",
                    startTimeUnixNano: "1000000",
                    endTimeUnixNano: "3000000",
                  },
                ],
              },
            ],
          },
        ],
      },
      (m) => bad.push(m),
    );
    expect(Array.isArray(out) && out.map((s) => s.name)).toEqual(["ok"]);
    expect(bad).toHaveLength(2);
    const text = `${JSON.stringify({ resourceSpans: [] })}\nnot json\n{"other":1}\n`;
    const r = await readDynamoOtlp(Readable.from([Buffer.from(text)]), 1 << 20);
    expect(r.skipped).toBe(2);
    expect(r.warnings.toList().map((w) => w.line)).toEqual([2, 3]);
  });

  it("is recognised by its content, as JSON lines or one document", () => {
    const lines = dynamoOtlpSpans({ clients }).text;
    expect(detectKind(Buffer.from(lines), true)).toMatchObject({
      kind: "dynamo-otlp-spans",
      format: "jsonl",
    });
    const doc = dynamoOtlpSpans({ clients, document: true }).text;
    expect(detectKind(Buffer.from(doc), true)).toMatchObject({ kind: "dynamo-otlp-spans", format: "json" });
    // A document larger than the head is told by its first key.
    expect(detectKind(Buffer.from(doc.slice(0, 2000)), false)).toMatchObject({ kind: "dynamo-otlp-spans" });
  });
});

describe("client↔server gap", () => {
  const client = { xRequestId: "a", sendEpochMs: 1000, ttftMs: 50, e2eMs: 200 };

  it("is server received − client sent, client TTFT − server TTFT, client E2E − server total", () => {
    const g = gapsOf(client, { source: "spans", receivedMs: 1000.5, ttftMs: 48, totalMs: 197 });
    expect(g).toEqual({ sendMs: 0.5, ttftMs: 2, e2eMs: 3 });
    expect(gapsOf(client, null)).toEqual({ sendMs: null, ttftMs: null, e2eMs: null });
    // Never 0 for what was not measured.
    expect(
      gapsOf({ ...client, ttftMs: null }, { source: "trace", receivedMs: null, ttftMs: 1, totalMs: 1 }),
    ).toEqual({
      sendMs: null,
      ttftMs: null,
      e2eMs: 199,
    });
  });

  it("prefers the spans' root over the trace row, and the trace's TTFT when the root has none", () => {
    const spans = {
      traceId: "t",
      xRequestId: "a",
      requestId: null,
      spans: [
        {
          name: "http-request",
          role: "frontend" as const,
          service: null,
          startMs: 1001,
          endMs: 1190,
          parent: null,
          ttftMs: null,
          workerId: null,
        },
      ],
    };
    const trace = {
      xRequestId: "a",
      requestId: "r",
      receivedMs: 1002,
      ttftMs: 45,
      totalMs: 180,
      worker: null,
    };
    expect(serverView(spans, trace)).toEqual({ source: "spans", receivedMs: 1001, ttftMs: 45, totalMs: 189 });
    expect(serverView(null, trace)).toEqual({ source: "trace", receivedMs: 1002, ttftMs: 45, totalMs: 180 });
  });

  it("puts the request on the client's axis and says when the clocks disagree", () => {
    const trace = {
      xRequestId: "a",
      requestId: "r",
      receivedMs: 999,
      ttftMs: 45,
      totalMs: 180,
      worker: null,
    };
    const j = requestJourney(client, null, trace, []);
    expect(j.lanes.map((l) => [l.role, l.startMs, l.endMs, l.firstTokenMs])).toEqual([
      ["client", 0, 200, 50],
      ["frontend", -1, 179, 44],
    ]);
    expect(j.gaps).toEqual({ sendMs: -1, ttftMs: 5, e2eMs: 20 });
    expect(j.clockNote).toContain("1.000 ms before the client sent it");
  });

  it("does not draw a source its clock puts further from the send than the request lasted, and says so", () => {
    const far = {
      xRequestId: "a",
      requestId: "r",
      receivedMs: 1000 + 5000,
      ttftMs: 45,
      totalMs: 180,
      worker: null,
    };
    const j = requestJourney(client, null, far, []);
    expect(j.lanes.map((l) => l.role)).toEqual(["client"]);
    expect(j.missing.join(" ")).toContain("start 5.000 s from the client's send");
    // The gaps of durations stand; the send gap holds the clocks' offset.
    expect(j.gaps).toEqual({ sendMs: 5000, ttftMs: 5, e2eMs: 20 });
  });

  it("aggregates over joined requests with numpy-linear percentiles", () => {
    const cs = [0, 1, 2, 3].map((i) => ({
      xRequestId: `x${i}`,
      sendEpochMs: 1000 * i,
      ttftMs: 50,
      e2eMs: 200,
    }));
    const traces = [0, 1, 2].map((i) => ({
      xRequestId: `x${i}`,
      requestId: `r${i}`,
      receivedMs: 1000 * i + (i + 1),
      ttftMs: 50 - (i + 1),
      totalMs: 200 - 2 * (i + 1),
      worker: null,
    }));
    const s = journeySummary(
      [...cs, { xRequestId: null, sendEpochMs: 0, ttftMs: 1, e2eMs: 1 }],
      [],
      traces,
      [],
    );
    expect(s.joined).toBe(3);
    expect(s.clientRequests).toBe(5);
    expect(s.serverSource).toBe("trace");
    expect(s.sendGapMs).toMatchObject({ count: 3, p50: 2, p90: 2.8, p99: 2.98, mean: 2 });
    expect(s.e2eGapMs).toMatchObject({ p50: 4, p90: 5.6, max: 6 });
    expect(s.ttftGapMs?.p50).toBe(2);
  });
});
