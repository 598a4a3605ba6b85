/**
 * TensorRT-LLM's time events on a request's journey and in the run's gap summary (docs/metrics.md
 * §Client to engine, time-event lanes), through the routes, on SQLite and PostgreSQL. The files
 * are written as TensorRT-LLM writes them (test/generators/trtllm-time-events.mjs, after
 * `tensorrt_llm/serve/scripts/perf_time_events/perf_time_events.py` and
 * `tensorrt_llm/serve/perf_time_events_writer.py` at commit
 * 04f7582ba6c536d7c43c5fd093b0918ccffd7980; `t` from `get_steady_clock_now_in_seconds`,
 * `tensorrt_llm/_torch/pyexecutor/perf_metrics_manager.py` at the same commit); the perf metrics
 * as test/generators/trtllm-jsonl-writer.mjs (`tensorrt_llm/serve/perf_metrics.py` of PR #16668,
 * `_perf_metrics_schema.py` at 4856bb733b35c4d512770ef1d109d35d2faf930d), 64-bit snowflake ids
 * (`get_global_disagg_request_id`) shared by the workers as `request_id` and `ctx_request_id`. The
 * router and the gen worker share the disaggregated server's clock; the ctx worker's host clock
 * is 214,421.5 s away.
 */
import { describe, expect, it } from "vitest";
import { GET as getJourney } from "@/app/api/runs/[id]/journey/route";
import { journeySummarySchema, type RequestJourney } from "@/lib/api/request-journey";
import { snowflakeId } from "../generators/trtllm-jsonl-writer.mjs";
import {
  ctxLines,
  genLines,
  jsonLines as file,
  perfRecord,
  routerLines,
} from "../generators/trtllm-time-events.mjs";
import { aiperfRun, barJourneys } from "../helpers/journey-runs";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { idParams, uploadRun } from "../helpers/test-app";

const url = (p: string) => new Request(`http://localhost${p}`);

const EVENTS_DIR = "run/perf_events";
const ROUTER_FILE = `${EVENTS_DIR}/disagg_router_pid31.jsonl`;
const CTX_FILE = `${EVENTS_DIR}/time_events_rank0_pid11.jsonl`;
const GEN_FILE = `${EVENTS_DIR}/time_events_rank0_pid22.jsonl`;
const GEN_RANK1 = `${EVENTS_DIR}/time_events_rank1_pid22.jsonl`;

