/**
 * TensorRT-LLM's per-request metrics as the client kept them (docs/formats.md §TensorRT-LLM metrics
 * in responses), through the upload: aiperf's raw export (`--export-level raw`, the
 * `trtllm.perf_metrics` SSE event after `[DONE]` among a record's responses, its
 * `metadata.x_request_id` the client's id) beside aiperf's records, and an HTTP capture (`curl
 * -i`), which carries no id. The fields are written by test/generators/trtllm-response-metrics.mjs
 * after NVIDIA/TensorRT-LLM `tensorrt_llm/serve/perf_metrics.py` `build_metrics_headers()` /
 * `build_metrics_sse_event()` and the `_record()` fixture of
 * `tests/unittest/llmapi/apps/test_request_metrics.py`, the raw lines after ai-dynamo/aiperf
 * `src/aiperf/post_processors/raw_record_writer_processor.py` and `src/aiperf/transports/sse_utils.py`.
 */
import { describe, expect, it } from "vitest";
import {
  aiperfRawLine,
  buildMetricsHeaders,
  curlNonStreamed,
  curlStreamed,
  recordFixture,
} from "../generators/trtllm-response-metrics.mjs";
import { aiperfRun, trtllmJourneys } from "../helpers/journey-runs";
import { readReadyRun } from "../helpers/read-api";
import { freshAppEachTest, uploadRun } from "../helpers/test-app";
import { storedTrtllmRows } from "../helpers/trtllm-request-rows";

const env = freshAppEachTest();

const RAW_FILE = "run/profile_export_raw.jsonl";

/** `_record()`'s request moved to arrive at `t` s: queue 10 ms, TTFT 20 ms, E2E 50 ms, step 3, chunk 0. */
function headersAt(t: number) {
  const shift = (steps: Array<Record<string, number>>) =>
    steps.map((s) =>
      Object.fromEntries(
        Object.entries(s).map(([k, v]) => [
          k,
          k.endsWith("_start_time") || k.endsWith("_end_time") ? v - 1 + t : v,
        ]),
      ),
    );
  const base = recordFixture() as {
    phases: { server: { time_breakdown_metrics: { step_metrics: never[]; ctx_chunk_metrics: never[] } } };
  };
  const tbm = base.phases.server.time_breakdown_metrics;
  return buildMetricsHeaders(
    recordFixture({
      arrival: t,
      scheduled: t + 0.01,
      firstToken: t + 0.02,
      lastToken: t + 0.05,
      steps: shift(tbm.step_metrics),
      chunks: shift(tbm.ctx_chunk_metrics),
    }),
  );
}

