/**
 * TensorRT-LLM's per-request perf metrics on one request's journey (docs/metrics.md §Client to
 * engine). The generated records follow TensorRT-LLM's record schema
 * (`tensorrt_llm/serve/_perf_metrics_schema.py`: `WorkerPerfMetricsRecord` with `request_id`,
 * `ctx_request_id`, `disagg_request_id`, `status`, `perf_metrics.timing_metrics`;
 * `DisaggPerfMetricsRecord` with `ctx_server`, `gen_server`, `disagg_server_arrival_time`,
 * `disagg_ctx_dispatch_time`, `disagg_server_first_token_time`, `disagg_request_id` and the
 * workers' `ctx_perf_metrics`/`gen_perf_metrics`), as `tensorrt_llm/serve/perf_metrics.py` pairs
 * them by `ctx_request_id`. None of those ids is the client's `x-request-id`; the join holds only
 * where the client's id was the server's. The real disaggregated `/perf_metrics` excerpt is the
 * case with no shared id.
 */
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { parseTrtllmRecord, type TrtllmDisaggRecord } from "@/lib/formats/trtllm-record";
import { engineJoinOf, requestJourney, type ClientRequest } from "@/lib/metrics/request-journey";
import { joinTrtllm } from "@/lib/metrics/trtllm-join";
import { describeRealPublic, realPublicFile } from "../helpers/real-public";

/** Steady-clock seconds; the client's send is on the wall clock, far from them. */
const T = 5000;
const worker = (requestId: number, t: Record<string, number>) => ({
  request_id: requestId,
  ctx_request_id: 77,
  perf_metrics: { timing_metrics: t },
});
/** One disaggregated request: arrival T, ctx dispatch +2 ms, first token +40 ms, last token +140 ms. */
const disaggRecord = (disaggId: number) => ({
  ctx_server: "ctx0:8001",
  gen_server: "gen0:8002",
  disagg_server_arrival_time: T,
  disagg_ctx_dispatch_time: T + 0.002,
  disagg_server_first_token_time: T + 0.04,
  status: "complete",
  disagg_request_id: disaggId,
  ctx_perf_metrics: worker(77, {
    server_arrival_time: T + 0.003,
    arrival_time: T + 0.004,
    first_scheduled_time: T + 0.006,
    first_token_time: T + 0.03,
    server_first_token_time: T + 0.031,
    last_token_time: T + 0.03,
  }),
  gen_perf_metrics: worker(78, {
    server_arrival_time: T + 0.032,
    arrival_time: T + 0.033,
    first_scheduled_time: T + 0.035,
    first_token_time: T + 0.036,
    server_first_token_time: T + 0.038,
    last_token_time: T + 0.14,
  }),
});

function joined(records: unknown[]) {
  const disaggs = records.map((v) => {
    const p = parseTrtllmRecord(v);
    if (!("record" in p) || p.record.type !== "disagg") throw new Error("not a disagg record");
    return { rec: p.record as TrtllmDisaggRecord, file: 0 };
  });
  return [...joinTrtllm(disaggs, [], 1, ["perf_metrics-disagg.jsonl"]).requests];
}

/** The client: sent at a wall-clock time, TTFT 55 ms, end to end 170 ms. */
const client = (x: string | null): ClientRequest => ({
  xRequestId: x,
  sendEpochMs: 1_760_000_000_000,
  ttftMs: 55,
  e2eMs: 170,
});

