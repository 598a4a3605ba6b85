/**
 * Every request's TensorRT-LLM time events kept, and one journey reads its request's only
 * (docs/architecture.md §Per-request data in pieces): the events are the run's Parquet file, a
 * row per request and file keyed by the ids they join on, read by filtered DuckDB queries; a run
 * stored before it keeps catalog rows (`trtllm_time_events`), and one before those a single list
 * of at most 50,000 requests that every journey read whole. A run of 60,500 requests, written as TensorRT-LLM writes them
 * (test/generators/trtllm-time-events.mjs, after
 * `tensorrt_llm/serve/scripts/perf_time_events/perf_time_events.py` and
 * `tensorrt_llm/serve/perf_time_events_writer.py` at commit
 * 04f7582ba6c536d7c43c5fd093b0918ccffd7980; the perf metrics as
 * test/generators/trtllm-jsonl-writer.mjs), on SQLite and PostgreSQL; a run stored with catalog
 * rows and one with the old list, which still read; an id more requests report than a lookup
 * reads; a failed ingest, which leaves no file.
 *
 * Not a timing: characters handed to JSON.parse, rows, bytes.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
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
import { timeEventFileOptions, TRTLLM_TIME_EVENTS_FILE } from "@/lib/store/columnar/trtllm-time-events-file";
import { watchedParse } from "../helpers/dynamo-journey";
import { snowflakeId } from "../generators/trtllm-jsonl-writer.mjs";
import { ctxLines, jsonLines, manyRequestsRun, perfRecord } from "../generators/trtllm-time-events.mjs";
import { TEST_STORES, useStoreTestApp } from "../helpers/pg-schema";
import { storedTimeEventRows, storeTimeEventsAsRows } from "../helpers/trtllm-time-event-rows";
import { idParams, uploadRun, waitForDrilldown } from "../helpers/test-app";

const url = (p: string) => new Request(`http://localhost${p}`);

/** A failure of the time-events file's store, when set: an ingest that fails as it writes it. */
const failPut = vi.hoisted(() => ({ on: false }));
vi.mock("@/lib/store/columnar/run-files", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/store/columnar/run-files")>();
  return {
    ...real,
    putRunFile: async (...args: Parameters<typeof real.putRunFile>) => {
      if (failPut.on && args[2] === "trtllm-time-event-rows") throw new Error("blob store unavailable");
      return real.putRunFile(...args);
    },
  };
});

/** Time-event rows DuckDB handed back (rows with `events_json`), counted while `on`. */
const rowsRead = vi.hoisted(() => ({ on: false, n: 0 }));
vi.mock("@/lib/store/columnar/engine", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/store/columnar/engine")>();
  const count = (rows: unknown[]) => {
    if (rowsRead.on)
      rowsRead.n += rows.filter((r) => typeof r === "object" && r !== null && "events_json" in r).length;
  };
  return {
    ...real,
    queryRows: async (...args: Parameters<typeof real.queryRows>) => {
      const rows = await real.queryRows(...args);
      count(rows);
      return rows;
    },
    streamRowObjects: async function* (...args: Parameters<typeof real.streamRowObjects>) {
      for await (const chunk of real.streamRowObjects(...args)) {
        count(chunk);
        yield chunk;
      }
    },
  };
});

/** Bytes this process has read (files and sockets: /proc/self/io's rchar). */
const readBytes = () => Number(/rchar: (\d+)/.exec(fs.readFileSync("/proc/self/io", "utf8"))![1]);

