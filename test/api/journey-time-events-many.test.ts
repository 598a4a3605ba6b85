/**
 * Every request's TensorRT-LLM time events kept, and one journey reads its request's only
 * (docs/architecture.md §Per-request data in pieces): the events are rows keyed by the ids they
 * join on (`trtllm_time_events`), where a run stored them as one list of at most 50,000 requests
 * that every journey read whole. A run of 60,500 requests, written as TensorRT-LLM writes them
 * (test/generators/trtllm-time-events.mjs, after
 * `tensorrt_llm/serve/scripts/perf_time_events/perf_time_events.py` and
 * `tensorrt_llm/serve/perf_time_events_writer.py` at commit
 * 04f7582ba6c536d7c43c5fd093b0918ccffd7980; the perf metrics as
 * test/generators/trtllm-jsonl-writer.mjs), on SQLite and PostgreSQL; and a run stored with the
 * old list, which still reads.
 *
 * Not a timing: characters handed to JSON.parse.
 */
import { describe, expect, it } from "vitest";
import { GET as getJourney } from "@/app/api/runs/[id]/journey/route";
import { GET as getRequestJourney } from "@/app/api/runs/[id]/timeline/requests/[rid]/journey/route";
import { GET as getTimeline } from "@/app/api/runs/[id]/timeline/route";
import { TRTLLM_TIME_EVENT_FILES_CHART, TRTLLM_TIME_EVENTS_CHART } from "@/lib/api/chart-catalog";
import {
  journeySummarySchema,
  requestJourneySchema,
  type RequestJourney,
  type TrtllmTimeEventsPayload,
} from "@/lib/api/request-journey";
import { decodeTimeline, timelineWireSchema } from "@/lib/api/timeline";
import { timeEventRequestsOf } from "@/lib/metrics/trtllm-time-event-join";
import { pieceOfRow } from "@/lib/runs/request-journey";
import type { Db } from "@/lib/store/db";
import { watchedParse } from "../helpers/dynamo-journey";
import { snowflakeId } from "../generators/trtllm-jsonl-writer.mjs";
import { manyRequestsRun } from "../generators/trtllm-time-events.mjs";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { idParams, uploadRun } from "../helpers/test-app";

const url = (p: string) => new Request(`http://localhost${p}`);

const N = 60_500;
/** The requests with perf metrics, router and gen lines: the Timeline's bars. */
const FULL = [0, 60_000, 60_499];
const idOf = (i: number) =>
  snowflakeId({ monotonicMs: 1_780_000_000_000 + (i >> 10), node: 3, counter: i & 1023 });

/**
 * The most one request's journey may parse: its engine row, its three requests' rows of time
 * events (some 300 characters each) and the run's small payloads; the run's events are some 30 MB.
 */
const PARSE_BOUND = 64 * 1024;

const DIR = "run/perf_events";
const CTX_FILE = `${DIR}/time_events_rank0_pid11.jsonl`;

/** Every bar of the run's Timeline and its journey, with the characters each journey parsed. */
async function barJourneys(id: string) {
  const res = await getTimeline(url(`/api/runs/${id}/timeline`), idParams(id));
  const p = decodeTimeline(timelineWireSchema.parse(await res.json()));
  const out: Array<{ journey: RequestJourney; parsed: number }> = [];
  for (const rid of p.bars.id) {
    const one = await watchedParse(() =>
      getRequestJourney(url(`/api/runs/${id}/timeline/requests/${rid}/journey`), {
        params: Promise.resolve({ id, rid: String(rid) }),
      }),
    );
    expect(one.res.status).toBe(200);
    out.push({ journey: requestJourneySchema.parse(await one.res.json()), parsed: one.parsed });
  }
  return out;
}

const journeyOf = (all: Array<{ journey: RequestJourney; parsed: number }>, i: number) =>
  all.find((j) => j.journey.lanes.some((l) => l.detail?.includes(`disagg_request_id ${idOf(i)}`)))!;

const tick = (l: RequestJourney["lanes"][number], e: string) => l.ticks.find((t) => t.label === e)!.atMs;

/** The run's time events as a run stored before their pieces holds them: one list, no rows. */
async function storeTimeEventsAsBefore(db: Db, runId: string): Promise<number> {
  const rows = await db
    .selectFrom("trtllm_time_events")
    .selectAll()
    .where("run_id", "=", runId)
    .orderBy("seq")
    .execute();
  const files = JSON.parse(
    (
      await db
        .selectFrom("chart_data")
        .select("data")
        .where("run_id", "=", runId)
        .where("key", "=", TRTLLM_TIME_EVENT_FILES_CHART.key)
        .executeTakeFirstOrThrow()
    ).data,
  ) as { files: TrtllmTimeEventsPayload["files"] };
  const payload: TrtllmTimeEventsPayload = {
    files: files.files,
    leftOut: 0,
    requests: timeEventRequestsOf(rows.map(pieceOfRow)),
  };
  await db.deleteFrom("trtllm_time_events").where("run_id", "=", runId).execute();
  await db
    .deleteFrom("chart_data")
    .where("run_id", "=", runId)
    .where("key", "=", TRTLLM_TIME_EVENT_FILES_CHART.key)
    .execute();
  await db
    .insertInto("chart_data")
    .values({
      run_id: runId,
      key: TRTLLM_TIME_EVENTS_CHART.key,
      data: JSON.stringify(payload),
      version: TRTLLM_TIME_EVENTS_CHART.version,
    })
    .execute();
  return payload.requests.length;
}

