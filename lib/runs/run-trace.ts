/**
 * A run's requests as a Chrome JSON trace (docs/formats.md §Trace export), written out as text
 * chunks page by page so a large run streams instead of being built in memory.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import { MAX_SAMPLE } from "@/lib/api/trtllm-charts";
import { formatCount } from "@/lib/format-number";
import {
  aiperfRequestEvents,
  LaneTable,
  ProcessTable,
  trtllmRequestEvents,
  type TraceEvent,
} from "@/lib/metrics/chrome-trace";
import { MAX_POINTS } from "@/lib/metrics/aiperf-timeline";
import type { SegmentValue } from "@/lib/metrics/time-breakdown";
import { unpackSteps, type PackedStep } from "@/lib/metrics/trtllm-steps";
import type { Pause } from "@/lib/store/columnar/engine";
import type { Db } from "@/lib/store/db";
import { getFiles, getRun } from "@/lib/store/runs-repo";
import {
  aiperfTimedCount,
  aiperfTraceSample,
  trtllmRequestCount,
  trtllmTracePages,
  type TrtllmTraceColumns,
} from "@/lib/store/trace-rows";

export type TraceSource = "trtllm" | "aiperf";

export interface RunTrace {
  source: TraceSource;
  runName: string;
  chunks: AsyncGenerator<string>;
}

/**
 * The trace of a ready run, from its TensorRT-LLM requests when it has them, else its aiperf
 * records; null when the run is unknown, `"empty"` when it has no per-request rows to trace.
 * Both families are never mixed: their clocks have different origins.
 */
export async function runTrace(
  db: Db,
  runId: string,
  want?: TraceSource,
  { pause = nextTurn }: { pause?: Pause } = {},
): Promise<RunTrace | "empty" | null> {
  const run = await getRun(db, runId);
  if (!run || run.status !== "ready") return null;
  const trtllm = want === "aiperf" ? 0 : await trtllmRequestCount(db, runId);
  if (trtllm > 0)
    return { source: "trtllm", runName: run.name, chunks: trtllmChunks(db, run, trtllm, pause) };
  const aiperf = want === "trtllm" ? 0 : await aiperfTimedCount(db, runId);
  if (aiperf > 0)
    return { source: "aiperf", runName: run.name, chunks: aiperfChunks(db, run, aiperf, pause) };
  return "empty";
}

interface RunRef {
  id: string;
  name: string;
}

/** The opening of the trace object: what it holds and how it was sampled, then the event array. */
function header(
  run: RunRef,
  source: string,
  total: number,
  kept: number,
  rule: string,
  notes: string[],
): string {
  const sampled = kept < total;
  const otherData: Record<string, string> = {
    producer: "Runlens",
    run: run.name,
    runId: run.id,
    source,
    requests: String(total),
    requestsInTrace: String(kept),
    sampling: sampled ? rule : "none: every request is in the trace",
    timeOrigin: "ts 0 is the run's first request arrival",
    ...Object.fromEntries(notes.map((n, i) => [`note${i + 1}`, n])),
  };
  const label = sampled
    ? `sampled: ${formatCount(kept)} of ${formatCount(total)} requests (${rule})`
    : total === 1
      ? "the 1 request"
      : `all ${formatCount(total)} requests`;
  const events: TraceEvent[] = [
    { name: "process_name", ph: "M", pid: 0, tid: 0, args: { name: `Runlens · ${run.name}` } },
    { name: label, ph: "i", s: "g", pid: 0, tid: 0, ts: 0, args: { ...otherData } },
  ];
  return `{"displayTimeUnit":"ms","otherData":${JSON.stringify(otherData)},"traceEvents":[\n${lines(events)}`;
}

/** TensorRT-LLM requests written per turn of the event loop. */
const REQUESTS_PER_TURN = 20;

/**
 * aiperf requests written per turn (some 550 bytes of events each): the whole sample of 2,000 is
 * one page, which written in one piece held the loop some 0.3–0.7 s at load 40.
 */
const AIPERF_REQUESTS_PER_TURN = 200;

const lines = (events: readonly TraceEvent[]) => events.map((e) => JSON.stringify(e)).join(",\n");

/** The opening of a TensorRT-LLM run's trace of `total` requests, up to its first events. */
export function trtllmTraceHeader(run: RunRef, total: number): string {
  const kept = Math.ceil(total / Math.max(1, Math.ceil(total / MAX_SAMPLE)));
  const stride = Math.ceil(total / MAX_SAMPLE);
  return header(
    run,
    "TensorRT-LLM perf metrics",
    total,
    kept,
    `every ${ordinal(stride)} request by arrival order, at most ${formatCount(MAX_SAMPLE)}, as the per-request charts sample`,
    [
      "one process per worker, one track per request; segments are the time-breakdown spans",
      "GPU step times carry no start stamp: each is placed at the CPU phase it was measured in",
    ],
  );
}

/** A stored TensorRT-LLM request row as the trace's events are drawn from it. */
export function traceRequestOf(r: TrtllmTraceColumns) {
  return {
    idx: r.idx,
    mode: r.mode,
    requestId: r.request_id,
    ctxWorker: r.ctx_worker,
    genWorker: r.gen_worker,
    times: JSON.parse(r.times_json) as Record<string, number | null>,
    segments: JSON.parse(r.segments_json) as SegmentValue[],
    steps: unpackSteps(JSON.parse(r.steps_json) as PackedStep[]),
  };
}