/** Bytes under `dir`, a hard-linked file once. */
function dirBytes(dir: string, seen = new Set<number>()): number {
  let n = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) n += dirBytes(p, seen);
    else {
      const st = fs.statSync(p);
      if (!seen.has(st.ino)) n += st.size;
      seen.add(st.ino);
    }
  }
  return n;
}

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
  const out: Array<{ journey: RequestJourney; parsed: number; read: number }> = [];
  for (const rid of p.bars.id) {
    const before = readBytes();
    const one = await watchedParse(() =>
      getRequestJourney(url(`/api/runs/${id}/timeline/requests/${rid}/journey`), {
        params: Promise.resolve({ id, rid: String(rid) }),
      }),
    );
    const read = readBytes() - before;
    expect(one.res.status).toBe(200);
    out.push({ journey: requestJourneySchema.parse(await one.res.json()), parsed: one.parsed, read });
  }
  return out;
}

const journeyOf = (all: Array<{ journey: RequestJourney; parsed: number; read: number }>, i: number) =>
  all.find((j) =>
    j.journey.lanes.some((l) => new RegExp(`\\bdisagg[_ ]request[_ ]id ${idOf(i)}\\b`).test(l.detail ?? "")),
  )!;

const tick = (l: RequestJourney["lanes"][number], e: string) => l.ticks.find((t) => t.label === e)!.atMs;

