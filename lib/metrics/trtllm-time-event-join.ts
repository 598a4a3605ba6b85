/**
 * TensorRT-LLM's time events joined to a request (docs/metrics.md §Client to engine, time-event
 * lanes). The rule, read from TensorRT-LLM's source (docs/formats.md §TensorRT-LLM side files):
 *
 * - A worker line's `request_id` is the executor's `response.request_id`, the `request_id` of the
 *   same worker's perf-metrics record; its `ctx_request_id` is the disaggregated context id, the
 *   perf-metrics `ctx_request_id`, the one id the ctx and gen workers share. A gen worker's own
 *   `request_id` is not stored with the run's request, so gen lines join by `ctx_request_id` only.
 * - A router line's `request_id` is the router's own sequence; it joins by `ctx_request_id` (the
 *   key TensorRT-LLM's own aggregator joins router and workers on) else `disagg_request_id`.
 * - A `ctx_request_id` reported by more than one request of a role is no key (the gen-only
 *   benchmark path writes 1 for every request): those requests do not join by it.
 * - `t` is steady-clock seconds (`get_steady_clock_now_in_seconds`, the C++ `steady_clock` the
 *   perf metrics' `timing_metrics` read): one clock per host, so a role's events and the perf
 *   stamps written by the same worker agree, and hosts do not. The offset is measured at the first
 *   event that has a perf-metrics stamp of its own (`ctx_arrival` ↔ `arrival_time` of the ctx
 *   part, …) and named; where it exceeds 1 ms the lane is aligned there, never silently.
 */
import type { JourneyLane, TimeEventRoleName, TrtllmTimeEventsPayload } from "@/lib/api/request-journey";
import { LAST_EVENT, type TimeEvent } from "@/lib/formats/trtllm-time-events";
import { requestStart, type RequestTimes, type TimeKey } from "./time-breakdown";

export type TimeEventRequest = TrtllmTimeEventsPayload["requests"][number];

/**
 * Requests kept for the journey at most; beyond it they are counted (`leftOut`). Some 460 bytes of
 * stored JSON a request of seven events: 50,000 are about 23 MB, what one journey reads whole.
 */
export const MAX_STORED_TIME_EVENT_REQUESTS = 50_000;

/** Offsets within this (s) are one clock read twice, not two clocks. */
export const SAME_CLOCK_S = 0.001;

/**
 * The run's time-events requests across its files: one per role and id (per file for the router,
 * whose ids are a per-process sequence); a tensor-parallel rank's copy of a request another file
 * already holds is not kept twice, the first seen wins per event (as TensorRT-LLM's aggregator).
 */
export class TimeEventsGather {
  private readonly files: Array<{ file: string; requests: number }> = [];
  private readonly byKey = new Map<string, TimeEventRequest & { seen: Set<string> }>();
  private inFile = new Set<string>();
  leftOut = 0;

  startFile(name: string): void {
    this.files.push({ file: name, requests: 0 });
    this.inFile = new Set();
  }

  add(e: TimeEvent): void {
    if (e.requestId === null || this.files.length === 0) return;
    const file = this.files.length - 1;
    const role: TimeEventRoleName = e.role;
    const key =
      role === "router" ? `${role}\u0000${file}\u0000${e.requestId}` : `${role}\u0000${e.requestId}`;
    if (!this.inFile.has(key)) {
      this.inFile.add(key);
      this.files[file].requests++;
    }
    let r = this.byKey.get(key);
    if (!r) {
      if (this.byKey.size >= MAX_STORED_TIME_EVENT_REQUESTS) {
        this.leftOut++;
        return;
      }
      r = {
        role,
        requestId: e.requestId,
        ctxRequestId: e.ctxRequestId,
        disaggRequestId: e.disaggRequestId,
        file,
        events: [],
        seen: new Set(),
      };
      this.byKey.set(key, r);
    }
    if (r.file !== file && role !== "router") return;
    r.ctxRequestId ??= e.ctxRequestId;
    r.disaggRequestId ??= e.disaggRequestId;
    for (const s of e.stamps) {
      if (r.seen.has(s.event)) continue;
      r.seen.add(s.event);
      r.events.push(s);
    }
  }

  get requests(): number {
    return this.byKey.size;
  }

