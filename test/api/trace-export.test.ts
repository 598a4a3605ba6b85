/**
 * GET /api/runs/{id}/trace.json: the trace parses as the Trace Event Format's JSON object form,
 * every request's TTFT spans tile its TTFT, steps sit on CPU and GPU rows of their worker, and a
 * large run is sampled by the per-request charts' rule and says so. Samples come from
 * test/generators/trtllm.mjs (records shaped as TensorRT-LLM's serve/openai_server.py writes its
 * perf_metrics) and a real aiperf profile_export.jsonl.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GET as getTrace } from "@/app/api/runs/[id]/trace.json/route";
import { GET as getSample } from "@/app/api/runs/[id]/trtllm/requests/route";
import { GET as getDetail } from "@/app/api/runs/[id]/trtllm/requests/[idx]/route";
import { requestDetailSchema, requestSampleSchema } from "@/lib/api/trtllm-charts";
import { aiperfTracePages } from "@/lib/store/trace-rows";
import { DISAGG_SEGMENTS, generateTrtllmRun, type GenerateOptions } from "../generators/trtllm.mjs";
import {
  expectNamedTracks,
  expectNestedTracks,
  traceFileSchema,
  type CompleteEvent,
  type TraceFile,
} from "../helpers/chrome-trace-schema";
import { fixture, freshAppEachTest, idParams, uploadRun } from "../helpers/test-app";
import { storedAiperfRows } from "../helpers/aiperf-request-rows";

const t0 = freshAppEachTest();

const url = (p: string) => new Request(`http://localhost${p}`);

async function uploadGenerated(opts: Omit<GenerateOptions, "dir">) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-trace-"));
  const gen = generateTrtllmRun({ dir, ...opts });
  const id = await uploadRun(gen.files.map((p) => ({ name: path.basename(p), path: p })));
  return { id, gen };
}

async function trace(id: string, query = ""): Promise<{ res: Response; trace: TraceFile }> {
  const res = await getTrace(url(`/api/runs/${id}/trace.json${query}`), idParams(id));
  expect(res.status).toBe(200);
  return { res, trace: traceFileSchema.parse(JSON.parse(await res.text())) };
}

const spans = (t: TraceFile) => t.traceEvents.filter((e): e is CompleteEvent => e.ph === "X");
const processNames = (t: TraceFile) =>
  new Map(
    t.traceEvents.flatMap((e) => (e.ph === "M" && e.name === "process_name" ? [[e.pid, e.args.name]] : [])),
  );

/** Each request's TTFT spans, by request idx, in time order. */
function ttftSpans(t: TraceFile): Map<number, CompleteEvent[]> {
  const out = new Map<number, CompleteEvent[]>();
  for (const e of spans(t)) {
    if (e.cat !== "ttft") continue;
    const idx = e.args!.idx as number;
    out.set(idx, [...(out.get(idx) ?? []), e]);
  }
  for (const list of out.values()) list.sort((a, b) => a.ts - b.ts);
  return out;
}

async function detail(id: string, idx: number) {
  const res = await getDetail(url(`/api/runs/${id}/trtllm/requests/${idx}`), {
    params: Promise.resolve({ id, idx: String(idx) }),
  });
  return requestDetailSchema.parse(await res.json());
}

/** The spans start where the request arrived, follow one another without gap, and end at its first token. */
async function expectTilesTtft(id: string, t: TraceFile, segments: readonly string[]) {
  const byRequest = ttftSpans(t);
  expect(byRequest.size).toBeGreaterThan(0);
  for (const [idx, list] of byRequest) {
    const d = await detail(id, idx);
    expect(list.map((e) => e.name)).toEqual(segments);
    const start = Math.min(...Object.values(d.times).filter((v): v is number => v !== null));
    expect(list[0].ts).toBeCloseTo(start * 1000, 2);
    for (let i = 1; i < list.length; i++) expect(list[i].ts).toBeCloseTo(list[i - 1].ts + list[i - 1].dur, 2);
    const sum = list.reduce((s, e) => s + e.dur, 0);
    expect(sum, `request ${idx}`).toBeCloseTo(d.ttftMs! * 1000, 4);
  }
}

