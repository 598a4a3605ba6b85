/**
 * One request from client to engine (docs/metrics.md §Client to engine) through the routes: aiperf
 * records (test/generators/aiperf.mjs), Dynamo's request trace (test/generators/dynamo-request-trace.mjs,
 * after ai-dynamo/dynamo lib/llm/src/request_trace/types.rs) and Dynamo's OpenTelemetry spans
 * (test/generators/dynamo-otlp.mjs, after ai-dynamo/dynamo lib/runtime/src/logging.rs,
 * lib/llm/src/kv_router/ and the backend's engine.generate) uploaded as one run. The generator
 * places each span a known time after the client's send, and reports a TTFT and total time a
 * known amount shorter than the client saw: the expected gaps are those amounts.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET as getJourney } from "@/app/api/runs/[id]/journey/route";
import { GET as getRequestJourney } from "@/app/api/runs/[id]/timeline/requests/[rid]/journey/route";
import { GET as getTimeline } from "@/app/api/runs/[id]/timeline/route";
import { GET as getTimelineRequest } from "@/app/api/runs/[id]/timeline/requests/[rid]/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { journeySummarySchema, requestJourneySchema } from "@/lib/api/request-journey";
import { runSummarySchema } from "@/lib/api/schemas";
import { decodeTimeline, timelineRequestSchema, timelineWireSchema } from "@/lib/api/timeline";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { clientsOfAiperf, dynamoOtlpSpans } from "../generators/dynamo-otlp.mjs";
import { dynamoRequestTrace } from "../generators/dynamo-request-trace.mjs";
import { freshAppEachTest, idParams, uploadRun } from "../helpers/test-app";
import { pct } from "../helpers/numpy-percentile";

freshAppEachTest();

const url = (p: string) => new Request(`http://localhost${p}`);

async function summaryOf(id: string) {
  const res = await getJourney(url(`/api/runs/${id}/journey`), idParams(id));
  return {
    status: res.status,
    body: res.status === 200 ? journeySummarySchema.parse(await res.json()) : null,
  };
}

async function firstBar(id: string) {
  const res = await getTimeline(url(`/api/runs/${id}/timeline`), idParams(id));
  const p = decodeTimeline(timelineWireSchema.parse(await res.json()));
  const rids = [...p.bars.id];
  const detail = async (rid: number) =>
    timelineRequestSchema.parse(
      await (
        await getTimelineRequest(url(`/api/runs/${id}/timeline/requests/${rid}`), {
          params: Promise.resolve({ id, rid: String(rid) }),
        })
      ).json(),
    );
  return { rids, detail };
}

async function journeyOf(id: string, rid: number) {
  const res = await getRequestJourney(url(`/api/runs/${id}/timeline/requests/${rid}/journey`), {
    params: Promise.resolve({ id, rid: String(rid) }),
  });
  expect(res.status).toBe(200);
  return requestJourneySchema.parse(await res.json());
}

describe("client to engine on one axis", () => {
  it("joins aiperf records, the Dynamo trace and OTLP spans by x_request_id and aggregates the gap", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "journey-"));
    const gen = await generateAiperfRun(dir, { records: 30, concurrency: 3, seed: 5, csv: false });
    const jsonl = fs.readFileSync(gen.jsonlPath, "utf8");
    const clients = clientsOfAiperf(jsonl);
    // Spans for the first 24 requests, every 8th trace without x_request_id.
    const spans = dynamoOtlpSpans({ clients: clients.slice(0, 24), noIdEvery: 8 });
    // The trace's frontend received each request 0.3 ms after the client's send.
    const trace = dynamoRequestTrace({
      requests: 20,
      ids: clients.slice(0, 20).map((c) => c.x),
      receivedMs: clients.slice(0, 20).map((c) => Number(c.startNs / 1000n) / 1000 + 0.3),
    });
    const id = await uploadRun([
      { name: "run/profile_export.jsonl", path: gen.jsonlPath },
      { name: "run/profile_export_aiperf.json", path: gen.summaryPath },
      { name: "run/dynamo-request-trace.jsonl", content: trace.text },
      { name: "run/otel-traces.jsonl", content: spans.text },
    ]);
    fs.rmSync(dir, { recursive: true, force: true });

    const run = runSummarySchema.parse(await (await getRun(url(`/api/runs/${id}`), idParams(id))).json());
    const file = run.files.find((f) => f.name === "run/otel-traces.jsonl")!;
    expect(file).toMatchObject({ kind: "dynamo-otlp-spans", format: "jsonl", records: 24 * 8, skipped: 0 });
    const joinedGaps = spans.gaps.filter((g) => g.x !== null);
    expect(run.info).toMatchObject({ dynamoSpanRequests: 24, dynamoSpanJoinedRequests: joinedGaps.length });
    const said = run.warnings.find((w) => w.startsWith("Dynamo spans attached"))!;
    expect(said).toContain(`${joinedGaps.length} of 24 traced requests joined`);
    expect(said).toContain(
      `${24 - joinedGaps.length} traced requests carry no x_request_id (run/otel-traces.jsonl lacks the id)`,
    );

    const { status, body: s } = await summaryOf(id);
    expect(status).toBe(200);
    // The spans' requests join where they carry the id; the trace's rows join the rest of its 20.
    const traceOnly = clients.slice(0, 20).filter((_, i) => spans.gaps[i].x === null).length;
    expect(s!.joined).toBe(joinedGaps.length + traceOnly);
    expect(s!.clientRequests).toBe(clients.length);
    expect(s!.serverSource).toBe("spans");
    expect(s!.notes.join(" ")).toContain(
      "run/otel-traces.jsonl has no client request id (the client's x_request_id) on 3 traced requests: those cannot be matched to the client's requests",
    );

    // Over the span-joined requests the gaps are the generator's; the trace-joined add their own.
    const totals = trace.rows
      .filter((r) => r.event_type === "request_end")
      .map((r) => (r.request as { total_time_ms: number }).total_time_ms);
    const e2e = [
      ...joinedGaps.map((g) => g.e2eMs),
      ...clients.slice(0, 20).flatMap((c, i) => (spans.gaps[i].x === null ? [c.e2eMs - totals[i]] : [])),
    ];
    expect(s!.e2eGapMs!.count).toBe(e2e.length);
    // Span times are epoch milliseconds in doubles, exact to about a quarter of a microsecond.
    expect(s!.e2eGapMs!.p50).toBeCloseTo(pct(e2e, 50), 3);
    expect(s!.e2eGapMs!.p90).toBeCloseTo(pct(e2e, 90), 3);
    expect(s!.e2eGapMs!.p99).toBeCloseTo(pct(e2e, 99), 3);

    // One request: the client lane above the frontend, router and engine spans, gaps named.
    const { rids, detail } = await firstBar(id);
    let rid = -1;
    for (const r of rids) if ((await detail(r)).requestId === clients[0].x) rid = r;
    const j = await journeyOf(id, rid);
    expect(j.xRequestId).toBe(clients[0].x);
    expect(j.serverSource).toBe("spans");
    expect(j.lanes[0]).toMatchObject({ role: "client", startMs: 0 });
    expect(j.lanes[0].endMs).toBeCloseTo(clients[0].e2eMs, 3);
    expect(j.lanes.map((l) => l.role)).toEqual(
      expect.arrayContaining(["frontend", "router", "prefill", "decode"]),
    );
    expect(j.gaps.sendMs).toBeCloseTo(spans.gaps[0].sendMs, 3);
    expect(j.gaps.ttftMs).toBeCloseTo(spans.gaps[0].ttftMs, 2);
    expect(j.gaps.e2eMs).toBeCloseTo(spans.gaps[0].e2eMs, 3);
    expect(j.missing).toEqual([]);

    // A request the spans have no id for: said, and the trace row still places it.
    const noIdX = clients[7].x;
    let rid7 = -1;
    for (const r of rids) if ((await detail(r)).requestId === noIdX) rid7 = r;
    const j7 = await journeyOf(id, rid7);
    expect(j7.serverSource).toBe("trace");
    expect(j7.missing.join(" ")).toContain(
      `No traced request carries the id the client sent, ${noIdX} (run/otel-traces.jsonl has no client request id on some)`,
    );
  });

  it("says which file lacks the shared id when the aiperf records carry none", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "journey-"));
    const gen = await generateAiperfRun(dir, { records: 10, concurrency: 2, seed: 6, csv: false });
    const jsonl = fs.readFileSync(gen.jsonlPath, "utf8");
    const spans = dynamoOtlpSpans({ clients: clientsOfAiperf(jsonl), document: true });
    const id = await uploadRun([
      { name: "run/profile_export.jsonl", content: jsonl.replace(/"x_request_id":"[^"]*",/g, "") },
      { name: "run/profile_export_aiperf.json", path: gen.summaryPath },
      { name: "run/otel-traces.json", content: spans.text },
    ]);
    fs.rmSync(dir, { recursive: true, force: true });
    const { body: s } = await summaryOf(id);
    expect(s!.joined).toBe(0);
    expect(s!.e2eGapMs).toBeNull();
    expect(s!.notes.join(" ")).toContain(
      "run/profile_export.jsonl has no request id (the client's x_request_id) on 10 records: no server file can be matched to those",
    );
    const { rids } = await firstBar(id);
    const j = await journeyOf(id, rids[0]);
    expect(j.missing.join(" ")).toContain(
      "run/profile_export.jsonl has no request id for this record (the client's x_request_id): no server file can be matched to it",
    );
    expect(j.lanes.map((l) => l.role)).toEqual(["client"]);
  });

  it("answers 404 for a run without Dynamo spans or trace", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "journey-"));
    const gen = await generateAiperfRun(dir, { records: 5, concurrency: 1, seed: 2, csv: false });
    const id = await uploadRun([{ name: "profile_export.jsonl", path: gen.jsonlPath }]);
    fs.rmSync(dir, { recursive: true, force: true });
    expect((await summaryOf(id)).status).toBe(404);
  });
});