  payload(): TrtllmTimeEventsPayload {
    return {
      files: this.files,
      leftOut: this.leftOut,
      requests: [...this.byKey.values()].map((r) => ({
        role: r.role,
        requestId: r.requestId,
        ctxRequestId: r.ctxRequestId,
        disaggRequestId: r.disaggRequestId,
        file: r.file,
        events: [...r.events].sort((a, b) => a.t - b.t),
      })),
    };
  }
}

/** The ids of the request the events join to: a stored perf-metrics request's, or a client's. */
export interface JoinIds {
  requestId: string | null;
  ctxRequestId: string | null;
  disaggRequestId: string | null;
}

export type TimeEventKey = "ctx_request_id" | "request_id" | "disagg_request_id";

export interface TimeEventMatch {
  request: TimeEventRequest;
  by: TimeEventKey;
  id: string;
}

const WORKER_ROLES = ["ctx", "gen", "request"] as const;

/** The payload's requests by the ids they join on, ambiguous `ctx_request_id`s left out. */
export class TimeEventIndex {
  private readonly byCtx = new Map<TimeEventRoleName, Map<string, TimeEventRequest | null>>();
  private readonly byRequestId = new Map<TimeEventRoleName, Map<string, TimeEventRequest | null>>();
  private readonly routerByDisagg = new Map<string, TimeEventRequest | null>();

  constructor(readonly payload: TrtllmTimeEventsPayload) {
    const put = (m: Map<string, TimeEventRequest | null>, id: string | null, r: TimeEventRequest) => {
      if (id === null) return;
      // A second request with the same id makes it no key.
      m.set(id, m.has(id) ? null : r);
    };
    for (const r of payload.requests) {
      if (!this.byCtx.has(r.role)) this.byCtx.set(r.role, new Map());
      if (!this.byRequestId.has(r.role)) this.byRequestId.set(r.role, new Map());
      put(this.byCtx.get(r.role)!, r.ctxRequestId, r);
      if (r.role !== "router") put(this.byRequestId.get(r.role)!, r.requestId, r);
      else put(this.routerByDisagg, r.disaggRequestId, r);
    }
  }

  private one(m: Map<string, TimeEventRequest | null> | undefined, id: string | null) {
    return id === null ? null : (m?.get(id) ?? null);
  }

  /** Each role's request sharing an id with `ids`, in the order the rule tries them. */
  match(ids: JoinIds): TimeEventMatch[] {
    const out: TimeEventMatch[] = [];
    for (const role of WORKER_ROLES) {
      const byCtx = this.one(this.byCtx.get(role), ids.ctxRequestId);
      if (byCtx) {
        out.push({ request: byCtx, by: "ctx_request_id", id: ids.ctxRequestId! });
        continue;
      }
      // A gen worker's own request_id is not the request's stored one: gen joins by ctx_request_id only.
      if (role === "gen" && ids.ctxRequestId !== null) continue;
      const byId = this.one(this.byRequestId.get(role), ids.requestId);
      if (byId) out.push({ request: byId, by: "request_id", id: ids.requestId! });
    }
    const router = this.one(this.byCtx.get("router"), ids.ctxRequestId);
    if (router) out.push({ request: router, by: "ctx_request_id", id: ids.ctxRequestId! });
    else {
      const byDisagg = this.one(this.routerByDisagg, ids.disaggRequestId);
      if (byDisagg) out.push({ request: byDisagg, by: "disagg_request_id", id: ids.disaggRequestId! });
    }
    return out;
  }

  /**
   * An aiperf record's x_request_id against every id a time-events request carries (the client's
   * id joins only where it was the server's): its disagg_request_id, ctx_request_id or request_id.
   */
  matchClient(x: string): TimeEventMatch[] {
    return this.match({ requestId: x, ctxRequestId: x, disaggRequestId: x });
  }

  /** The files of the run's time events, named. */
  fileNames(): string {
    return this.payload.files.map((f) => f.file).join(", ") || "the TensorRT-LLM time events";
  }
}

