/**
 * Requests as Chrome JSON trace events (docs/formats.md §Trace export): complete events (`ph: "X"`,
 * `ts`/`dur` in µs from the run's first arrival) on one track per request, one process per worker.
 * Pure: the caller reads the rows and writes the events out.
 */
import type { BreakdownMode, SegmentValue } from "./time-breakdown";
import { segmentStart, segmentsFor } from "./time-breakdown";
import type { StepEntry } from "@/lib/api/trtllm-charts";

export interface TraceEvent {
  name: string;
  ph: "X" | "M" | "i";
  pid: number;
  tid: number;
  ts?: number;
  dur?: number;
  cat?: string;
  s?: "t" | "p" | "g";
  args?: Record<string, string | number | boolean | null>;
}

/**
 * Thread ids per request: its TTFT spans, its decode (which overlaps the spans after the first
 * token, so it cannot share their track), then its CPU and GPU step lanes (three each: a step that
 * overlaps the previous one takes the next lane).
 */
export const LANES_PER_REQUEST = 8;
const DECODE_LANE = 1;
const CPU_LANES = [2, 3, 4];
const GPU_LANES = [5, 6, 7];

/** Milliseconds to trace microseconds, unrounded: the spans of a request must add up to its TTFT. */
export const toUs = (ms: number) => ms * 1000;

/** Names worker processes in the order first seen, so a trace's pids are stable for the same run. */
export class ProcessTable {
  private readonly pids = new Map<string, number>();
  readonly pending: TraceEvent[] = [];

  pid(name: string): number {
    let pid = this.pids.get(name);
    if (pid === undefined) {
      pid = this.pids.size + 1;
      this.pids.set(name, pid);
      this.pending.push(meta("process_name", pid, 0, name), meta("process_sort_index", pid, 0, pid));
    }
    return pid;
  }

  /** Metadata events for processes named since the last call. */
  drain(): TraceEvent[] {
    return this.pending.splice(0);
  }
}

/**
 * Tracks for requests that overlap within one process (an aiperf worker keeps several in flight):
 * each request goes on the first track whose last request has ended, so no two slices on a
 * track overlap (a viewer cannot nest partly overlapping slices), and a worker that sends one
 * request at a time is one track. Requests must arrive in start order.
 */
export class LaneTable {
  private readonly ends = new Map<number, number[]>();
  readonly pending: TraceEvent[] = [];

  place(pid: number, startUs: number, endUs: number): number {
    let ends = this.ends.get(pid);
    if (!ends) this.ends.set(pid, (ends = []));
    let lane = ends.findIndex((end) => end <= startUs);
    if (lane < 0) {
      lane = ends.length;
      ends.push(endUs);
      const tid = lane + 1;
      const name = lane === 0 ? "requests" : `requests (${tid})`;
      this.pending.push(meta("thread_name", pid, tid, name), meta("thread_sort_index", pid, tid, tid));
    } else ends[lane] = endUs;
    return lane + 1;
  }

  /** Metadata events for tracks opened since the last call. */
  drain(): TraceEvent[] {
    return this.pending.splice(0);
  }
}

function meta(name: string, pid: number, tid: number, value: string | number): TraceEvent {
  return {
    name,
    ph: "M",
    pid,
    tid,
    args: name.endsWith("sort_index") ? { sort_index: value } : { name: value },
  };
}

export interface TrtllmTraceRow {
  idx: number;
  mode: BreakdownMode;
  requestId: string | null;
  ctxWorker: string | null;
  genWorker: string | null;
  /** ms from the run's first arrival, by timestamp name; null = not recorded */
  times: Record<string, number | null>;
  segments: SegmentValue[];
  steps: StepEntry[];
}

/**
 * Which process a segment ran in: the disagg server's own spans on the disagg server, the context
 * side on its worker, the generation side and decode on theirs (an aggregated server is the context
 * side for every segment, as in docs/metrics.md §Segments).
 */
