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
  TimeEventIndex,
  TimeEventsOfFile,
  timeEventLanes,
  timeEventRequestsOf,
  timeEventsJoinCounts,
  type TimeEventPiece,
} from "@/lib/metrics/trtllm-time-event-join";

function gather(files: Array<[string, string[]]>) {
  const pieces: TimeEventPiece[] = [];
  files.forEach(([, lines], n) => {
    const f = new TimeEventsOfFile(n);
    for (const l of lines) {
      const e = timeEventOf(parseTimeEventsText(l));
      const p = e && f.add(e);
      if (p) pieces.push(p);
    }
    pieces.push(...f.end());
  });
  return {
    files: files.map(([file]) => ({ file, requests: 0 })),
    leftOut: 0,
    requests: timeEventRequestsOf(pieces),
  };
}

describe("time events joined to a request", () => {
  it("hands a request's piece out at its last event, holding only requests in flight; every request kept, a tensor-parallel rank's copy not a second request", () => {
    const pieces: TimeEventPiece[] = [];
    const N = 60_002;
    const add = (rank: number, n: number) => {
      const f = new TimeEventsOfFile(rank);
      for (let i = 0; i < n; i++)
        for (const [event, dt] of [
          ["gen_arrival", 0],
          ["gen_last_token", 0.5],
        ] as const) {
          const p = f.add({
            role: "gen",
            event,
            requestId: String(i),
            ctxRequestId: String(i),
            disaggRequestId: null,
            stamps: [{ event, t: i + dt + rank / 10 }],
          });
          if (p) pieces.push(p);
        }
      pieces.push(...f.end());
      return f.maxPending;
    };
    // One request in flight at a time: one held, whatever the file's size.
    expect(add(0, N)).toBe(1);
    add(1, 3);
    const requests = timeEventRequestsOf(pieces);
    expect(requests).toHaveLength(N);
    // Rank 1's copies of requests 0–2 are not kept: rank 0's stamps stand.
    expect(requests[1]).toMatchObject({
      file: 0,
      events: [
        { event: "gen_arrival", t: 1 },
        { event: "gen_last_token", t: 1.5 },
      ],
    });
    expect(requests[N - 1]).toMatchObject({ requestId: String(N - 1), file: 0 });
  });

  it("a request that never reached its last event is handed out at the file's end, with the events it reached", () => {
    const f = new TimeEventsOfFile(0);
    const line = (event: string, t: number) =>
      timeEventOf(
        parseTimeEventsText(
          `{"role": "ctx", "event": "${event}", "request_id": 9, "ctx_request_id": 9, "rank": 0, "t": ${t}, "pid": 5}`,
        ),
      )!;
    expect(f.add(line("ctx_arrival", 1))).toBeNull();
    expect(f.add(line("ctx_first_scheduled", 2))).toBeNull();
    expect(f.end()).toEqual([
      {
        role: "ctx",
        reqKey: "9",
        requestId: "9",
        ctxRequestId: "9",
        disaggRequestId: null,
        file: 0,
        events: [
          { event: "ctx_arrival", t: 1 },
          { event: "ctx_first_scheduled", t: 2 },
        ],
      },
    ]);
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
