/**
 * TensorRT-LLM's time events joined to a request (lib/metrics/trtllm-time-event-join.ts, docs/metrics.md
 * §Client to engine, time-event lanes): the lines as `tensorrt_llm/serve/scripts/perf_time_events/
 * perf_time_events.py` describes them (per-event envelope; the first generation's per-request line
 * with `request_timing_metrics`, `perf_metrics_manager.py` at 04f7582ba6c536d7c43c5fd093b0918ccffd7980).
 */
import { describe, expect, it } from "vitest";
import { parseTimeEventsText, timeEventOf } from "@/lib/formats/trtllm-time-events";
import { emptyTimes } from "@/lib/metrics/time-breakdown";
import {
  MAX_STORED_TIME_EVENT_REQUESTS,
  TimeEventIndex,
  TimeEventsGather,
  timeEventLanes,
  timeEventsJoinCounts,
} from "@/lib/metrics/trtllm-time-event-join";

function gather(files: Array<[string, string[]]>) {
  const g = new TimeEventsGather();
  for (const [name, lines] of files) {
    g.startFile(name);
    for (const l of lines) {
      const e = timeEventOf(parseTimeEventsText(l));
      if (e) g.add(e);
    }
  }
  return g.payload();
}

describe("time events joined to a request", () => {
  it("keeps requests up to its bound and counts the rest, a tensor-parallel rank's copy not a second request", () => {
    const g = new TimeEventsGather();
    const add = (rank: number, n: number) => {
      g.startFile(`time_events_rank${rank}_pid3.jsonl`);
      for (let i = 0; i < n; i++)
        g.add({
          role: "gen",
          event: "gen_arrival",
          requestId: String(i),
          ctxRequestId: String(i),
          disaggRequestId: null,
          stamps: [{ event: "gen_arrival", t: i + rank / 10 }],
        });
    };
    add(0, MAX_STORED_TIME_EVENT_REQUESTS + 2);
    add(1, 3);
    const p = g.payload();
    expect(p.requests).toHaveLength(MAX_STORED_TIME_EVENT_REQUESTS);
    expect(p.leftOut).toBe(2);
    expect(p.files).toEqual([
      { file: "time_events_rank0_pid3.jsonl", requests: MAX_STORED_TIME_EVENT_REQUESTS + 2 },
      { file: "time_events_rank1_pid3.jsonl", requests: 3 },
    ]);
    // Rank 1's copies of requests 0–2 are not kept: rank 0's stamps stand.
    expect(p.requests[1]).toMatchObject({ file: 0, events: [{ event: "gen_arrival", t: 1 }] });
  });

  it("a ctx_request_id every gen request reports (the gen-only benchmark's 1) is no key; request_id still is where no ctx id is given", () => {
    const line = (rid: number, event: string, t: number) =>
      `{"role": "gen", "event": "${event}", "request_id": ${rid}, "ctx_request_id": 1, "rank": 0, "t": ${t}, "pid": 5}`;
    const payload = gather([
      ["time_events_rank0_pid5.jsonl", [line(7, "gen_arrival", 10), line(8, "gen_arrival", 11)]],
    ]);
    const index = new TimeEventIndex(payload);
    expect(index.match({ requestId: null, ctxRequestId: "1", disaggRequestId: null })).toEqual([]);
    expect(
      timeEventsJoinCounts(
        payload,
        { requestIds: new Set(["7"]), ctxRequestIds: new Set(["1"]), disaggRequestIds: new Set() },
        null,
      ),
    ).toEqual([{ role: "gen", requests: 2, joinedPerfMetrics: 0, joinedClient: null }]);
  });

  it("a per-request line's request_timing_metrics are its events, set against the aggregated request's ctx stamps", () => {
    const payload = gather([
      [
        "time_events_rank0_pid9.jsonl",
        [
          '{"request_id": 42, "rank": 0, "ctx_request_id": null, "time_breakdown_metrics": {"step_metrics": []}, "request_timing_metrics": {"arrival_time": 100.001, "first_scheduled_time": 100.003, "first_token_time": 100.018, "last_token_time": 100.09}}',
          '{"request_id": 43, "rank": 0, "ctx_request_id": null, "time_breakdown_metrics": {"step_metrics": []}}',
        ],
      ],
    ]);
    const index = new TimeEventIndex(payload);
    const m = index.match({ requestId: "42", ctxRequestId: null, disaggRequestId: null });
    expect(m.map((x) => [x.request.role, x.by])).toEqual([["request", "request_id"]]);
    // The run's origin is 100 s; the request's stored ctx stamps (s from it) are the line's.
    const times = {
      ...emptyTimes(),
      ctxServerArrival: 0,
      ctxArrival: 0.001,
      ctxFirstScheduled: 0.003,
      ctxFirstToken: 0.018,
      ctxLastToken: 0.09,
    };
    const { lanes, notes } = timeEventLanes(m, { times, originS: 100 }, payload.files);
    expect(lanes).toHaveLength(1);
    expect(lanes[0].role).toBe("worker");
    expect(lanes[0].ticks.map((t) => [t.label, Number(t.atMs.toFixed(3))])).toEqual([
      ["arrival_time", 1],
      ["first_scheduled_time", 3],
      ["first_token_time", 18],
      ["last_token_time", 90],
    ]);
    expect(notes[0]).toMatch(
      /agrees with the perf metrics' within 1 ms .* at arrival_time against ctxArrival\): drawn as written$/,
    );
    // Without request_timing_metrics the line has no moments: said, not drawn.
    const bare = timeEventLanes(
      index.match({ requestId: "43", ctxRequestId: null, disaggRequestId: null }),
      { times, originS: 100 },
      payload.files,
    );
    expect(bare.lanes).toEqual([]);
    expect(bare.notes[0]).toContain(
      "its line carries no timestamps (request_timing_metrics is written only with return_perf_metrics on)",
    );
  });
});