describe.each(TEST_STORES)(
  "every request's time events kept, one journey reading its own (%s)",
  (_store, pgUrl) => {
    const env = useStoreTestApp(pgUrl);

    it(`a run of ${N.toLocaleString("en-US")} requests: request 60,000's journey draws its router, ctx and gen lanes, reading a bounded part; the per-role counts cover every request`, async () => {
      const id = await uploadRun(manyRequestsRun(N, FULL, idOf, DIR));
      const db = env.app.store.db;
      const all = await barJourneys(id);
      expect(all).toHaveLength(FULL.length);
      for (const i of [60_000, 60_499, 0]) {
        const { journey, parsed } = journeyOf(all, i);
        const lanes = journey.lanes.filter((l) => l.source === "time-events");
        expect(lanes.map((l) => l.role)).toEqual(["prefill", "decode", "router"]);
        const [ctx, gen, router] = lanes;
        expect(tick(router, "arrival")).toBeCloseTo(0, 3);
        expect(tick(router, "first_token")).toBeCloseTo(40 + i, 3);
        expect(tick(gen, "gen_last_token")).toBeCloseTo(140 + 10 * i, 3);
        // The ctx host's clock: aligned at ctx_arrival, its offset named.
        expect(tick(ctx, "ctx_arrival")).toBeCloseTo(4, 3);
        expect(tick(ctx, "ctx_ready_sent")).toBeCloseTo(31, 3);
        expect(journey.missing).toContain(
          `TensorRT-LLM time events of the context worker (${CTX_FILE}), joined by ctx_request_id ${idOf(i)}: its clock is 214421.500 s from the perf metrics' (ctx_arrival against ctxArrival; another host's steady clock): aligned there, that offset taken out`,
        );
        expect(journey.missing.some((m) => m.includes("counted, not kept"))).toBe(false);
        console.log(`request ${i}: ${parsed} characters parsed`);
        expect(parsed).toBeLessThanOrEqual(PARSE_BOUND);
      }
      const stored = await db
        .selectFrom("trtllm_time_events")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("run_id", "=", id)
        .executeTakeFirstOrThrow();
      // A row per request and file: every ctx request, and the router's and gen worker's three.
      expect(Number(stored.n)).toBe(N + 2 * FULL.length);

      const res = await getJourney(url(`/api/runs/${id}/journey`), idParams(id));
      const s = journeySummarySchema.parse(await res.json());
      expect(s.timeEvents).toEqual([
        { role: "router", requests: 3, joinedPerfMetrics: 3, joinedClient: null },
        { role: "ctx", requests: N, joinedPerfMetrics: 3, joinedClient: null },
        { role: "gen", requests: 3, joinedPerfMetrics: 3, joinedClient: null },
      ]);
      expect(s.notes.some((m) => m.includes("beyond those kept"))).toBe(false);
    }, 600_000);

    it("a run stored with the old single list reads it as before: the same lanes and counts", async () => {
      const id = await uploadRun(manyRequestsRun(5, [0, 3], idOf, DIR));
      const db = env.app.store.db;
      const now = await barJourneys(id);
      const nowSummary = journeySummarySchema.parse(
        await (await getJourney(url(`/api/runs/${id}/journey`), idParams(id))).json(),
      );
      expect(await storeTimeEventsAsBefore(db, id)).toBe(5 + 2 + 2);
      const before = await barJourneys(id);
      expect(before.map((b) => b.journey)).toEqual(now.map((b) => b.journey));
      expect(journeyOf(before, 3).journey.lanes.filter((l) => l.source === "time-events")).toHaveLength(3);
      const summary = journeySummarySchema.parse(
        await (await getJourney(url(`/api/runs/${id}/journey`), idParams(id))).json(),
      );
      expect(summary).toEqual(nowSummary);
      expect(summary.timeEvents).toEqual([
        { role: "router", requests: 2, joinedPerfMetrics: 2, joinedClient: null },
        { role: "ctx", requests: 5, joinedPerfMetrics: 2, joinedClient: null },
        { role: "gen", requests: 2, joinedPerfMetrics: 2, joinedClient: null },
      ]);
    });
  },
);