function sideOf(name: string, mode: BreakdownMode): "disagg" | "ctx" | "gen" {
  if (mode === "aggregated") return "ctx";
  if (name.startsWith("disagg_")) return "disagg";
  return name.startsWith("ctx_") ? "ctx" : "gen";
}

function workerName(row: TrtllmTraceRow, side: "disagg" | "ctx" | "gen"): string {
  if (side === "disagg") return "disaggregated server";
  const worker = side === "ctx" ? row.ctxWorker : row.genWorker;
  const role = row.mode === "aggregated" ? "worker" : side === "ctx" ? "context worker" : "generation worker";
  return worker ? `${role} ${worker}` : `${role} (file not uploaded)`;
}

const requestLabel = (row: { idx: number; requestId: string | null }) =>
  `request ${row.requestId ?? `#${row.idx}`}`;

/**
 * One TensorRT-LLM request: each recorded segment as a span on its worker's track for the request,
 * then its steps, CPU phases on one row and GPU times on another. A segment not recorded, or left
 * out as more negative than clock skew, has no span (never a 0 µs one).
 */
export function trtllmRequestEvents(row: TrtllmTraceRow, procs: ProcessTable): TraceEvent[] {
  const out: TraceEvent[] = [];
  const base = row.idx * LANES_PER_REQUEST + 1;
  const named = new Set<string>();
  const thread = (pid: number, lane: number, label: string) => {
    const key = `${pid}:${lane}`;
    if (named.has(key)) return;
    named.add(key);
    out.push(
      meta("thread_name", pid, base + lane, label),
      meta("thread_sort_index", pid, base + lane, base + lane),
    );
  };
  const label = requestLabel(row);
  // Where the last TTFT span ended, and at which stamp: the next span that starts at that stamp
  // starts exactly there. Stored stamps are rounded to 0.1 µs and durations are not, so placing
  // each span at its own stamp would leave sub-µs gaps and overlaps, which a viewer reads as badly
  // nested slices, and their sum would miss TTFT by as much.
  let chain: { key: string; atUs: number } | null = null;
  segmentsFor(row.mode).forEach((def, i) => {
    const v = row.segments[i];
    const start = segmentStart(def, row.times);
    if (typeof v !== "number" || start === null || start === undefined) return;
    const pid = procs.pid(workerName(row, sideOf(def.name, row.mode)));
    const decode = def.name === "decode";
    const lane = decode ? DECODE_LANE : 0;
    thread(pid, lane, decode ? `${label} · decode` : label);
    const ts = !decode && chain?.key === def.start ? chain.atUs : toUs(start);
    if (!decode) chain = { key: def.end, atUs: ts + toUs(v) };
    out.push({
      name: def.name,
      cat: decode ? "decode" : "ttft",
      ph: "X",
      pid,
      tid: base + lane,
      ts,
      dur: toUs(v),
      args: { request: row.requestId, idx: row.idx, label: def.label },
    });
  });
  for (const e of stepEvents(row, procs, base, thread, label)) out.push(e);
  return out;
}

type ThreadNamer = (pid: number, lane: number, label: string) => void;

/**
 * Steps on lanes: a step that starts before the previous one on its lane ended (the overlap
 * scheduler prepares the next step while the last one samples) goes to the next free lane, so
 * spans on a track always nest as the format requires. GPU times carry no start stamp of their
 * own: they are placed at the CPU phase they were measured in.
 */
