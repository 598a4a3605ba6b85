/**
 * TensorRT-LLM's per-request perf metrics on one request's journey through the routes
 * (docs/metrics.md §Client to engine). aiperf records (test/generators/aiperf.mjs) are uploaded
 * with a TensorRT-LLM worker JSONL written after `tensorrt_llm/serve/_perf_metrics_schema.py`
 * (`WorkerPerfMetricsRecord`: `request_id` int or str, `status`, `perf_metrics.timing_metrics`).
 * Where a record's `request_id` is the client's `x_request_id` its segments are drawn; the real
 * disaggregated `/perf_metrics` excerpt (ids of its own only) is the case with no shared id. A
 * run holding TensorRT-LLM records draws its timeline from them, so the join is read from the
 * stored run here rather than through an aiperf request's drill-down route.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { requestJourney } from "@/lib/metrics/request-journey";
import { trtllmEngineOf } from "@/lib/runs/request-journey";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { clientsOfAiperf } from "../generators/dynamo-otlp.mjs";
import { describeRealPublic, realPublicFile } from "../helpers/real-public";
import { freshAppEachTest, uploadRun } from "../helpers/test-app";

const env = freshAppEachTest();

/**
 * The journey of the aiperf request `x` with the run's TensorRT-LLM request joined: the stored
 * rows read back (lib/runs/request-journey.ts trtllmEngineOf) and drawn under the client's lane.
 */
async function journeyOfX(id: string, c: { x: string; ttftMs: number; e2eMs: number }) {
  const engine = await trtllmEngineOf(env.app.store.db, id, c.x);
  expect(engine).not.toBeNull();
  const client = { xRequestId: c.x, sendEpochMs: 1_760_000_000_000, ttftMs: c.ttftMs, e2eMs: c.e2eMs };
  return requestJourney(client, null, null, engine!.note ? [engine!.note] : [], engine!.join);
}

/** One aggregated worker record: arrival at t, first token +20 ms, last token +90 ms (steady clock). */
const workerLine = (requestId: string | number, t: number) =>
  JSON.stringify({
    request_id: requestId,
    status: "complete",
    perf_metrics: {
      first_iter: 1,
      last_iter: 9,
      timing_metrics: {
        server_arrival_time: t,
        arrival_time: t + 0.001,
        first_scheduled_time: t + 0.003,
        first_token_time: t + 0.018,
        server_first_token_time: t + 0.02,
        last_token_time: t + 0.09,
      },
    },
  });

describe("TensorRT-LLM per-request metrics on the journey (routes)", () => {
  it("draws the engine segments of the record whose request_id is the client's x_request_id", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "journey-trt-"));
    const gen = await generateAiperfRun(dir, { records: 6, concurrency: 1, seed: 3, csv: false });
    const clients = clientsOfAiperf(fs.readFileSync(gen.jsonlPath, "utf8"));
    const x = clients[0].x as string;
    const lines = [workerLine(x, 812.5), workerLine(9001, 813.5)].join("\n") + "\n";
    const id = await uploadRun([
      { name: "run/profile_export.jsonl", path: gen.jsonlPath },
      { name: "run/profile_export_aiperf.json", path: gen.summaryPath },
      { name: "run/perf_metrics-worker.jsonl", content: lines },
    ]);
    fs.rmSync(dir, { recursive: true, force: true });
    const j = await journeyOfX(id, clients[0]);
    expect(j.serverSource).toBe("trtllm");
    const engine = j.lanes.filter((l) => l.source === "trtllm");
    expect(engine[0]).toMatchObject({ label: "TensorRT-LLM server: arrival → end (its E2E)", startMs: 0 });
    expect(engine[0].endMs).toBeCloseTo(90, 6);
    expect(engine[0].firstTokenMs).toBeCloseTo(20, 6);
    expect(engine[0].detail).toContain(`request id ${x}`);
    expect(engine.length).toBeGreaterThan(2);
    expect(j.gaps.e2eMs).toBeCloseTo(clients[0].e2eMs - 90, 6);
    expect(j.gaps.ttftMs).toBeCloseTo(clients[0].ttftMs - 20, 6);
    expect(j.missing.join(" ")).toContain(
      "Joined TensorRT-LLM's record by its request id. Network/client gap",
    );
  });
});

const FOLDER = "trtllm-1.2.1-disagg-perf-metrics-ddps-lab";
const FILE = "kv_transfer_p2048_d128_r1.0.EXCERPT-first27.json";
describeRealPublic(FOLDER, () => {
  it("the real /perf_metrics excerpt shares no id with the aiperf records: one line names the file and the field", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "journey-trt-"));
    const gen = await generateAiperfRun(dir, { records: 4, concurrency: 1, seed: 4, csv: false });
    const clients = clientsOfAiperf(fs.readFileSync(gen.jsonlPath, "utf8"));
    const id = await uploadRun([
      { name: "run/profile_export.jsonl", path: gen.jsonlPath },
      { name: "run/profile_export_aiperf.json", path: gen.summaryPath },
      { name: `run/${FILE}`, path: realPublicFile(FOLDER, FILE) },
    ]);
    fs.rmSync(dir, { recursive: true, force: true });
    const j = await journeyOfX(id, clients[0]);
    expect(j.lanes.every((l) => l.source !== "trtllm")).toBe(true);
    expect(j.missing).toContain(
      `run/${FILE} has no request id the client's requests also carry: its disagg request id, request id and ctx request id are TensorRT-LLM's own, and none equals the id the client sent with this request (the client's x_request_id, ${clients[0].x}), so this request's engine segments cannot be shown`,
    );
  });
});