describe.each(TEST_STORES)("TensorRT-LLM time events on the journey (%s)", (_store, pgUrl) => {
  useStoreTestApp(pgUrl);

  const ids = [0, 1, 2, 3].map((i) =>
    snowflakeId({ monotonicMs: 1_780_000_000_000 + i, node: 3, counter: i }),
  );

  async function disaggRun() {
    const { clients, files } = await aiperfRun(5, 21, (x, i) => (i < 3 ? String(ids[i]) : x));
    // Time events for requests 0–2; request 3 has perf metrics only.
    const three = ids.slice(0, 3);
    const id = await uploadRun([
      ...files,
      {
        name: "run/perf_metrics-disagg-node0-77-20260801T120000Z.jsonl",
        content: ids.map((sid, i) => perfRecord(sid, i)).join("\n") + "\n",
      },
      { name: ROUTER_FILE, content: file(three.flatMap((sid, i) => routerLines(sid, i))) },
      { name: CTX_FILE, content: file(three.flatMap((sid, i) => ctxLines(sid, i))) },
      { name: GEN_FILE, content: file(three.flatMap((sid, i) => genLines(sid, i, 0))) },
      { name: GEN_RANK1, content: file(three.flatMap((sid, i) => genLines(sid, i, 1))) },
    ]);
    return { id, clients };
  }

  it("a TensorRT-LLM request's journey draws its router, ctx and gen time events on its perf-metrics axis, the ctx host's clock offset named", async () => {
    const { id } = await disaggRun();
    const { source, journeys } = await barJourneys(id);
    expect(source).toBe("trtllm");
    expect(journeys).toHaveLength(4);

    const j0 = journeys.find((j) => j.lanes.some((l) => l.detail?.includes(`disagg request id ${ids[0]}`)))!;
    const lanes = j0.lanes.filter((l) => l.source === "time-events");
    expect(lanes.map((l) => l.role)).toEqual(["prefill", "decode", "router"]);
    const [ctx, gen, router] = lanes;
    const tick = (l: RequestJourney["lanes"][number], e: string) => l.ticks.find((t) => t.label === e)!.atMs;
    // Router and gen share the perf metrics' clock: drawn as written.
    expect(tick(router, "arrival")).toBeCloseTo(0, 3);
    expect(tick(router, "ctx_dispatch")).toBeCloseTo(2, 3);
    expect(tick(router, "first_token")).toBeCloseTo(40, 3);
    expect(tick(router, "resp_done")).toBeCloseTo(150, 3);
    expect(router.detail).toBe(`ctx_request_id ${ids[0]}, ${ROUTER_FILE}`);
    expect(tick(gen, "gen_arrival")).toBeCloseTo(33, 3);
    expect(tick(gen, "gen_last_token")).toBeCloseTo(140, 3);
    // The rank-0 copy is kept; rank 1's 0.3 ms later stamps are not a second request.
    expect(gen.ticks).toHaveLength(7);
    // The ctx host's clock is aligned at ctx_arrival = the perf metrics' ctx arrival_time, and said.
    expect(j0.missing).toContain(
      `TensorRT-LLM time events of the generation worker (${GEN_FILE}), joined by ctx_request_id ${ids[0]}: its steady clock agrees with the perf metrics' within 1 ms (0.000 ms at gen_arrival against genArrival): drawn as written`,
    );
    expect(tick(ctx, "ctx_arrival")).toBeCloseTo(4, 3);
    expect(tick(ctx, "ctx_ready_sent")).toBeCloseTo(31, 3);
    expect(ctx.startMs).toBeCloseTo(4, 3);
    expect(ctx.endMs).toBeCloseTo(31, 3);
    expect(j0.missing).toContain(
      `TensorRT-LLM time events of the context worker (${CTX_FILE}), joined by ctx_request_id ${ids[0]}: its clock is 214421.500 s from the perf metrics' (ctx_arrival against ctxArrival; another host's steady clock): aligned there, that offset taken out`,
    );
    expect(
      j0.missing.find((m) => m.startsWith("TensorRT-LLM time events of the disaggregated router")),
    ).toMatch(
      /its steady clock agrees with the perf metrics' within 1 ms \(0\.000 ms at arrival against disaggArrival\): drawn as written$/,
    );

    // Request 2 hung in its KV transfer: its gen lane says where it stopped.
    const j2 = journeys.find((j) => j.lanes.some((l) => l.detail?.includes(`disagg request id ${ids[2]}`)))!;
    const gen2 = j2.lanes.find((l) => l.source === "time-events" && l.role === "decode")!;
    expect(gen2.ticks.map((t) => t.label)).toEqual([
      "gen_arrival",
      "gen_init_scheduled",
      "gen_kv_transfer_start",
    ]);
    expect(gen2.detail).toContain("stopped after gen_kv_transfer_start (no gen_last_token)");

    // Request 3 has no time events: the journey names the files that lack its ids.
    const j3 = journeys.find((j) => j.lanes.some((l) => l.detail?.includes(`disagg request id ${ids[3]}`)))!;
    expect(j3.lanes.some((l) => l.source === "time-events")).toBe(false);
    expect(j3.missing).toContain(
      `${ROUTER_FILE}, ${CTX_FILE}, ${GEN_FILE}, ${GEN_RANK1} names none of this request's ids (request id ${ids[3]}, ctx request id ${ids[3]}, disagg request id ${ids[3]}), so its time events cannot be shown`,
    );

    // The run: how many time-events requests joined, per role.
    const res = await getJourney(url(`/api/runs/${id}/journey`), idParams(id));
    const s = journeySummarySchema.parse(await res.json());
    expect(s.timeEvents).toEqual([
      { role: "router", requests: 3, joinedPerfMetrics: 3, joinedClient: 3 },
      { role: "ctx", requests: 3, joinedPerfMetrics: 3, joinedClient: 3 },
      { role: "gen", requests: 3, joinedPerfMetrics: 3, joinedClient: 3 },
    ]);
    expect(s.notes).toContain(
      `TensorRT-LLM time events (${ROUTER_FILE}, ${CTX_FILE}, ${GEN_FILE}, ${GEN_RANK1}), requests per role: router 3 (joined: 3 to the perf metrics, 3 to aiperf's records); ctx 3 (joined: 3 to the perf metrics, 3 to aiperf's records); gen 3 (joined: 3 to the perf metrics, 3 to aiperf's records)`,
    );
  });

  it("an aiperf record whose x_request_id is one of a router request's ids: its time events from the client's send, the clocks' offset said unmeasured", async () => {
    const { clients, files } = await aiperfRun(3, 5, (x, i) => (i < 2 ? String(ids[i]) : x));
    const id = await uploadRun([
      ...files,
      { name: ROUTER_FILE, content: file(ids.slice(0, 2).flatMap((sid, i) => routerLines(sid, i))) },
    ]);
    const { source, journeys } = await barJourneys(id);
    expect(source).toBe("aiperf");
    const j = journeys.find((x) => x.xRequestId === String(ids[1]))!;
    const router = j.lanes.find((l) => l.source === "time-events")!;
    expect(router.ticks.map((t) => t.label)).toEqual([
      "arrival",
      "ctx_dispatch",
      "gen_dispatch",
      "first_token",
      "resp_done",
    ]);
    expect(router.startMs).toBe(0);
    expect(router.endMs).toBeCloseTo(150, 3);
    // The router's ctx_request_id is the same snowflake; the rule tries it first.
    expect(router.detail).toBe(`ctx_request_id ${ids[1]}, ${ROUTER_FILE}`);
    expect(j.missing).toContain(
      `TensorRT-LLM time events of the disaggregated router (${ROUTER_FILE}), joined by ctx_request_id ${ids[1]}: TensorRT-LLM's steady clock is not the client's wall clock, so its first event (arrival) is put at the client's send; the offset between the clocks is not measured`,
    );
    const other = journeys.find((x) => x.xRequestId === clients[2].x)!;
    expect(other.missing).toContain(
      `${ROUTER_FILE} has no request id the client's requests also carry: none of its requests' request id, ctx request id or disagg request id equals the id the client sent with this request (the client's x_request_id, ${clients[2].x}), as TensorRT-LLM's ids are its own, so this request's time events cannot be shown`,
    );
    const res = await getJourney(url(`/api/runs/${id}/journey`), idParams(id));
    const s = journeySummarySchema.parse(await res.json());
    expect(s.timeEvents).toEqual([{ role: "router", requests: 2, joinedPerfMetrics: null, joinedClient: 2 }]);
  });
});