describe("trace export", () => {
  it("an aggregated run: one process per worker, a track per request, spans tiling TTFT, CPU and GPU step rows", async () => {
    const { id, gen } = await uploadGenerated({
      mode: "aggregated",
      requests: 40,
      seed: 3,
      ctxWorkers: 2,
      stepsPerRequest: 6,
    });
    const { res, trace: t } = await trace(id);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="[\w.-]+-trace\.json"$/);
    expect(t.displayTimeUnit).toBe("ms");
    expect(t.otherData).toMatchObject({ producer: "Runlens", requests: "40", requestsInTrace: "40" });
    expect(t.otherData.sampling).toMatch(/^none/);
    expectNestedTracks(t.traceEvents);
    expectNamedTracks(t.traceEvents);

    const names = [...processNames(t).values()];
    expect(names.filter((n) => n.startsWith("worker ")).sort()).toEqual(
      gen.files.map((f) => `worker ${path.basename(f, ".jsonl")}`).sort(),
    );
    await expectTilesTtft(id, t, ["ctx_preprocessing", "ctx_queue", "ctx_processing", "ctx_postprocessing"]);

    // Decode: one span per request, from the first to the last token, equal to the stored segment.
    const decode = spans(t).filter((e) => e.name === "decode");
    expect(decode).toHaveLength(40);
    const d0 = await detail(id, 0);
    const dec0 = decode.find((e) => e.args!.idx === 0)!;
    expect(dec0.dur).toBeCloseTo((d0.segments.find((s) => s.name === "decode")!.value as number) * 1000, 2);

    // Steps: forward, update and sample on the request's CPU row; GPU forward and sample on its GPU row.
    const steps0 = spans(t).filter((e) => e.args!.idx === 0 && (e.cat === "cpu" || e.cat === "gpu"));
    const forward = steps0.filter((e) => e.name === "forward");
    expect(forward.length).toBe(d0.steps.filter((s) => s.startMs !== null && s.forwardMs !== null).length);
    expect(forward.length).toBeGreaterThan(0);
    const firstStep = d0.steps.find((s) => s.startMs !== null)!;
    expect(forward[0].ts).toBeCloseTo(
      Math.min(...d0.steps.flatMap((s) => (s.startMs === null ? [] : [s.startMs]))) * 1000,
      2,
    );
    expect(forward.some((e) => Math.abs(e.dur - firstStep.forwardMs! * 1000) < 0.01)).toBe(true);
    const gpu = steps0.filter((e) => e.cat === "gpu");
    expect(gpu.length).toBeGreaterThan(0);
    const threadNames = t.traceEvents.flatMap((e) =>
      e.ph === "M" && e.name === "thread_name" ? [e.args.name] : [],
    );
    expect(threadNames.some((n) => / · CPU steps/.test(n))).toBe(true);
    expect(threadNames.some((n) => / · GPU steps/.test(n))).toBe(true);
    // A step's GPU rows are on its own worker, never on another request's track.
    const cpuTid = new Set(steps0.filter((e) => e.cat === "cpu").map((e) => e.tid));
    for (const e of gpu) expect(cpuTid.has(e.tid)).toBe(false);
  });

  it("a disaggregated run: spans on the disagg server, context and generation workers tile TTFT", async () => {
    const { id } = await uploadGenerated({
      mode: "disaggregated",
      requests: 30,
      seed: 9,
      ctxWorkers: 2,
      genWorkers: 2,
    });
    const { trace: t } = await trace(id);
    expectNestedTracks(t.traceEvents);
    expectNamedTracks(t.traceEvents);
    // Every segment before the first token; gen_queue stands only where the transfer stamps are absent.
    await expectTilesTtft(
      id,
      t,
      DISAGG_SEGMENTS.filter((name: string) => name !== "gen_queue" && name !== "decode"),
    );
    const procs = processNames(t);
    const where = (name: string) =>
      new Set(
        spans(t)
          .filter((e) => e.name === name)
          .map((e) => procs.get(e.pid)!.split(" ")[0]),
      );
    expect(where("disagg_relay")).toEqual(new Set(["disaggregated"]));
    expect(where("ctx_queue")).toEqual(new Set(["context"]));
    expect(where("gen_kv_transfer")).toEqual(new Set(["generation"]));
    expect(where("decode")).toEqual(new Set(["generation"]));
    const d3 = await detail(id, 3);
    const ctx = spans(t).find((e) => e.name === "ctx_queue" && e.args!.idx === 3)!;
    expect(procs.get(ctx.pid)).toBe(`context worker ${d3.ctxWorker}`);
  });

  it("samples a large run by the per-request charts' rule and says so", async () => {
    const { id } = await uploadGenerated({ mode: "aggregated", requests: 2101, seed: 4, stepsPerRequest: 0 });
    const { trace: t } = await trace(id);
    expect(t.otherData).toMatchObject({ requests: "2101", requestsInTrace: "1051" });
    expect(t.otherData.sampling).toMatch(/every 2nd request by arrival order, at most 2,000/);
    const notice = t.traceEvents.find((e) => e.ph === "i" && e.s === "g")!;
    expect(notice.name).toBe(
      "sampled: 1,051 of 2,101 requests (every 2nd request by arrival order, at most 2,000, as the per-request charts sample)",
    );
    const inTrace = [...new Set(spans(t).map((e) => e.args!.idx as number))].sort((a, b) => a - b);
    const chart = requestSampleSchema.parse(
      await (await getSample(url(`/api/runs/${id}/trtllm/requests?sort=arrival`), idParams(id))).json(),
    );
    expect(inTrace).toEqual(chart.requests.map((r) => r.idx).sort((a, b) => a - b));
    await expectTilesTtft(
      id,
      { ...t, traceEvents: t.traceEvents.filter((e) => e.ph !== "X" || (e.args!.idx as number) < 40) },
      ["ctx_preprocessing", "ctx_queue", "ctx_processing", "ctx_postprocessing"],
    );
  });

  it("an aiperf run: request lifetimes with TTFT nested and the first token marked; errors named", async () => {
    const dir = fixture("aiperf/real-v0.6-c4");
    const id = await uploadRun([
      { name: "profile_export.jsonl", path: path.join(dir, "profile_export.jsonl") },
    ]);
    const { trace: t } = await trace(id);
    expectNestedTracks(t.traceEvents);
    expectNamedTracks(t.traceEvents);
    const lines = fs
      .readFileSync(path.join(dir, "profile_export.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(t.otherData).toMatchObject({
      source: "aiperf per-request records",
      requests: String(lines.length),
    });
    const lifetimes = spans(t).filter((e) => e.name.startsWith("request"));
    expect(lifetimes).toHaveLength(lines.length);
    expect(lifetimes.filter((e) => e.args!.ok === false)).toHaveLength(2);
    // Start order, from the run's first request; TTFT as aiperf measured it (its metric, in ms).
    const first = lines.reduce((a, b) =>
      BigInt(a.metadata.request_start_ns) < BigInt(b.metadata.request_start_ns) ? a : b,
    );
    const own = lifetimes.find((e) => e.args!.request === first.metadata.x_request_id)!;
    expect(own.ts).toBe(0);
    const e2eUs =
      Number(BigInt(first.metadata.request_end_ns) - BigInt(first.metadata.request_start_ns)) / 1000;
    expect(own.dur).toBeCloseTo(e2eUs, 0);
    const ttft = spans(t).find((e) => e.name === "ttft" && e.tid === own.tid)!;
    expect(ttft.dur).toBeCloseTo(first.metrics.time_to_first_token.value * 1000, 1);
    const mark = t.traceEvents.find(
      (e): e is Extract<typeof e, { ph: "i" }> =>
        e.ph === "i" && e.name === "first token" && e.tid === own.tid,
    )!;
    expect(mark.ts).toBeCloseTo(ttft.ts + ttft.dur, 3);
    // Every record names one worker (metadata.worker_id), which keeps 4 requests in flight
    // (concurrency 4): one process for it, and its 200 requests on 4 tracks that never overlap.
    const workers = new Set(lines.map((l) => l.metadata.worker_id));
    expect([...workers]).toEqual(["worker_b7d88641"]);
    const procs = t.traceEvents
      .filter((e) => e.ph === "M" && e.name === "process_name")
      .map((e) => ({ pid: e.pid, name: (e.args as { name: string }).name }));
    expect(procs.map((p) => p.name)).toContain("aiperf worker_b7d88641");
    const pid = procs.find((p) => p.name === "aiperf worker_b7d88641")!.pid;
    expect(new Set(lifetimes.map((e) => e.pid))).toEqual(new Set([pid]));
    expect(new Set(lifetimes.map((e) => e.tid))).toEqual(new Set([1, 2, 3, 4]));
  });

  it("stores each aiperf request's worker", async () => {
    const dir = fixture("aiperf/real-v0.6-c4");
    const id = await uploadRun([
      { name: "profile_export.jsonl", path: path.join(dir, "profile_export.jsonl") },
    ]);
    const rows = await storedAiperfRows(t0.app.store.db, id);
    expect(rows).toHaveLength(200);
    expect(new Set(rows.map((r) => r.worker_id))).toEqual(new Set(["worker_b7d88641"]));
  });

  it("reads aiperf records in keyset pages that neither skip nor repeat a record", async () => {
    const dir = fixture("aiperf/real-v0.6-c4");
    const id = await uploadRun([
      { name: "profile_export.jsonl", path: path.join(dir, "profile_export.jsonl") },
    ]);
    const collect = async (page: number) => {
      const out: string[] = [];
      for await (const rows of aiperfTracePages(t0.app.store.db, id, page))
        for (const r of rows) out.push(`${r.start_ms}|${r.file_id}|${r.line}`);
      return out;
    };
    const whole = await collect(10_000);
    expect(whole).toHaveLength(200);
    expect(await collect(7)).toEqual(whole);
    expect(await collect(1)).toEqual(whole);
  });

  it("answers 404 for an unknown run and for a run without per-request records", async () => {
    const unknown = await getTrace(
      url("/api/runs/AAAAAAAAAAAAAAAAAAAAAA/trace.json"),
      idParams("AAAAAAAAAAAAAAAAAAAAAA"),
    );
    expect(unknown.status).toBe(404);
    const id = await uploadRun([
      { name: "profile_export_aiperf.json", path: fixture("aiperf/real-v0.10__profile_export_aiperf.json") },
    ]);
    const res = await getTrace(url(`/api/runs/${id}/trace.json`), idParams(id));
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe("no_requests");
  });
});