describe("TensorRT-LLM per-request metrics on the journey", () => {
  it("joins the record whose disagg_request_id equals the client's x_request_id and draws its segments under the client", () => {
    const requests = joined([disaggRecord(4241), disaggRecord(4242)]);
    const { join, note } = engineJoinOf("4242", requests, "perf_metrics-disagg.jsonl");
    expect(note).toBeNull();
    expect(join?.field).toBe("disagg_request_id");
    const j = requestJourney(client("4242"), null, null, [], join);
    expect(j.serverSource).toBe("trtllm");
    const [clientLane, server, ...segments] = j.lanes;
    expect(clientLane).toMatchObject({ source: "aiperf", startMs: 0, endMs: 170, firstTokenMs: 55 });
    // The steady clock has no wall-clock reading: the engine's arrival is placed at the send.
    expect(server.source).toBe("trtllm");
    expect(server.startMs).toBe(0);
    // Its end is the server's E2E as the Latency view defines it: TTFT (40 ms, the disagg
    // server's first token) + the generation server's tokens after its own first response
    // (140 − 38 = 102 ms), so 142 ms, not the engine's last token at 140 ms.
    expect(server.endMs).toBeCloseTo(142, 6);
    expect(server.firstTokenMs).toBeCloseTo(40, 6);
    // Named in words; the record field it was joined by is the lane's tooltip only.
    expect(server.detail).toContain("disagg request id 4242");
    expect(server.name).toBe("joined by disagg_request_id");
    for (const l of j.lanes) expect(`${l.label} ${l.detail ?? ""}`).not.toMatch(/[a-z]+_[a-z_]+/);
    expect(segments.length).toBeGreaterThan(3);
    for (const s of segments) {
      expect(s.source).toBe("trtllm");
      expect(s.startMs).toBeGreaterThanOrEqual(-1e-9);
      expect(s.endMs).toBeLessThanOrEqual(140 + 1e-9);
    }
    const names = segments.map((s) => s.name);
    expect(names).toContain("ctx_queue");
    expect(names).toContain("decode");
    // ctx_queue: arrival_time → first_scheduled_time on the ctx worker, 4 → 6 ms after the arrival.
    const queue = segments[names.indexOf("ctx_queue")];
    expect(queue.startMs).toBeCloseTo(4, 6);
    expect(queue.endMs).toBeCloseTo(6, 6);
    // The gap, named: differences of durations only.
    expect(j.gaps.e2eMs).toBeCloseTo(28, 6);
    expect(j.gaps.ttftMs).toBeCloseTo(15, 6);
    expect(j.gaps.sendMs).toBeNull();
    expect(
      j.missing.some((m) => m.includes("Network/client gap: end to end 28.000 ms, TTFT 15.000 ms")),
    ).toBe(true);
  });

  it("joins on a worker's request_id when that is the client's id", () => {
    const { join } = engineJoinOf("78", joined([disaggRecord(1)]), "f.jsonl");
    expect(join?.field).toBe("request_id");
  });

  it("says in one line which file lacks the id when no TensorRT-LLM id equals the client's", () => {
    const r = engineJoinOf("9f1c-uuid", joined([disaggRecord(4242)]), "perf_metrics-disagg.jsonl");
    expect(r.join).toBeNull();
    expect(r.note).toBe(
      "perf_metrics-disagg.jsonl has no request id the client's requests also carry: its disagg request id, request id and ctx request id are TensorRT-LLM's own, and none equals the id the client sent with this request (the client's x_request_id, 9f1c-uuid), so this request's engine segments cannot be shown",
    );
    const j = requestJourney(client("9f1c-uuid"), null, null, [r.note!], null);
    expect(j.lanes.map((l) => l.source)).toEqual(["aiperf"]);
    expect(j.missing).toEqual([r.note]);
  });
});

const FOLDER = "trtllm-1.2.1-disagg-perf-metrics-ddps-lab";
const FILE = "kv_transfer_p2048_d128_r1.0.EXCERPT-first27.json";
describeRealPublic(FOLDER, () => {
  it("the real disaggregated /perf_metrics records share no id with an aiperf record: the line names the file and the field", () => {
    const records = JSON.parse(fs.readFileSync(realPublicFile(FOLDER, FILE), "utf8")) as unknown[];
    const requests = joined(records);
    expect(requests.length).toBe(27);
    // aiperf writes a UUID as x_request_id; TensorRT-LLM's ids are its own integers.
    const x = "0b3e4c1a-6f2d-4d8e-9a57-1c2b3d4e5f60";
    const r = engineJoinOf(x, requests, FILE);
    expect(r.join).toBeNull();
    expect(r.note).toContain(`${FILE} has no request id the client's requests also carry`);
    expect(r.note).toContain(`(the client's x_request_id, ${x})`);
    const j = requestJourney(client(x), null, null, [r.note!], null);
    expect(j.lanes.every((l) => l.source !== "trtllm")).toBe(true);
    expect(j.missing).toEqual([r.note]);
  });
});
