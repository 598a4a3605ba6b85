/**
 * GET /api/runs/{id}/timeline and its aiperf drill-down, called in-process on runs built by the
 * producers' generators: TensorRT-LLM perf metrics (test/generators/trtllm.mjs, shaped as
 * TensorRT-LLM's `return_perf_metrics` output) and aiperf records (test/generators/aiperf.mjs,
 * the profile_export.jsonl aiperf's record writer emits, with request_start_ns/request_end_ns).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { GET as getTimeline } from "@/app/api/runs/[id]/timeline/route";
import { GET as getTimelineRequest } from "@/app/api/runs/[id]/timeline/requests/[rid]/route";
import { GET as getDetail } from "@/app/api/runs/[id]/trtllm/requests/[idx]/route";
import { POST as reingest } from "@/app/api/runs/[id]/reingest/route";
import { DELETE as deleteRun } from "@/app/api/runs/[id]/route";
import {
  TIMELINE_DEFAULT_LIMIT,
  decodeTimeline,
  encodeTimeline,
  timelineRequestSchema,
  timelineWireSchema,
  type TimelinePayload,
} from "@/lib/api/timeline";
// @ts-expect-error plain ESM generator without type declarations
import { generateAiperfRun } from "../generators/aiperf.mjs";
import { generateMultiTurnRun, HAND_CASE } from "../generators/aiperf-multiturn.mjs";
import { generateTrtllmRun } from "../generators/trtllm.mjs";
import { firstWindowFor, firstWindowTextFor } from "@/lib/ingest/timeline-columns";
import { timelineWindow } from "@/lib/metrics/request-timeline";
import { unpackTimeline } from "@/lib/metrics/request-timeline-pack";
import { forgetTimelines } from "@/lib/runs/run-timeline";
import { readTimelineColumns, readTimelineFirstWindow } from "@/lib/store/timeline-columns";
import { freshAppEachTest, idParams, uploadRequest } from "../helpers/test-app";

const app = freshAppEachTest();

const url = (p: string) => new Request(`http://localhost${p}`);
const tmp = (name: string) => fs.mkdtempSync(path.join(os.tmpdir(), `runlens-timeline-${name}-`));

async function uploadFiles(files: string[]): Promise<string> {
  const res = await upload(uploadRequest(files.map((p) => ({ name: path.basename(p), path: p }))));
  expect(res.status).toBe(201);
  return (await res.json()).id as string;
}

async function timeline(id: string, qs = ""): Promise<TimelinePayload> {
  const res = await getTimeline(url(`/api/runs/${id}/timeline?${qs}`), idParams(id));
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("application/json");
  return decodeTimeline(timelineWireSchema.parse(await res.json()));
}

/** The parts of bar `b`: [segment name, start, end]. */
function partsOf(p: TimelinePayload, b: number) {
  const out: Array<[string, number, number]> = [];
  p.parts.bar.forEach((bar, k) => {
    if (bar === b) out.push([p.segments[p.parts.seg[k]].name, p.parts.startMs[k], p.parts.endMs[k]]);
  });
  return out;
}