async function* trtllmChunks(db: Db, run: RunRef, total: number, pause: Pause): AsyncGenerator<string> {
  yield trtllmTraceHeader(run, total);
  const procs = new ProcessTable();
  for await (const rows of trtllmTracePages(db, run.id, total, MAX_SAMPLE, { pause })) {
    let events: TraceEvent[] = [];
    for (const [i, r] of rows.entries()) {
      // A request with its steps is ~10 kB of events: hand out each few requests' worth and let
      // the server answer others between them, rather than build a page's megabytes in one turn.
      if (i > 0 && i % REQUESTS_PER_TURN === 0) {
        if (events.length > 0) yield `,\n${lines(events)}`;
        events = [];
        await pause();
      }
      const own = trtllmRequestEvents(traceRequestOf(r), procs);
      for (const e of procs.drain()) events.push(e);
      for (const e of own) events.push(e);
    }
    if (events.length > 0) yield `,\n${lines(events)}`;
  }
  yield "\n]}\n";
}

async function* aiperfChunks(db: Db, run: RunRef, total: number, pause: Pause): AsyncGenerator<string> {
  const kept = Math.min(total, MAX_POINTS);
  yield header(
    run,
    "aiperf per-request records",
    total,
    kept,
    `evenly spaced by start time, at most ${formatCount(MAX_POINTS)}, by the over-time charts' rule (warm-up and failed requests included)`,
    [
      "one process per aiperf worker (per records file when the records name no worker), its requests on as few tracks as keep them from overlapping",
      "each request is its lifetime as the client saw it, with the time to first token nested in it",
    ],
  );
  const fileNames = new Map((await getFiles(db, run.id)).map((f) => [f.id, f.name]));
  const procs = new ProcessTable();
  const lanes = new LaneTable();
  // The over-time charts' rule: positions ⌊i · n / max⌋ of the start-ordered records, the only
  // ones read.
  const step = total > MAX_POINTS ? total / MAX_POINTS : 1;
  const positions = Array.from({ length: kept }, (_, i) => Math.floor(i * step));
  let seq = 0;
  for await (const rows of aiperfTraceSample(db, run.id, positions, { pause })) {
    let events: TraceEvent[] = [];
    for (const [i, r] of rows.entries()) {
      if (i > 0 && i % AIPERF_REQUESTS_PER_TURN === 0) {
        if (events.length > 0) yield `,\n${lines(events)}`;
        events = [];
        await pause();
      }
      const own = aiperfRequestEvents(
        {
          seq: seq++,
          requestId: r.request_id,
          worker: r.worker_id
            ? `aiperf ${r.worker_id}`
            : `aiperf client · ${fileNames.get(r.file_id) ?? r.file_id}`,
          phase: r.phase,
          ok: r.ok === 1,
          errorType: r.error_type,
          startMs: r.start_ms as number,
          endMs: r.end_ms as number,
          ttftMs: r.ttft_ms,
        },
        procs,
        lanes,
      );
      for (const e of procs.drain()) events.push(e);
      for (const e of lanes.drain()) events.push(e);
      for (const e of own) events.push(e);
    }
    if (events.length > 0) yield `,\n${lines(events)}`;
  }
  yield "\n]}\n";
}

function ordinal(n: number): string {
  if (n === 1) return "";
  const tail = n % 100 >= 11 && n % 100 <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th");
  return `${formatCount(n)}${tail}`;
}

/** Why a trace stopped before its end: its rows are no longer the run's. */
export class TraceInterrupted extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "TraceInterrupted";
  }
}

/**
 * `chunks` as long as the run's rows stay those the trace began on: before each piece is handed
 * on, `changed` looks at the run (lib/server/drilldown-guard.ts). Once a re-ingest has begun (or
 * the run failed), the rows read next would be the new run's, or none: the trace stops there, its
 * last piece a global instant event that says so (a partial file opened in Perfetto shows why it
 * ends), the JSON is left unclosed (a parser refuses it) and the stream fails with
 * `TraceInterrupted` (the download fails: the connection closes without the end of the body).
 * A deleted run ends it the same way (`not_found`), also when the read itself failed on its
 * removed rows.
 */
export async function* untilRowsChange(
  chunks: AsyncGenerator<string>,
  changed: () => Promise<{ code: string; message: string } | null>,
): AsyncGenerator<string> {
  let sent = false;
  try {
    for (;;) {
      // A read that fails because its rows went under it (a delete, a re-ingest clearing them)
      // is that change, said as such; any other failure stays what it is.
      let next: IteratorResult<string> | undefined;
      let failure: unknown = null;
      try {
        next = await chunks.next();
      } catch (err) {
        failure = err;
      }
      const why = await changed();
      if (why) {
        const message = `trace export interrupted: ${why.message}. This file is incomplete; download the trace again`;
        if (sent) {
          const event: TraceEvent = {
            name: message,
            ph: "i",
            s: "g",
            pid: 0,
            tid: 0,
            ts: 0,
            args: { error: why.code, message },
          };
          yield `,\n${JSON.stringify(event)}\n`;
        }
        throw new TraceInterrupted(why.code, message);
      }
      if (failure || !next) throw failure;
      if (next.done) return;
      sent = true;
      yield next.value;
    }
  } finally {
    await chunks.return(undefined);
  }
}