/** Which perf-metrics stamp each event is the same moment of, per role, in the order tried. */
const ANCHORS: Record<TimeEventRoleName, Array<[string, TimeKey[]]>> = {
  ctx: [
    ["ctx_arrival", ["ctxArrival"]],
    ["ctx_first_scheduled", ["ctxFirstScheduled"]],
    ["ctx_first_token", ["ctxFirstToken"]],
  ],
  gen: [
    ["gen_arrival", ["genArrival", "ctxArrival"]],
    ["gen_kv_transfer_start", ["genKvTransferStart"]],
    ["gen_kv_transfer_end", ["genKvTransferEnd"]],
    ["gen_first_scheduled", ["genFirstScheduled", "ctxFirstScheduled"]],
    ["gen_first_token", ["genFirstToken", "ctxFirstToken"]],
    ["gen_last_token", ["genLastToken", "ctxLastToken"]],
  ],
  router: [
    ["arrival", ["disaggArrival"]],
    ["ctx_dispatch", ["disaggCtxDispatch"]],
    ["first_token", ["disaggFirstToken"]],
  ],
  request: [
    ["arrival_time", ["ctxArrival", "genArrival"]],
    ["first_scheduled_time", ["ctxFirstScheduled", "genFirstScheduled"]],
    ["first_token_time", ["ctxFirstToken", "genFirstToken"]],
    ["last_token_time", ["ctxLastToken", "genLastToken"]],
  ],
};

const LANE_ROLE: Record<TimeEventRoleName, JourneyLane["role"]> = {
  ctx: "prefill",
  gen: "decode",
  router: "router",
  request: "worker",
};

const ROLE_NAME: Record<TimeEventRoleName, string> = {
  ctx: "context worker",
  gen: "generation worker",
  router: "disaggregated router",
  request: "worker (per-request line)",
};

/** The engine request the events are set against: its stored times (s from `originS`). */
export interface EngineClock {
  times: RequestTimes;
  /** The steady-clock second the stored times count from; null: not stored with the run */
  originS: number | null;
}

/** An offset in s or ms; one that rounds to zero is written 0.000 ms, never "-0.000". */
const fmtOffset = (s: number) =>
  Math.abs(s) >= 1 ? `${s.toFixed(3)} s` : `${(Math.abs(s) < 5e-7 ? 0 : s * 1000).toFixed(3)} ms`;

/**
 * One lane per joined role on the journey's axis (ms from the engine's arrival, which the
 * journey puts at the client's send), events as ticks, and the line that says how its clock was
 * placed. Without an engine request (`engine` null) each role's first event is put at the axis'
 * start, and said.
 */
export function timeEventLanes(
  matches: TimeEventMatch[],
  engine: EngineClock | null,
  files: TrtllmTimeEventsPayload["files"],
): { lanes: JourneyLane[]; notes: string[] } {
  const lanes: JourneyLane[] = [];
  const notes: string[] = [];
  const t0 = engine ? requestStart(engine.times) : null;
  for (const m of matches) {
    const r = m.request;
    const file = files[r.file]?.file ?? "a time-events file";
    const who = `TensorRT-LLM time events of the ${ROLE_NAME[r.role]} (${file}), joined by ${m.by} ${m.id}`;
    if (r.events.length === 0) {
      notes.push(
        `${who}: its line carries no timestamps (request_timing_metrics is written only with return_perf_metrics on), so it is not drawn`,
      );
      continue;
    }
    // Seconds on the engine's axis (from its arrival) of a raw `t`, once the shift is known.
    let place: (t: number) => number;
    if (engine && t0 !== null) {
      let anchor: { event: string; key: TimeKey; t: number; perf: number } | null = null;
      for (const [event, keys] of ANCHORS[r.role]) {
        const e = r.events.find((x) => x.event === event);
        const key = keys.find((k) => engine.times[k] !== null);
        if (e && key) {
          anchor = { event, key, t: e.t, perf: engine.times[key]! };
          break;
        }
      }
      if (anchor && engine.originS !== null) {
        const offset = anchor.t - engine.originS - anchor.perf;
        if (Math.abs(offset) <= SAME_CLOCK_S) {
          place = (t) => t - engine.originS! - t0;
          notes.push(
            `${who}: its steady clock agrees with the perf metrics' within 1 ms (${fmtOffset(offset)} at ${anchor.event} against ${anchor.key}): drawn as written`,
          );
        } else {
          place = (t) => t - engine.originS! - offset - t0;
          notes.push(
            `${who}: its clock is ${fmtOffset(offset)} from the perf metrics' (${anchor.event} against ${anchor.key}; another host's steady clock): aligned there, that offset taken out`,
          );
        }
      } else if (anchor) {
        place = (t) => anchor.perf + (t - anchor.t) - t0;
        notes.push(
          `${who}: aligned at ${anchor.event} on the perf metrics' ${anchor.key}; the offset between the clocks is not measured (the run's TensorRT-LLM clock origin is not stored: re-ingest to measure it)`,
        );
      } else {
        const first = r.events[0];
        place = (t) => t - first.t;
        notes.push(
          `${who}: none of its events has a perf-metrics stamp of this request to set it against, so its first event (${first.event}) is put at the engine's arrival; the offset between the clocks is not measured`,
        );
      }
    } else {
      const first = r.events[0];
      place = (t) => t - first.t;
      notes.push(
        `${who}: TensorRT-LLM's steady clock is not the client's wall clock, so its first event (${first.event}) is put at the client's send; the offset between the clocks is not measured`,
      );
    }
    const ticks = r.events.map((e) => ({ label: e.event, atMs: place(e.t) * 1000 }));
    const last = r.role === "request" ? null : LAST_EVENT[r.role];
    const stopped =
      last !== null && !r.events.some((e) => e.event === last)
        ? `stopped after ${r.events[r.events.length - 1].event} (no ${last})`
        : null;
    lanes.push({
      label: `time events: ${r.role} (${r.events.length} event${r.events.length === 1 ? "" : "s"})`,
      role: LANE_ROLE[r.role],
      source: "time-events",
      startMs: ticks[0].atMs,
      endMs: ticks[ticks.length - 1].atMs,
      depth: 1,
      firstTokenMs: null,
      ticks,
      detail: [`${m.by} ${m.id}`, file, stopped].filter(Boolean).join(", "),
    });
  }
  return { lanes, notes };
}