/** The run's time events as a run stored before their pieces holds them: one list, no rows. */
async function storeTimeEventsAsBefore(db: Db, runId: string): Promise<number> {
  const rows = await storedTimeEventRows(db, runId);
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
    .deleteFrom("run_column_files")
    .where("run_id", "=", runId)
    .where("name", "=", TRTLLM_TIME_EVENTS_FILE)
    .execute();
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

    it(`a run of ${N.toLocaleString("en-US")} requests: its events are the run's Parquet file, no catalog rows; request 60,000's journey draws its router, ctx and gen lanes, reading a bounded part; the per-role counts cover every request`, async () => {
      const spill = timeEventFileOptions.spillRows;
      // Staged a segment of 4,096 rows at a time: DuckDB holds no more of the run's events.
      timeEventFileOptions.spillRows = 4_096;
      const dataBefore = pgUrl ? 0 : dirBytes(env.app.config.dataDir);
      let id: string;
      try {
        id = await uploadRun(manyRequestsRun(N, FULL, idOf, DIR));
      } finally {
        timeEventFileOptions.spillRows = spill;
      }
      const db = env.app.store.db;
      const rows = await db
        .selectFrom("trtllm_time_events")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("run_id", "=", id)
        .executeTakeFirstOrThrow();
      const file = await db
        .selectFrom("run_column_files")
        .select(["rows", "bytes"])
        .where("run_id", "=", id)
        .where("name", "=", TRTLLM_TIME_EVENTS_FILE)
        .executeTakeFirst();
      if (!pgUrl)
        console.log(
          `data dir grew ${dirBytes(env.app.config.dataDir) - dataBefore} bytes; time-events file ${file?.bytes ?? "none"} bytes; catalog rows ${rows.n}`,
        );
      expect(Number(rows.n)).toBe(0);
      // A row per request and file: every ctx request, and the router's and gen worker's three.
      expect(Number(file!.rows)).toBe(N + 2 * FULL.length);
      expect(timeEventFileOptions.peakRowsHeld).toBeLessThanOrEqual(4_096);
      // The drill-down built first, so the bytes a journey reads are its own.
      await waitForDrilldown(id);
      const all = await barJourneys(id);
      expect(all).toHaveLength(FULL.length);
      for (const i of [60_000, 60_499, 0]) {
        const { journey, parsed, read } = journeyOf(all, i);
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
        console.log(`request ${i}: ${parsed} characters parsed, ${read} bytes read`);
        expect(parsed).toBeLessThanOrEqual(PARSE_BOUND);
      }

      const res = await getJourney(url(`/api/runs/${id}/journey`), idParams(id));
      const s = journeySummarySchema.parse(await res.json());
      expect(s.timeEvents).toEqual([
        { role: "router", requests: 3, joinedPerfMetrics: 3, joinedClient: null },
        { role: "ctx", requests: N, joinedPerfMetrics: 3, joinedClient: null },
        { role: "gen", requests: 3, joinedPerfMetrics: 3, joinedClient: null },
      ]);
      expect(s.notes.some((m) => m.includes("beyond those kept"))).toBe(false);
    }, 600_000);

    /**
     * A run of 5 requests (2 joined) read as it is stored now, then stored as before by `storeOld`
     * (its 9 time events) and read again, `checkStored` after: the same lanes and counts.
     */
    async function readsAsNow(
      storeOld: (db: Db, id: string) => Promise<number>,
      checkStored?: (db: Db, id: string) => Promise<void>,
    ) {
      const id = await uploadRun(manyRequestsRun(5, [0, 3], idOf, DIR));
      const db = env.app.store.db;
      const summaryOf = async () =>
        journeySummarySchema.parse(
          await (await getJourney(url(`/api/runs/${id}/journey`), idParams(id))).json(),
        );
      const now = await barJourneys(id);
      const nowSummary = await summaryOf();
      expect(await storeOld(db, id)).toBe(5 + 2 + 2);
      await checkStored?.(db, id);
      const before = await barJourneys(id);
      expect(before.map((b) => b.journey)).toEqual(now.map((b) => b.journey));
      expect(journeyOf(before, 3).journey.lanes.filter((l) => l.source === "time-events")).toHaveLength(3);
      const summary = await summaryOf();
      expect(summary).toEqual(nowSummary);
      expect(summary.timeEvents).toEqual([
        { role: "router", requests: 2, joinedPerfMetrics: 2, joinedClient: null },
        { role: "ctx", requests: 5, joinedPerfMetrics: 2, joinedClient: null },
        { role: "gen", requests: 2, joinedPerfMetrics: 2, joinedClient: null },
      ]);
    }

    it("a run stored with the old single list reads it as before: the same lanes and counts", async () => {
      await readsAsNow(storeTimeEventsAsBefore);
    });

    it("a run stored with catalog rows (before the file) reads them: the same lanes and counts", async () => {
      await readsAsNow(storeTimeEventsAsRows, async (db, id) => {
        const files = await db
          .selectFrom("run_column_files")
          .select("name")
          .where("run_id", "=", id)
          .execute();
        expect(files.map((f) => f.name)).not.toContain(TRTLLM_TIME_EVENTS_FILE);
      });
    });

    it("a ctx_request_id 100 requests report (more than 64 rows) is no key: a perf request reporting it joins its ctx events by its request_id, and the count says so", async () => {
      // The gen-only benchmark's shape: every ctx request reports ctx_request_id 1.
      const n = 100;
      const ctx = [];
      for (let i = 0; i < n; i++) for (const l of ctxLines(idOf(i), i)) ctx.push({ ...l, ctx_request_id: 1 });
      // The perf record's ctx and gen parts report it too (its own ids stay exact integers).
      const perf = perfRecord(idOf(7), 7).replaceAll(`"ctx_request_id":${idOf(7)}`, '"ctx_request_id":1');
      expect(perf).toContain('"ctx_request_id":1}');
      const id = await uploadRun([
        { name: "run/perf_metrics-disagg-node0-77-20260801T120000Z.jsonl", content: perf + "\n" },
        { name: CTX_FILE, content: jsonLines(ctx) },
      ]);
      const all = await barJourneys(id);
      expect(all).toHaveLength(1);
      const lanes = all[0].journey.lanes.filter((l) => l.source === "time-events");
      expect(lanes.map((l) => [l.role, l.detail?.split(",")[0]])).toEqual([
        ["prefill", `request_id ${idOf(7)}`],
      ]);
      const summary = journeySummarySchema.parse(
        await (await getJourney(url(`/api/runs/${id}/journey`), idParams(id))).json(),
      );
      expect(summary.timeEvents).toEqual([
        { role: "ctx", requests: n, joinedPerfMetrics: 1, joinedClient: null },
      ]);
    });

    it("a request in 70 tensor-parallel ranks' files is one request read from the first (one row, not 64), and a ctx_request_id a second request reports only in the 70th file is no key", async () => {
      const ranks = 70;
      const files = [];
      for (let rank = 0; rank < ranks; rank++) {
        // Each rank's copy of request 7 (its ctx id its own), 0.1 ms later per rank.
        const lines: Array<Record<string, unknown>> = ctxLines(idOf(7), 7).map((l) => ({
          ...l,
          rank,
          t: (l.t as number) + rank / 10_000,
        }));
        // Rank 0 writes request 7's last event twice: a second row of its lines there, folded.
        if (rank === 0)
          lines.push({ ...lines[lines.length - 1], t: (lines[lines.length - 1].t as number) + 1 });
        // The last rank's file also holds another request reporting request 7's ctx_request_id.
        if (rank === ranks - 1)
          for (const l of ctxLines(idOf(8), 8)) lines.push({ ...l, rank, ctx_request_id: idOf(7) });
        files.push({
          name: `${DIR}/time_events_rank${rank}_pid${100 + rank}.jsonl`,
          content: jsonLines(lines),
        });
      }
      const id = await uploadRun([
        {
          name: "run/perf_metrics-disagg-node0-77-20260801T120000Z.jsonl",
          content: perfRecord(idOf(7), 7) + "\n",
        },
        ...files,
      ]);
      await waitForDrilldown(id);
      rowsRead.n = 0;
      rowsRead.on = true;
      let all;
      try {
        all = await barJourneys(id);
      } finally {
        rowsRead.on = false;
      }
      // Request 7's two rows of rank 0 and the other request's one row: what the join uses, no more.
      expect(rowsRead.n).toBe(3);
      expect(all).toHaveLength(1);
      const lanes = all[0].journey.lanes.filter((l) => l.source === "time-events");
      // The id two requests report is no key: request 7 joins by its own request_id, rank 0's copy.
      expect(lanes.map((l) => [l.role, l.label, l.detail])).toEqual([
        [
          "prefill",
          "time events: ctx (4 events)",
          `request_id ${idOf(7)}, ${DIR}/time_events_rank0_pid100.jsonl`,
        ],
      ]);
      // Rank 0's stamps, the first of the repeated event: its ticks as the single file's.
      const ticks = lanes[0].ticks.map((t) => t.atMs);
      expect(ticks[3] - ticks[0]).toBeCloseTo(27, 6);
      const summary = journeySummarySchema.parse(
        await (await getJourney(url(`/api/runs/${id}/journey`), idParams(id))).json(),
      );
      expect(summary.timeEvents).toEqual([
        { role: "ctx", requests: 2, joinedPerfMetrics: 1, joinedClient: null },
      ]);
    });

    it("an ingest that fails as the file is stored leaves the run failed with no time-events file named, and nothing staged behind", async () => {
      const tmp = path.join(env.app.config.dataDir, "columnar-cache", "tmp");
      const staged = () =>
        fs.existsSync(tmp) ? fs.readdirSync(tmp).filter((f) => /segment|parquet$/.test(f)) : [];
      const before = staged();
      failPut.on = true;
      let id: string;
      try {
        timeEventFileOptions.spillRows = 4_096;
        id = await uploadRun(manyRequestsRun(10_000, [0], idOf, DIR));
      } finally {
        failPut.on = false;
        timeEventFileOptions.spillRows = 32_768;
      }
      const db = env.app.store.db;
      const run = await db
        .selectFrom("runs")
        .select(["status", "error"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      expect(run.status).toBe("failed");
      expect(run.error).toContain("blob store unavailable");
      expect(
        await db.selectFrom("run_column_files").select("name").where("run_id", "=", id).execute(),
      ).toEqual([]);
      expect(
        await db.selectFrom("trtllm_time_events").select("seq").where("run_id", "=", id).execute(),
      ).toEqual([]);
      expect(staged()).toEqual(before);
    });
  },
);