describe("GET /api/runs/{id}/timeline (TensorRT-LLM)", () => {
  it("lanes requests by the worker that decoded them and splits each bar into its recorded segments", async () => {
    const gen = generateTrtllmRun({
      dir: tmp("trt"),
      mode: "disaggregated",
      requests: 120,
      seed: 7,
      genWorkers: 2,
    });
    const id = await uploadFiles(gen.files);
    const p = await timeline(id);
    expect(p.source).toBe("trtllm");
    expect(p.run.requests).toBe(120);
    expect(p.inWindow).toBe(120);
    expect(p.stride).toBe(1);
    expect(p.sampleNote).toBeNull();
    expect(p.lanesBy).toBe("worker");
    expect(p.laneChoices).toEqual(["worker", "ctx-worker", "none"]);
    expect(p.lanes).toHaveLength(2);
    expect(p.lanes.reduce((n, l) => n + l.requests, 0)).toBe(120);
    expect(p.segments.map((s) => s.name)).toContain("gen_kv_transfer");
    expect(p.segments.find((s) => s.name === "ctx_queue")!.colour).toBe("var(--seg-ctx-queue)");
    // Bars carry the drill-down idx; each segment's length is the generator's truth for that request.
    for (const b of [0, 37, 119]) {
      const idx = p.bars.id[b];
      const parts = partsOf(p, b);
      const queue = parts.find(([name]) => name === "ctx_queue")!;
      expect(queue[2] - queue[1]).toBeCloseTo(gen.truth.segments.ctx_queue[idx]!, 1);
      const decode = parts.find(([name]) => name === "decode")!;
      expect(decode[2] - decode[1]).toBeCloseTo(gen.truth.segments.decode[idx]!, 1);
      expect(p.bars.startMs[b]).toBeLessThanOrEqual(Math.min(...parts.map((x) => x[1])) + 0.01);
    }
    // The id opens the breakdown's drill-down.
    const detail = await getDetail(url(`/api/runs/${id}/trtllm/requests/${p.bars.id[5]}`), {
      params: Promise.resolve({ id, idx: String(p.bars.id[5]) }),
    });
    expect(detail.status).toBe(200);
    const byCtx = await timeline(id, "lanes=ctx-worker");
    expect(byCtx.lanesBy).toBe("ctx-worker");
  });

  it("returns exactly the requests overlapping a window, sampled by a stride above the limit", async () => {
    const gen = generateTrtllmRun({ dir: tmp("trt-win"), mode: "aggregated", requests: 200, seed: 3 });
    const id = await uploadFiles(gen.files);
    const all = await timeline(id, "limit=20000");
    const from = all.run.startMs + (all.run.endMs - all.run.startMs) * 0.4;
    const to = all.run.startMs + (all.run.endMs - all.run.startMs) * 0.6;
    // Brute force over every bar of the run: overlap means start ≤ to and end ≥ from.
    const expected = all.bars.id.filter((_, b) => all.bars.startMs[b] <= to && all.bars.endMs[b] >= from);
    expect(expected.length).toBeGreaterThan(10);
    const w = await timeline(id, `from=${from}&to=${to}`);
    expect(w.window).toEqual({ fromMs: from, toMs: to });
    expect(w.inWindow).toBe(expected.length);
    expect([...w.bars.id].sort((a, b) => a - b)).toEqual([...expected].sort((a, b) => a - b));
    const limit = Math.floor(expected.length / 3);
    const s = await timeline(id, `from=${from}&to=${to}&limit=${limit}`);
    const stride = Math.ceil(expected.length / limit);
    expect(s.stride).toBe(stride);
    expect(s.bars.id).toHaveLength(Math.ceil(expected.length / stride));
    expect(s.sampleNote).toMatch(/^A sample: every \d+(st|nd|rd|th) request by start time/);
    // Bars in one lane and row never overlap.
    for (let a = 0; a < s.bars.id.length; a++)
      for (let b = a + 1; b < s.bars.id.length; b++)
        if (s.bars.lane[a] === s.bars.lane[b] && s.bars.row[a] === s.bars.row[b])
          expect(s.bars.endMs[a] <= s.bars.startMs[b] || s.bars.endMs[b] <= s.bars.startMs[a]).toBe(true);
  });

  it("refuses a bad query with 400 and names what is missing with 404", async () => {
    const gen = generateTrtllmRun({ dir: tmp("trt-bad"), mode: "aggregated", requests: 5, seed: 1 });
    const id = await uploadFiles(gen.files);
    for (const qs of ["from=5&to=1", "from=abc", "lanes=bogus", "limit=0", "limit=999999"]) {
      const res = await getTimeline(url(`/api/runs/${id}/timeline?${qs}`), idParams(id));
      expect(res.status, qs).toBe(400);
      expect((await res.json()).error.code).toBe("bad_request");
    }
    const missing = "AAAAAAAAAAAAAAAAAAAAAA";
    expect((await getTimeline(url(`/api/runs/${missing}/timeline`), idParams(missing))).status).toBe(404);
  });
});