/** The line naming which file lacks the shared id, as the journey says it for Dynamo's files. */
export function timeEventsMissingNote(index: TimeEventIndex, ids: JoinIds, what: string): string {
  const own = (
    [
      ["request_id", ids.requestId],
      ["ctx_request_id", ids.ctxRequestId],
      ["disagg_request_id", ids.disaggRequestId],
    ] as const
  )
    .filter(([, v]) => v !== null)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
  return `${index.fileNames()} names none of ${what}'s ids (${own || "it has none"}): its time events cannot be joined`;
}

/** The line for an aiperf record whose x_request_id no time-events request carries. */
export function timeEventsClientMissingNote(index: TimeEventIndex, x: string): string {
  return `${index.fileNames()} lacks x_request_id ${x}: none of its requests' request_id, ctx_request_id or disagg_request_id equals it (TensorRT-LLM's ids are its own), so its time events cannot be joined`;
}

/** Per role: the time-events requests, and how many share an id with the perf metrics and with the client. */
export function timeEventsJoinCounts(
  payload: TrtllmTimeEventsPayload,
  perf: { requestIds: Set<string>; ctxRequestIds: Set<string>; disaggRequestIds: Set<string> } | null,
  clientIds: Set<string> | null,
): Array<{
  role: TimeEventRoleName;
  requests: number;
  joinedPerfMetrics: number | null;
  joinedClient: number | null;
}> {
  const ctxCount = new Map<string, number>();
  for (const r of payload.requests)
    if (r.ctxRequestId !== null) {
      const k = `${r.role}\u0000${r.ctxRequestId}`;
      ctxCount.set(k, (ctxCount.get(k) ?? 0) + 1);
    }
  const rows = new Map<TimeEventRoleName, { requests: number; perf: number; client: number }>();
  for (const r of payload.requests) {
    const row = rows.get(r.role) ?? { requests: 0, perf: 0, client: 0 };
    rows.set(r.role, row);
    row.requests++;
    const ctxKey = r.ctxRequestId !== null && ctxCount.get(`${r.role}\u0000${r.ctxRequestId}`) === 1;
    if (perf) {
      const byCtx = ctxKey && perf.ctxRequestIds.has(r.ctxRequestId!);
      const byOwn =
        r.role === "router"
          ? r.disaggRequestId !== null && perf.disaggRequestIds.has(r.disaggRequestId)
          : (r.role !== "gen" || r.ctxRequestId === null) && perf.requestIds.has(r.requestId);
      if (byCtx || byOwn) row.perf++;
    }
    if (clientIds) {
      const own = r.role === "router" ? [r.disaggRequestId] : [r.requestId];
      if ([...own, ctxKey ? r.ctxRequestId : null].some((id) => id !== null && clientIds.has(id)))
        row.client++;
    }
  }
  return (["router", "ctx", "gen", "request"] as const)
    .filter((role) => rows.has(role))
    .map((role) => {
      const row = rows.get(role)!;
      return {
        role,
        requests: row.requests,
        joinedPerfMetrics: perf ? row.perf : null,
        joinedClient: clientIds ? row.client : null,
      };
    });
}