describe("TensorRT-LLM's metrics kept by the client, through the upload", () => {
  it("aiperf's raw export: joined to aiperf's records by x_request_id, on the Timeline, the Breakdown and the steps", async () => {
    const { clients, files } = await aiperfRun(6, 5);
    const lines = [
      ...clients.slice(0, 4).map((c, i) => aiperfRawLine({ xRequestId: c.x, headers: headersAt(100 + i) })),
      // The server answered without metrics (return_perf_metrics off, or no X-TRTLLM-return-metrics).
      aiperfRawLine({ xRequestId: clients[4].x }),
      // An event whose data is not JSON, and one whose field is malformed.
      aiperfRawLine({ xRequestId: clients[5].x, eventData: "{not json" }),
      aiperfRawLine({
        xRequestId: "no-such-client",
        eventData: JSON.stringify({
          ...headersAt(110),
          "Server-Timing": "server_queue;dur=oops, server_ttft;dur=20.000000",
        }),
      }),
      // A record with no x_request_id.
      aiperfRawLine({ headers: headersAt(120) }),
    ];
    const id = await uploadRun([...files, { name: RAW_FILE, content: lines.join("\n") + "\n" }]);

    const raw = (await readReadyRun(id)).files.get(RAW_FILE)!;
    expect(raw).toMatchObject({ kind: "trtllm-perf-metrics", format: "aiperf-raw", records: 6, skipped: 1 });
    expect(raw.warnings).toEqual([
      { line: 6, message: "skipped: trtllm.perf_metrics event data is not JSON" },
      { line: 7, message: "malformed metric field skipped: Server-Timing: server_queue;dur=oops" },
      {
        message:
          "1 record of 8 without a trtllm.perf_metrics event (the server's return_perf_metrics off, the request without X-TRTLLM-return-metrics: 1, or a non-streamed response, whose metrics headers aiperf's raw export does not keep)",
      },
      { message: "1 malformed metric field skipped" },
      {
        message: `${RAW_FILE} has no request id for 1 request (the client's x_request_id, in each record's metadata): they are counted and broken down, but cannot be matched to the client's requests`,
      },
    ]);

    // The request rows: the producer's units read back (dur ms, ts s).
    const rows = await storedTrtllmRows(env.app.store.db, id);
    expect(rows).toHaveLength(6);
    // The Breakdown's segments of an aggregated server (preprocessing, queue, prefill,
    // postprocessing, decode): no server arrival or server first token is sent, so the first and
    // fourth are not recorded; queue 10, prefill 20 − 10, decode 50 − 20.
    const segments = rows.map((r) =>
      (JSON.parse(r.segments_json) as Array<number | null>).map((v) => v && Math.round(v * 1e6) / 1e6),
    );
    expect(segments.filter((s) => s[1] === 10)).toHaveLength(5);
    for (const s of segments.filter((s) => s[1] === 10)) expect(s).toEqual([null, 10, 10, null, 30]);
    // The malformed queue: no first-scheduled time, so no queue and no prefill; decode stands.
    expect(segments.filter((s) => s[1] !== 10)).toEqual([[null, null, null, null, 30]]);
    // The malformed queue leaves the rest of its record: every row has its TTFT and E2E.
    for (const r of rows) {
      expect(r.ttft_ms).toBeCloseTo(20, 6);
      expect(r.e2e_ms).toBeCloseTo(50, 6);
      // [kind, iter, startMs, forwardMs, updateMs, sampleMs, gpuForwardMs, gpuSampleMs]: no stamps
      // were sent, so no start and no update time; the durations as sent.
      expect(JSON.parse(r.steps_json)).toEqual([
        [0, null, null, 4, null, 1, 3, 0.25],
        [1, 3, null, 2, null, 1, 1.5, 0.5],
      ]);
    }

    // The Timeline's bars are TensorRT-LLM's requests; four join the client's records.
    const { joined } = await trtllmJourneys(id, clients.slice(0, 4));
    for (const j of joined) {
      const c = clients.find((x) => x.x === j.xRequestId)!;
      const engine = j.lanes.filter((l) => l.source === "trtllm");
      expect(engine[0].endMs).toBeCloseTo(50, 3);
      expect(engine[0].firstTokenMs).toBeCloseTo(20, 3);
      expect(j.gaps.e2eMs).toBeCloseTo(c.e2eMs - 50, 3);
      expect(j.gaps.ttftMs).toBeCloseTo(c.ttftMs - 20, 3);
    }
  });

  it("an HTTP capture: read, counted, and said not to join, its file named", async () => {
    const h = headersAt(5);
    const text =
      curlNonStreamed(h) + curlStreamed(h) + curlStreamed({}) + curlNonStreamed(h, { requestId: "echoed-1" });
    const id = await uploadRun([{ name: "capture.txt", content: text }]);
    const f = (await readReadyRun(id)).files.get("capture.txt")!;
    expect(f).toMatchObject({ kind: "trtllm-perf-metrics", format: "http-capture", records: 3, skipped: 0 });
    expect(f.warnings).toEqual([
      { message: "1 response of 4 without TensorRT-LLM metrics headers or a trtllm.perf_metrics event" },
      {
        message:
          "capture.txt has no request id for 2 responses: TensorRT-LLM does not send back the id the client sent (the client's x_request_id, an X-Request-ID header), so they are counted and broken down, but cannot be matched to the client's requests",
      },
    ]);
    const rows = await storedTrtllmRows(env.app.store.db, id);
    expect(rows.map((r) => r.ttft_ms)).toEqual([20, 20, 20].map((v) => expect.closeTo(v, 6)));
  });
});
