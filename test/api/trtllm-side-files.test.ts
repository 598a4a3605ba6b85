/**
 * TensorRT-LLM side files beside the perf metrics: per-rank `time_events_rank*` JSONL
 * (tensorrt_llm/serve/scripts/perf_time_events/README.md), `/metrics` iteration stats
 * (tensorrt_llm/serve/openai_server.py, `IterationStats` JSON) and request stats
 * (`RequestStatsPerIteration` JSON). Samples: test/generators/trtllm-phases.mjs. Each is
 * recognised, stored, listed with its record count and said to be not charted. Time events in the
 * writer's per-event form follow tensorrt_llm/serve/perf_time_events_writer.py (`make_event_record`)
 * and the events of tensorrt_llm/serve/scripts/perf_time_events/perf_time_events.py; their ids are
 * TensorRT-LLM's 64-bit disaggregated request ids (tensorrt_llm/llmapi/disagg_utils.py
 * `get_global_disagg_request_id`, test/generators/trtllm-jsonl-writer.mjs `snowflakeId`).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { POST as upload } from "@/app/api/runs/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { detectKind } from "@/lib/formats/detect";
import { timeEventFileOptions } from "@/lib/store/columnar/trtllm-time-events-file";
import { generateTrtllmRun, readRecords } from "../generators/trtllm.mjs";
import { snowflakeId } from "../generators/trtllm-jsonl-writer.mjs";
import {
  GEN_EVENTS,
  iterationStats,
  iterationStatsPolls,
  jsonl,
  perEventTimeEvents,
  perRequestTimeEvents,
  requestStatsPerIteration,
  timeEventsLines,
} from "../generators/trtllm-phases.mjs";
import { readReadyRun } from "../helpers/read-api";
import { freshAppEachTest, idParams, uploadRequest } from "../helpers/test-app";

freshAppEachTest();

function generatedWorkerRecords() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-side-files-"));
  const gen = generateTrtllmRun({ dir, mode: "aggregated", requests: 5, ctxWorkers: 1, seed: 3 });
  return { perfFile: gen.files[0], records: readRecords(gen.files[0]) };
}

const detect = (text: string) => detectKind(Buffer.from(text), true);

describe("side files are recognised by content", () => {
  it("time events, iteration stats and request stats, in every layout their writers use", () => {
    const { records } = generatedWorkerRecords();
    const side = (format: string) => ({ kind: "trtllm-side-file", format });
    expect(detect(timeEventsLines(records, 1))).toEqual(side("time-events"));
    // One `/metrics` answer; a poller's log of answers; one stat per line.
    expect(detect(JSON.stringify(iterationStats(0, 3)))).toEqual(side("iteration-stats"));
    expect(detect(iterationStatsPolls([2, 0, 3]))).toEqual(side("iteration-stats"));
    expect(detect(jsonl(iterationStats(0, 3)))).toEqual(side("iteration-stats"));
    expect(detect(JSON.stringify(requestStatsPerIteration(0, 2), null, 2))).toEqual(side("request-stats"));
    expect(detect(jsonl(requestStatsPerIteration(0, 2)))).toEqual(side("request-stats"));
    // A first line larger than the detection head is placed by its key names.
    const cut = timeEventsLines(records, 1).slice(0, 120);
    expect(detectKind(Buffer.from(cut), false)).toEqual(side("time-events"));
    // The perf-metrics records themselves stay perf metrics.
    expect(detect(jsonl(records)).kind).toBe("trtllm-perf-metrics");
  });
});

describe("side files in an upload", () => {
  it("are stored and listed with their records, and the Files view says they are not charted", async () => {
    const { perfFile, records } = generatedWorkerRecords();
    const polls = iterationStatsPolls([2, 0, 3]);
    const res = await upload(
      uploadRequest([
        { name: "perf_metrics-server-h-1-x.jsonl", path: perfFile },
        { name: "time_events_rank0_pid77.jsonl", content: timeEventsLines(records, 0) },
        // A poll cut off mid-array: the complete elements are kept, the loss is said.
        { name: "iteration_stats.jsonl", content: polls + '[{"iter": 5, "iterLat' },
        { name: "request_stats.json", content: JSON.stringify(requestStatsPerIteration(0, 4)) },
      ]),
    );
    expect(res.status).toBe(201);
    const { id } = await res.json();
    const { run, files: byName } = await readReadyRun(id);

    const events = byName.get("time_events_rank0_pid77.jsonl")!;
    expect(events).toMatchObject({ kind: "trtllm-side-file", format: "time-events", records: 5, skipped: 0 });
    expect(events.meta!.charted).toMatch(/^no; a chart of it would show per-rank step timelines/);

    const iters = byName.get("iteration_stats.jsonl")!;
    expect(iters).toMatchObject({
      kind: "trtllm-side-file",
      format: "iteration-stats",
      records: 5,
      skipped: 0,
    });
    expect(iters.warnings).toEqual([
      { message: "the JSON array is truncated; elements after the last complete one are lost" },
    ]);
    expect(iters.meta).toEqual({
      holds: "per-iteration executor stats (iterLatencyMS, kvCacheStats, inflightBatchingStats)",
      charted:
        "no; a chart of it would show iteration latency, KV-cache block usage and batch composition over iterations; the KV view charts KV usage from server metrics",
    });

    const reqs = byName.get("request_stats.json")!;
    expect(reqs).toMatchObject({ kind: "trtllm-side-file", format: "request-stats", records: 4, skipped: 0 });
    expect(reqs.meta!.charted).toMatch(/^no; /);

    // The perf metrics beside them are read as before.
    expect(byName.get("perf_metrics-server-h-1-x.jsonl")).toMatchObject({
      kind: "trtllm-perf-metrics",
      records: 5,
    });
    expect(run.timeBreakdown?.requestCount).toBe(5);
  });

  it("a line that is not the file's record is skipped with its number", async () => {
    const { records } = generatedWorkerRecords();
    const lines = timeEventsLines(records.slice(0, 2), 0) + '{"iter": 1}\n';
    const res = await upload(uploadRequest([{ name: "time_events_rank1_pid9.jsonl", content: lines }]));
    expect(res.status).toBe(201);
    const { id } = await res.json();
    const run = await (await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id))).json();
    expect(run.files[0]).toMatchObject({
      kind: "trtllm-side-file",
      records: 2,
      skipped: 1,
      warnings: [{ line: 3, message: "skipped line: not a time-events record" }],
    });
  });
});

describe("time events join each request's lines by its exact 64-bit id", () => {
  // Four requests of one millisecond on one node and process: snowflakes a counter apart, beyond a
  // double's 53 bits (read as numbers, all four were one request).
  const ids = [0, 1, 2, 3].map((counter) =>
    snowflakeId({ monotonicMs: 3_024_000_000, node: 3, processId: 1, counter }),
  );
  const ctxIds = [0, 1, 2, 3].map((counter) =>
    snowflakeId({ monotonicMs: 3_024_000_000, node: 2, processId: 0, counter }),
  );

  async function fileOf(name: string, content: string) {
    const res = await upload(uploadRequest([{ name, content }]));
    expect(res.status).toBe(201);
    const { id } = await res.json();
    const run = await (await getRun(new Request(`http://localhost/api/runs/${id}`), idParams(id))).json();
    return run.files[0];
  }

  it("per-event lines: four requests of one millisecond stay four, and the one that hung is named with its id", async () => {
    expect(ids.every((x) => x > BigInt(Number.MAX_SAFE_INTEGER))).toBe(true);
    expect(new Set(ids.map(Number)).size).toBe(1);
    // The third request hung in its KV transfer: its last line is gen_kv_transfer_start.
    const hung = GEN_EVENTS.slice(0, 3);
    const content = perEventTimeEvents(
      ids.map((requestId, i) => ({
        requestId,
        ctxRequestId: ctxIds[i],
        ...(i === 2 ? { events: hung } : {}),
      })),
      { rank: 0, pid: 77 },
    );
    expect(detect(content)).toEqual({ kind: "trtllm-side-file", format: "time-events" });
    const file = await fileOf("time_events_rank0_pid77.jsonl", content);
    expect(file).toMatchObject({
      kind: "trtllm-side-file",
      format: "time-events",
      records: 3 * GEN_EVENTS.length + hung.length,
      skipped: 0,
    });
    expect(file.meta).toMatchObject({
      requests: 4,
      "requests by role": "gen 4",
      unfinished: `1: gen ${ids[2]} stopped after gen_kv_transfer_start`,
    });
  });

  it("per-request lines: one record per request, each id exact", async () => {
    const content = perRequestTimeEvents(ids.map((requestId, i) => ({ requestId, ctxRequestId: ctxIds[i] })));
    const file = await fileOf("time_events_rank1_pid78.jsonl", content);
    expect(file).toMatchObject({ kind: "trtllm-side-file", format: "time-events", records: 4, skipped: 0 });
    expect(file.meta.requests).toBe(4);
    expect(file.meta.unfinished).toBeUndefined();
  });

  /**
   * The largest Map or Set `fn` fills with keys naming one of the file's request ids (`marker` in
   * them): what is held per request while the file is counted.
   */
  async function heldPerRequest<T>(
    marker: string,
    fn: () => Promise<T>,
  ): Promise<{ result: T; held: number }> {
    const set = Map.prototype.set;
    const add = Set.prototype.add;
    let held = 0;
    const watch = (size: number, key: unknown) => {
      if (typeof key === "string" && key.includes(marker) && size > held) held = size;
    };
    Map.prototype.set = function (this: Map<unknown, unknown>, k: unknown, v: unknown) {
      const out = set.call(this, k, v);
      watch(this.size, k);
      return out;
    };
    Set.prototype.add = function (this: Set<unknown>, k: unknown) {
      const out = add.call(this, k);
      watch(this.size, k);
      return out;
    };
    try {
      return { result: await fn(), held };
    } finally {
      Map.prototype.set = set;
      Set.prototype.add = add;
    }
  }

  it("a file of 10,000 requests, one in flight at a time, is counted holding one request, not 10,000: the same counts, its hung requests named in order", async () => {
    const n = 10_000;
    // Ids of one node and process, a millisecond each: "4242…" marks them in the keys held.
    const idOf = (i: number) => `4242${String(i).padStart(15, "0")}`;
    const hung = new Set([17, 4_500, 9_998, 9_999]);
    let content = "";
    for (let i = 0; i < n; i++)
      content += perEventTimeEvents(
        [{ requestId: idOf(i), ...(hung.has(i) ? { events: GEN_EVENTS.slice(0, 2 + (i % 3)) } : {}) }],
        {
          rank: 0,
          pid: 77,
          t0: 3_024_000 + i,
        },
      );
    // A stray line of request 3 after its last event: still one request, finished.
    content += perEventTimeEvents([{ requestId: idOf(3), events: ["gen_first_token"] }], { t0: 3_034_000 });
    // Segments spilled on the way: the count reads them and the rows still staged.
    timeEventFileOptions.spillRows = 4_096;
    try {
      const { result: file, held } = await heldPerRequest("4242000", () =>
        fileOf("time_events_rank0_pid77.jsonl", content),
      );
      expect(file).toMatchObject({
        kind: "trtllm-side-file",
        format: "time-events",
        records:
          (n - hung.size) * GEN_EVENTS.length +
          [17, 4_500, 9_998, 9_999].reduce((t, i) => t + 2 + (i % 3), 0) +
          1,
        skipped: 0,
      });
      expect(file.meta).toMatchObject({
        requests: n,
        "requests by role": `gen ${n}`,
        unfinished: `4: gen ${idOf(17)} stopped after gen_kv_transfer_end; gen ${idOf(4_500)} stopped after gen_init_scheduled; gen ${idOf(9_998)} stopped after gen_kv_transfer_end; …`,
      });
      // What is held is the requests in flight: the one being read and the four that hung (never
      // finished, so in flight to the end); the old count kept every request's entry, 10,000.
      expect(held).toBe(hung.size + 1);
    } finally {
      timeEventFileOptions.spillRows = 32_768;
    }
  });
});