describe("GET /api/runs/{id}/timeline (aiperf)", () => {
  it("splits each record into TTFT and decode, failed ones whole, and opens a record by its bar", async () => {
    const dir = tmp("aiperf");
    const run = await generateAiperfRun(dir, {
      records: 300,
      warmup: 6,
      errorEvery: 10,
      concurrency: 4,
      csv: false,
    });
    const id = await uploadFiles([run.jsonlPath, run.summaryPath]);
    // By default every request is packed into in-flight slots (review of 3 Dec 2026, item 12): one
    // lane whose rows are the run's concurrency; aiperf's client workers are a lane choice.
    const packed = await timeline(id);
    expect(packed.lanesBy).toBe("none");
    expect(packed.laneChoices).toContain("worker");
    expect(packed.lanes[0].rows).toBeLessThanOrEqual(4);
    const p = await timeline(id, "lanes=worker");
    expect(p.source).toBe("aiperf");
    // Profiling records only: the 6 warm-up requests are left out.
    expect(p.inWindow).toBe(300);
    // Four aiperf workers (`metadata.worker_id`), each sending its requests back to back: one
    // lane of one row each.
    expect(p.lanesBy).toBe("worker");
    expect(p.lanes.map((l) => [l.key, l.rows])).toEqual([
      ["worker_0", 1],
      ["worker_1", 1],
      ["worker_2", 1],
      ["worker_3", 1],
    ]);
    expect(p.lanes.reduce((n, l) => n + l.requests, 0)).toBe(300);
    // Unlaned, the four workers are four rows of bars.
    const unlaned = await timeline(id, "lanes=none");
    expect(unlaned.lanes).toEqual([{ key: "", label: "all requests", rows: 4, requests: 300 }]);
    const failed = p.parts.seg.filter((s) => p.segments[s].name === "failed").length;
    expect(failed).toBe(run.counts.errors);
    // Hand check against the records: TTFT part = time_to_first_token, decode to request_end_ns.
    const lines = fs
      .readFileSync(run.jsonlPath, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    // t = 0 is the run's first request, warm-up included (the other views count from it too).
    const originNs = Math.min(...lines.map((l) => l.metadata.request_start_ns));
    const profiling = lines.filter((l) => l.metadata.benchmark_phase === "profiling");
    const firstNs = Math.min(...profiling.map((l) => l.metadata.request_start_ns));
    const b = 0;
    const first = profiling.find((l) => l.metadata.request_start_ns === firstNs)!;
    const [ttft, decode] = partsOf(p, b);
    expect(ttft[0]).toBe("ttft");
    expect(ttft[2] - ttft[1]).toBeCloseTo(first.metrics.time_to_first_token.value, 1);
    expect(decode[0]).toBe("decode");
    expect(decode[2]).toBeCloseTo((first.metadata.request_end_ns - originNs) / 1e6, 1);
    expect(p.bars.startMs[b]).toBeCloseTo((firstNs - originNs) / 1e6, 1);
    // The run's first request on the epoch clock, which places server-metrics intervals.
    expect(p.originEpochMs).toBeCloseTo(originNs / 1e6, 0);

    const res = await getTimelineRequest(url(`/api/runs/${id}/timeline/requests/${p.bars.id[b]}`), {
      params: Promise.resolve({ id, rid: String(p.bars.id[b]) }),
    });
    expect(res.status).toBe(200);
    const r = timelineRequestSchema.parse(await res.json());
    expect(r.requestId).toBe(first.metadata.x_request_id);
    expect(r.ttftMs).toBeCloseTo(first.metrics.time_to_first_token.value, 6);
    const none = await getTimelineRequest(url(`/api/runs/${id}/timeline/requests/99999`), {
      params: Promise.resolve({ id, rid: "99999" }),
    });
    expect(none.status).toBe(404);
  });
});

describe("GET /api/runs/{id}/timeline (multi-turn aiperf)", () => {
  it("lanes requests by conversation, each lane holding its conversation's turns", async () => {
    // test/generators/aiperf-multiturn.mjs: aiperf records with conversation_id and turn_index.
    const run = generateMultiTurnRun(tmp("turns"), { conversations: 12, minTurns: 1, maxTurns: 20, seed: 4 });
    const id = await uploadFiles([run.jsonlPath, run.summaryPath]);
    expect((await timeline(id)).lanesBy).toBe("none");
    const p = await timeline(id, "lanes=conversation");
    expect(p.lanesBy).toBe("conversation");
    expect(p.laneChoices).toContain("conversation");
    const perConversation = new Map<string, number>();
    for (const r of run.requests)
      perConversation.set(r.conversation, (perConversation.get(r.conversation) ?? 0) + 1);
    expect(Object.fromEntries(p.lanes.map((l) => [l.key, l.requests]))).toEqual(
      Object.fromEntries(perConversation),
    );
    // A conversation's turns run one after another: one row each.
    expect(p.lanes.every((l) => l.rows === 1)).toBe(true);
  });

  it("opens a turn's request detail with the possible reuse the charts use and the records' count beside it", async () => {
    // Two conversations of 3 and 2 turns (ISL 1000, 1150, 1300; answers 50); inputs.json carries
    // the history, so its estimate is ISL(k) × chars(k − 1) / chars(k): 1000 at turn 1, 1150 at
    // turn 2, where the records' previous prompt and answer give 1050 and 1200.
    const run = generateMultiTurnRun(tmp("turn-detail"), { ...HAND_CASE, inputs: "history" });
    const id = await uploadFiles([run.jsonlPath, run.summaryPath, run.inputsPath!]);
    const p = await timeline(id);
    const details = [];
    for (const rid of p.bars.id) {
      const res = await getTimelineRequest(url(`/api/runs/${id}/timeline/requests/${rid}`), {
        params: Promise.resolve({ id, rid: String(rid) }),
      });
      expect(res.status).toBe(200);
      details.push(timelineRequestSchema.parse(await res.json()));
    }
    const seen = details
      .map((r) => [r.conversationId, r.turnIndex, r.possibleReuse] as const)
      .sort((a, b) => `${a[0]}${a[1]}`.localeCompare(`${b[0]}${b[1]}`));
    const reuse = (records: number, inputs: number) => ({
      records,
      inputs,
      source: "inputs",
      inputsNonText: false,
    });
    expect(seen).toEqual([
      ["conv-00000", 0, reuse(0, 0)],
      ["conv-00000", 1, reuse(1050, 1000)],
      ["conv-00000", 2, reuse(1200, 1150)],
      ["conv-00001", 0, reuse(0, 0)],
      ["conv-00001", 1, reuse(1050, 1000)],
    ]);
  });
});

describe("the timeline stored at ingest", () => {
  /** Every window the view asks for on `id`, as the route answers it. */
  const windows = async (id: string) => {
    const whole = await timeline(id);
    const span = whole.run.endMs - whole.run.startMs;
    const tenth = `from=${whole.run.startMs + span * 0.45}&to=${whole.run.startMs + span * 0.55}`;
    return [whole, await timeline(id, "lanes=none&limit=7"), await timeline(id, tenth)];
  };

  it("answers from the columns stored with the run exactly what the run's rows give", async () => {
    const trt = generateTrtllmRun({ dir: tmp("stored-trt"), mode: "disaggregated", requests: 80, seed: 3 });
    const turns = generateMultiTurnRun(tmp("stored-turns"), { conversations: 9, maxTurns: 12, seed: 5 });
    const db = app.app.store.db;
    for (const files of [trt.files, [turns.jsonlPath, turns.summaryPath]]) {
      const id = await uploadFiles(files);
      const row = await db
        .selectFrom("run_timeline_columns")
        .select("count")
        .where("run_id", "=", id)
        .executeTakeFirstOrThrow();
      const stored = unpackTimeline((await readTimelineColumns(db, id))!);
      expect(stored?.n).toBe(Number(row.count));
      const fromColumns = await windows(id);
      expect(fromColumns[0].run.requests).toBe(stored?.n);
      // Without the stored columns (a run ingested before they were kept), the rows are read.
      await db.deleteFrom("run_timeline_columns").where("run_id", "=", id).execute();
      forgetTimelines();
      expect(await windows(id)).toEqual(fromColumns);
    }
  });

  it("stores the first window the route cuts from the columns, and serves it without them", async () => {
    const db = app.app.store.db;
    const runs = [
      // TensorRT-LLM disaggregated and aggregated: lanes by worker.
      generateTrtllmRun({ dir: tmp("first-disagg"), mode: "disaggregated", requests: 90, seed: 11 }).files,
      generateTrtllmRun({ dir: tmp("first-agg"), mode: "aggregated", requests: 70, seed: 12 }).files,
      // aiperf multi-turn: packed into in-flight slots by default, past MAX_LANES conversations.
      (({ jsonlPath, summaryPath }) => [jsonlPath, summaryPath])(
        generateMultiTurnRun(tmp("first-turns"), { conversations: 130, maxTurns: 6, seed: 9 }),
      ),
      // aiperf single-turn, sampled: more records than a small limit would draw.
      await (async () => {
        const r = await generateAiperfRun(tmp("first-aiperf"), { records: 60, concurrency: 3, csv: false });
        return [r.jsonlPath, r.summaryPath];
      })(),
    ];
    const lanesSeen = new Set<string>();
    for (const files of runs) {
      const id = await uploadFiles(files);
      const json = await readTimelineFirstWindow(db, id);
      expect(json).not.toBeNull();
      const stored = firstWindowFor(json, { limit: TIMELINE_DEFAULT_LIMIT });
      const t = unpackTimeline((await readTimelineColumns(db, id))!)!;
      const cut = timelineWindow(t, { limit: TIMELINE_DEFAULT_LIMIT });
      expect(stored).toEqual(cut);
      expect(stored!.inWindow).toBe(t.n);
      lanesSeen.add(cut.lanesBy);
      // Only the whole run at the default limit, on the default lanes or those asked by name.
      expect(firstWindowFor(json, { limit: TIMELINE_DEFAULT_LIMIT, lanes: cut.lanesBy })).toEqual(cut);
      const other = cut.lanesBy === "none" ? "conversation" : "none";
      expect(firstWindowFor(json, { limit: TIMELINE_DEFAULT_LIMIT, lanes: other })).toBeNull();
      expect(firstWindowFor(json, { limit: 7 })).toBeNull();
      expect(firstWindowFor(json, { limit: TIMELINE_DEFAULT_LIMIT, from: 0 })).toBeNull();
      expect(
        firstWindowFor(json!.replace('"version":3', '"version":2'), { limit: TIMELINE_DEFAULT_LIMIT }),
      ).toBeNull();
      // Stored as text ending with the wire form, sent as it is; one stored by version 1 (the
      // payload as drawn, no lanes beside it) is still served, put in wire form on the way out.
      expect(firstWindowTextFor(json, { limit: TIMELINE_DEFAULT_LIMIT })).toBe(
        JSON.stringify(encodeTimeline(cut)),
      );
      const v1 = JSON.stringify({
        version: 1,
        pack: JSON.parse(json!).pack,
        limit: TIMELINE_DEFAULT_LIMIT,
        payload: cut,
      });
      expect(firstWindowFor(v1, { limit: TIMELINE_DEFAULT_LIMIT })).toEqual(cut);
      expect(firstWindowFor(v1, { limit: TIMELINE_DEFAULT_LIMIT, lanes: cut.lanesBy })).toEqual(cut);
      expect(firstWindowFor(v1, { limit: TIMELINE_DEFAULT_LIMIT, lanes: other })).toBeNull();
      // The route, a fresh server's first visit, answers it; a run stored without one cuts the same.
      forgetTimelines();
      expect(await timeline(id)).toEqual(cut);
      await db
        .updateTable("run_timeline_columns")
        .set({ first_window: null })
        .where("run_id", "=", id)
        .execute();
      forgetTimelines();
      expect(await timeline(id)).toEqual(cut);
    }
    expect([...lanesSeen].sort()).toEqual(["none", "worker"]);
  });

  it("answers the first visit from the stored window alone: neither the columns nor the rows are read", async () => {
    const turns = generateMultiTurnRun(tmp("first-alone"), { conversations: 7, maxTurns: 5, seed: 2 });
    const id = await uploadFiles([turns.jsonlPath, turns.summaryPath]);
    const db = app.app.store.db;
    forgetTimelines();
    const whole = await timeline(id);
    const zoom = await timeline(
      id,
      `from=${whole.run.startMs}&to=${(whole.run.startMs + whole.run.endMs) / 2}`,
    );
    // An unreadable blob and no rows: only the stored window is left to answer from.
    await db
      .updateTable("run_timeline_columns")
      .set({ data: new Uint8Array(1) })
      .where("run_id", "=", id)
      .execute();
    await db.deleteFrom("aiperf_requests").where("run_id", "=", id).execute();
    await db.deleteFrom("run_column_files").where("run_id", "=", id).execute();
    forgetTimelines();
    expect(await timeline(id)).toEqual(whole);
    const res = await getTimeline(
      url(`/api/runs/${id}/timeline?from=${whole.run.startMs}&to=${zoom.window.toMs}`),
      idParams(id),
    );
    expect(res.status).toBe(404);
  });

  it("is replaced by a re-ingest and removed with the run", async () => {
    const dir = tmp("stored-aiperf");
    const run = await generateAiperfRun(dir, { records: 40, concurrency: 2, csv: false });
    const id = await uploadFiles([run.jsonlPath, run.summaryPath]);
    const db = app.app.store.db;
    const count = () =>
      db.selectFrom("run_timeline_columns").select("run_id").where("run_id", "=", id).execute();
    expect(await count()).toHaveLength(1);
    const again = await reingest(url(`/api/runs/${id}/reingest`), idParams(id));
    expect(again.status).toBeLessThan(300);
    expect(await count()).toHaveLength(1);
    const gone = await deleteRun(
      new Request(`http://localhost/api/runs/${id}`, { method: "DELETE" }),
      idParams(id),
    );
    expect(gone.status).toBeLessThan(300);
    expect(await count()).toHaveLength(0);
  });
});
