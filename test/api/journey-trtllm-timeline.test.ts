/**
 * TensorRT-LLM's per-request perf metrics on the Timeline and in the run's client↔server gap
 * (docs/metrics.md §Client to engine), through the routes, on SQLite and PostgreSQL. A run holding
 * TensorRT-LLM records draws its Timeline from them: each bar is a TensorRT-LLM request, and its
 * journey joins the aiperf record (test/generators/aiperf.mjs) whose x_request_id is one of its
 * own ids. The perf-metrics JSONL is written as TensorRT-LLM's released writer writes it
 * (test/generators/trtllm-jsonl-writer.mjs, after `tensorrt_llm/serve/perf_metrics.py` of PR
 * #16668 and `tensorrt_llm/serve/_perf_metrics_schema.py` at commit
 * 4856bb733b35c4d512770ef1d109d35d2faf930d; its disaggregated ids after
 * `tensorrt_llm/llmapi/disagg_utils.py` `get_global_disagg_request_id`, 64-bit snowflakes).
 */
import { describe, expect, it } from "vitest";
import { GET as getJourney } from "@/app/api/runs/[id]/journey/route";
import { journeySummarySchema } from "@/lib/api/request-journey";
import { dynamoRequestTrace } from "../generators/dynamo-request-trace.mjs";
import {
  AGGREGATED_MS,
  disaggRecordLine,
  snowflakeId,
  workerRecordLine,
} from "../generators/trtllm-jsonl-writer.mjs";
import { aiperfRun, barJourneys, trtllmJourneys } from "../helpers/journey-runs";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { idParams, uploadRun } from "../helpers/test-app";
import { pct } from "../helpers/numpy-percentile";
import { storedTrtllmRows } from "../helpers/trtllm-request-rows";

const url = (p: string) => new Request(`http://localhost${p}`);

const WORKER_FILE = "run/perf_metrics-server-node0-4242-20260801T120000Z.jsonl";

async function summaryOf(id: string) {
  const res = await getJourney(url(`/api/runs/${id}/journey`), idParams(id));
  expect(res.status).toBe(200);
  return journeySummarySchema.parse(await res.json());
}