function stepEvents(
  row: TrtllmTraceRow,
  procs: ProcessTable,
  base: number,
  thread: ThreadNamer,
  label: string,
) {
  const out: TraceEvent[] = [];
  const ends = new Map<number, number>();
  const place = (pid: number, lanes: number[], startUs: number, endUs: number, title: string) => {
    const lane =
      lanes.find((l) => (ends.get(pid * 100 + l) ?? -Infinity) <= startUs) ?? lanes[lanes.length - 1];
    ends.set(pid * 100 + lane, endUs);
    thread(pid, lane, `${label} · ${title}${lane === lanes[0] ? "" : " (overlapped)"}`);
    return base + lane;
  };
  for (const s of row.steps) {
    if (s.startMs === null) continue;
    const side = row.mode === "aggregated" || s.kind === "chunk" ? "ctx" : "gen";
    const pid = procs.pid(workerName(row, side));
    const kind = s.kind === "chunk" ? "context chunk" : "step";
    const args = { request: row.requestId, idx: row.idx, iter: s.iter };
    const cpu: Array<[string, number | null]> = [
      ["forward", s.forwardMs],
      ["update", s.updateMs],
      ["sample", s.sampleMs],
    ];
    let t = s.startMs;
    const parts: TraceEvent[] = [];
    for (const [name, ms] of cpu) {
      if (ms === null) break;
      parts.push({ name, cat: "cpu", ph: "X", pid, tid: 0, ts: toUs(t), dur: toUs(ms), args });
      t += ms;
    }
    if (parts.length > 0) {
      const tid = place(pid, CPU_LANES, toUs(s.startMs), toUs(t), "CPU steps");
      const whole = { name: `${kind} ${s.iter ?? ""}`.trim(), cat: "cpu", ph: "X" as const, pid, tid, args };
      out.push({ ...whole, ts: toUs(s.startMs), dur: toUs(t - s.startMs) });
      for (const p of parts) out.push({ ...p, tid });
    }
    const sampleStart = s.startMs + (s.forwardMs ?? 0) + (s.updateMs ?? 0);
    const gpu: Array<[string, number | null, number]> = [
      ["gpu forward", s.gpuForwardMs, s.startMs],
      ["gpu sample", s.gpuSampleMs, sampleStart],
    ];
    for (const [name, ms, at] of gpu) {
      if (ms === null) continue;
      const tid = place(pid, GPU_LANES, toUs(at), toUs(at + ms), "GPU steps");
      out.push({
        name,
        cat: "gpu",
        ph: "X",
        pid,
        tid,
        ts: toUs(at),
        dur: toUs(ms),
        args: { ...args, placed: "at the CPU phase" },
      });
    }
  }
  return out;
}

export interface AiperfTraceRow {
  /** Order in the sample */
  seq: number;
  requestId: string | null;
  worker: string | null;
  phase: "profiling" | "warmup";
  ok: boolean;
  errorType: string | null;
  startMs: number;
  endMs: number;
  ttftMs: number | null;
}

/**
 * One aiperf request: its lifetime (start to end as the client saw it), with its time to first
 * token as a nested span and an instant at the first token; failed requests say why. The request
 * goes in its worker's process, on the first of its tracks that is free (LaneTable).
 */
export function aiperfRequestEvents(
  row: AiperfTraceRow,
  procs: ProcessTable,
  lanes: LaneTable,
): TraceEvent[] {
  const pid = procs.pid(row.worker ?? "client");
  const tid = lanes.place(pid, toUs(row.startMs), toUs(Math.max(row.startMs, row.endMs)));
  const args = { request: row.requestId, phase: row.phase, ok: row.ok, error: row.errorType };
  const label = requestLabel({ idx: row.seq, requestId: row.requestId });
  const out: TraceEvent[] = [
    {
      name: row.ok ? label : `${label} (${row.errorType ?? "error"})`,
      cat: row.phase,
      ph: "X",
      pid,
      tid,
      ts: toUs(row.startMs),
      dur: toUs(Math.max(0, row.endMs - row.startMs)),
      args,
    },
  ];
  if (row.ttftMs !== null) {
    out.push(
      { name: "ttft", cat: "ttft", ph: "X", pid, tid, ts: toUs(row.startMs), dur: toUs(row.ttftMs), args },
      {
        name: "first token",
        cat: "ttft",
        ph: "i",
        s: "t",
        pid,
        tid,
        ts: toUs(row.startMs + row.ttftMs),
        args,
      },
    );
  }
  return out;
}