describe.each(TEST_STORES)("TensorRT-LLM requests on the Timeline's journey (%s)", (_store, pgUrl) => {
  const env = useStoreTestApp(pgUrl);

  it("a Timeline bar's detail joins the aiperf record sharing its id, and names the file that lacks one", async () => {
    const { clients, files } = await aiperfRun(6, 3);
    // The worker's request_id is the client's x_request_id for the first four (a string id, kept
    // as such by the writer); the fifth is TensorRT-LLM's own int id.
    const lines = [
      ...clients
        .slice(0, 4)
        .map((c, i) => workerRecordLine({ requestId: c.x, t: 800 + i, ms: AGGREGATED_MS })),
      workerRecordLine({ requestId: 9001, t: 805, ms: AGGREGATED_MS }),
    ];
    const id = await uploadRun([...files, { name: WORKER_FILE, content: lines.join("\n") + "\n" }]);
    const { journeys, joined } = await trtllmJourneys(id, clients.slice(0, 4));
    expect(journeys).toHaveLength(5);
    for (const j of joined) {
      const c = clients.find((x) => x.x === j.xRequestId)!;
      expect(j.serverSource).toBe("trtllm");
      // The client's lane above the engine's, on one axis from the client's send.
      expect(j.lanes[0]).toMatchObject({ source: "aiperf", role: "client", startMs: 0 });
      expect(j.lanes[0].endMs).toBeCloseTo(c.e2eMs, 3);
      const engine = j.lanes.filter((l) => l.source === "trtllm");
      expect(engine[0].detail).toContain(`request id ${c.x}`);
      expect(engine[0].endMs).toBeCloseTo(90, 3);
      expect(engine[0].firstTokenMs).toBeCloseTo(20, 3);
      expect(engine.length).toBeGreaterThan(2);
      expect(j.gaps.e2eMs).toBeCloseTo(c.e2eMs - 90, 3);
      expect(j.gaps.ttftMs).toBeCloseTo(c.ttftMs - 20, 3);
      expect(j.gaps.sendMs).toBeNull();
    }

    // The request no aiperf record names: its engine segments alone, and which file lacks the id.
    const alone = journeys.find((j) => j.xRequestId === null)!;
    expect(alone.lanes.length).toBeGreaterThan(2);
    expect(alone.lanes.every((l) => l.source === "trtllm")).toBe(true);
    expect(alone.gaps).toEqual({ sendMs: null, ttftMs: null, e2eMs: null });
    expect(alone.missing).toEqual([
      `${WORKER_FILE} has no request id the client's requests also carry, and run/profile_export.jsonl holds none of this request's ids (disagg request id none, request id 9001, ctx request id none): TensorRT-LLM's ids are its own, so the client's view of this request and the network/client gap cannot be shown`,
    ]);

    // The run's gap over the joined requests, from TensorRT-LLM's side.
    const s = await summaryOf(id);
    expect(s).toMatchObject({
      joined: 4,
      clientRequests: 6,
      serverSource: "trtllm",
      joinedBy: { spans: 0, trace: 0, trtllm: 4 },
      sendGapMs: null,
    });
    const e2e = clients.slice(0, 4).map((c) => c.e2eMs - 90);
    expect(s.e2eGapMs!.count).toBe(4);
    expect(s.e2eGapMs!.p50).toBeCloseTo(pct(e2e, 50), 3);
    expect(s.e2eGapMs!.p99).toBeCloseTo(pct(e2e, 99), 3);
    expect(s.ttftGapMs!.p90).toBeCloseTo(
      pct(
        clients.slice(0, 4).map((c) => c.ttftMs - 20),
        90,
      ),
      3,
    );
    expect(s.notes).toContain(
      `TensorRT-LLM's stamps are its engine's steady clock, not the wall clock: the 4 requests joined to ${WORKER_FILE} have no send gap; their TTFT and end-to-end gaps are differences of durations`,
    );
  });

  it("the run's gap takes every joined request, Dynamo's trace first, TensorRT-LLM's records for the rest", async () => {
    const { clients, files } = await aiperfRun(6, 8);
    // TensorRT-LLM names clients 0–3, Dynamo's trace clients 2–4: 2 and 3 take the trace.
    const lines = clients
      .slice(0, 4)
      .map((c, i) => workerRecordLine({ requestId: c.x, t: 50 + i, ms: AGGREGATED_MS }));
    const traced = clients.slice(2, 5);
    const trace = dynamoRequestTrace({
      requests: traced.length,
      ids: traced.map((c) => c.x),
      receivedMs: traced.map((c) => Number(c.startNs / 1000n) / 1000 + 0.3),
    });
    const id = await uploadRun([
      ...files,
      { name: WORKER_FILE, content: lines.join("\n") + "\n" },
      { name: "run/dynamo-request-trace.jsonl", content: trace.text },
    ]);
    const s = await summaryOf(id);
    expect(s).toMatchObject({
      joined: 5,
      clientRequests: 6,
      serverSource: "trace",
      joinedBy: { spans: 0, trace: 3, trtllm: 2 },
    });
    const rows = trace.rows
      .filter((r) => r.event_type === "request_end")
      .map((r) => r.request as { x_request_id: string; total_time_ms: number; ttft_ms: number });
    const byX = new Map(rows.map((r) => [r.x_request_id, r]));
    const e2e = [
      ...clients.slice(0, 2).map((c) => c.e2eMs - 90),
      ...traced.map((c) => c.e2eMs - byX.get(c.x)!.total_time_ms),
    ];
    expect(s.e2eGapMs!.count).toBe(5);
    expect(s.e2eGapMs!.p50).toBeCloseTo(pct(e2e, 50), 3);
    expect(s.e2eGapMs!.p90).toBeCloseTo(pct(e2e, 90), 3);
    const ttft = [
      ...clients.slice(0, 2).map((c) => c.ttftMs - 20),
      ...traced.map((c) => c.ttftMs - byX.get(c.x)!.ttft_ms),
    ];
    expect(s.ttftGapMs!.p50).toBeCloseTo(pct(ttft, 50), 3);
    // The send gap is the trace's alone: TensorRT-LLM's stamps are not on the wall clock.
    expect(s.sendGapMs!.count).toBe(3);
    expect(s.sendGapMs!.p50).toBeCloseTo(0.3, 3);
  });

  it("keeps TensorRT-LLM's 64-bit disaggregated request ids exact: each worker joins its own request, and a client's id equal to one joins it", async () => {
    // Four requests of one millisecond on one node and process, 35 days after the host's boot:
    // snowflakes a counter apart, far beyond a double's 53 bits.
    const ids = [0, 1, 2, 3].map((counter) =>
      snowflakeId({ monotonicMs: 3_024_000_000, node: 3, processId: 1, counter }),
    );
    expect(ids.every((x) => x > BigInt(Number.MAX_SAFE_INTEGER))).toBe(true);
    const { clients, files } = await aiperfRun(4, 11, (_x, i) => String(ids[i]));
    const T = 3_024_000;
    const disagg: string[] = [];
    const gen: string[] = [];
    ids.forEach((sid, i) => {
      const t = T + i * 0.001;
      const genMs = {
        serverArrival: 32,
        arrival: 33,
        scheduled: 35,
        firstToken: 36,
        serverFirstToken: 38 + i,
        lastToken: 140 + 10 * i,
      };
      disagg.push(
        disaggRecordLine({
          ctxServer: "ctx0:8001",
          genServer: "gen0:8002",
          t,
          ms: { dispatch: 2, firstToken: 40 + i },
          ctx: {
            requestId: sid,
            ctxRequestId: sid,
            t,
            ms: {
              serverArrival: 3,
              arrival: 4,
              scheduled: 6,
              firstToken: 30,
              serverFirstToken: 31,
              lastToken: 30,
            },
          },
          gen: { requestId: sid, ctxRequestId: sid, t, ms: genMs, firstIter: 2, lastIter: 40 },
          disaggRequestId: sid,
        }),
      );
      gen.push(
        workerRecordLine({
          requestId: sid,
          ctxRequestId: sid,
          disaggRequestId: sid,
          t,
          ms: genMs,
          firstIter: 2,
          lastIter: 40,
        }),
      );
    });
    const id = await uploadRun([
      ...files,
      { name: "run/perf_metrics-disagg-node0-77-20260801T120000Z.jsonl", content: disagg.join("\n") + "\n" },
      { name: "run/perf_metrics-server-gen0-78-20260801T120000Z.jsonl", content: gen.join("\n") + "\n" },
    ]);
    const rows = await storedTrtllmRows(env.app.store.db, id);
    // Every id as written, digit for digit; each request's own generation record joined to it:
    // E2E = TTFT (40 + i) + its generation tokens after its first response (140 + 10i − 38 − i).
    expect(rows.map((r) => r.disagg_request_id)).toEqual(ids.map(String));
    rows.forEach((r, i) => {
      expect(r.gen_worker).toBe("perf_metrics-server-gen0-78-20260801T120000Z");
      expect(r.ttft_ms).toBeCloseTo(40 + i, 3);
      expect(r.e2e_ms).toBeCloseTo(142 + 10 * i, 3);
    });

    const s = await summaryOf(id);
    expect(s).toMatchObject({ joined: 4, joinedBy: { spans: 0, trace: 0, trtllm: 4 } });
    const { journeys } = await barJourneys(id);
    expect(journeys.map((j) => j.xRequestId)).toEqual(ids.map(String));
    journeys.forEach((j, i) => {
      const c = clients.find((x) => x.x === String(ids[i]))!;
      expect(j.lanes.find((l) => l.source === "trtllm")!.detail).toContain(`disagg request id ${ids[i]}`);
      expect(j.gaps.e2eMs).toBeCloseTo(c.e2eMs - (142 + 10 * i), 3);
    });
  });
});
