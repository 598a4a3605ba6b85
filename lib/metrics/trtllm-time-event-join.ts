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
 * Requests a run stored before its time events went to pieces kept at most (its `leftOut` counts
 * the rest): such a run's list is read whole, as it was stored.
 */
export const MAX_STORED_TIME_EVENT_REQUESTS = 50_000;

/** Offsets within this (s) are one clock read twice, not two clocks. */
export const SAME_CLOCK_S = 0.001;

/**
 * One stored piece of a request's time events: the lines of one request (role and id) in one
 * file. `reqKey` names the request across the run: a worker's id, or a router's per-file sequence
 * with its file (`file:request_id`, the router's ids are a per-process sequence).
 */
export interface TimeEventPiece {
  role: TimeEventRoleName;
  reqKey: string;
  requestId: string;
  ctxRequestId: string | null;
  disaggRequestId: string | null;
  /** Index into the run's time-events files, in ingest order */
  file: number;
  events: Array<{ event: string; t: number }>;
}

/** The key a request's pieces share across the run's files. */
export const timeEventReqKey = (role: TimeEventRoleName, requestId: string, file: number): string =>
  role === "router" ? `${file}:${requestId}` : requestId;

/**
 * One file's time events gathered per request and handed out as pieces: a request's piece when
 * its role's last event arrives (a per-request line is whole at once), the rest at the file's
 * end. What is held is the file's requests in flight, not the run's.
 */
export class TimeEventsOfFile {
  private readonly pending = new Map<string, Pending>();
  /** The most requests held at once */
  maxPending = 0;

  constructor(readonly file: number) {}

  /** The piece this line finishes, or null. */
  add(e: TimeEvent): TimeEventPiece | null {
    if (e.requestId === null) return null;
    const role: TimeEventRoleName = e.role;
    const key = `${role}\u0000${e.requestId}`;
    let r = this.pending.get(key);
    if (!r) {
      r = {
        role,
        reqKey: timeEventReqKey(role, e.requestId, this.file),
        requestId: e.requestId,
        ctxRequestId: e.ctxRequestId,
        disaggRequestId: e.disaggRequestId,
        file: this.file,
        events: [],
        seen: new Set(),
        last: null,
      };
      this.pending.set(key, r);
      if (this.pending.size > this.maxPending) this.maxPending = this.pending.size;
    }
    r.ctxRequestId ??= e.ctxRequestId;
    r.disaggRequestId ??= e.disaggRequestId;
    if (e.event !== null) r.last = e.event;
    for (const s of e.stamps) {
      if (r.seen.has(s.event)) continue;
      r.seen.add(s.event);
      r.events.push(s);
    }
    if (role !== "request" && e.event !== LAST_EVENT[role]) return null;
    this.pending.delete(key);
    return pieceOf(r);
  }

  /** The pieces of requests that had not reached their last event. */
  end(): TimeEventPiece[] {
    return this.endStopped().map((u) => u.piece);
  }

  /**
   * The pieces of requests that had not reached their last event, each with the event of its
   * last line (null when no line named one): where it stopped.
   */
  endStopped(): Array<{ piece: TimeEventPiece; stoppedAfter: string | null }> {
    const out = [...this.pending.values()].map((r) => ({ piece: pieceOf(r), stoppedAfter: r.last }));
    this.pending.clear();
    return out;
  }
}

type Pending = TimeEventPiece & { seen: Set<string>; last: string | null };

function pieceOf(r: Pending): TimeEventPiece {
  return {
    role: r.role,
    reqKey: r.reqKey,
    requestId: r.requestId,
    ctxRequestId: r.ctxRequestId,
    disaggRequestId: r.disaggRequestId,
    file: r.file,
    events: r.events,
  };
}

/**
 * The requests of stored pieces, given in the order they were stored: one per role and key; a
 * tensor-parallel rank's copy of a request another file already holds is not kept twice (the
 * first file's pieces stand, as TensorRT-LLM's aggregator takes rank 0), and within a file the
 * first seen wins per event.
 */
export function timeEventRequestsOf(pieces: readonly TimeEventPiece[]): TimeEventRequest[] {
  const byKey = new Map<string, TimeEventRequest & { seen: Set<string> }>();
  for (const p of pieces) {
    const key = `${p.role}\u0000${p.reqKey}`;
    let r = byKey.get(key);
    if (!r) {
      r = {
        role: p.role,
        requestId: p.requestId,
        ctxRequestId: p.ctxRequestId,
        disaggRequestId: p.disaggRequestId,
        file: p.file,
        events: [],
        seen: new Set(),
      };
      byKey.set(key, r);
    }
    if (r.file !== p.file) continue;
    r.ctxRequestId ??= p.ctxRequestId;
    r.disaggRequestId ??= p.disaggRequestId;
    for (const s of p.events) {
      if (r.seen.has(s.event)) continue;
      r.seen.add(s.event);
      r.events.push(s);
    }
  }
  return [...byKey.values()].map((r) => ({
    role: r.role,
    requestId: r.requestId,
    ctxRequestId: r.ctxRequestId,
    disaggRequestId: r.disaggRequestId,
    file: r.file,
    events: [...r.events].sort((a, b) => a.t - b.t),
  }));
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
export function timeEventsMissingNote(index: { fileNames(): string }, ids: JoinIds, what: string): string {
  const own = (
    [
      ["request id", ids.requestId],
      ["ctx request id", ids.ctxRequestId],
      ["disagg request id", ids.disaggRequestId],
    ] as const
  )
    .filter(([, v]) => v !== null)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
  return `${index.fileNames()} names none of ${what}'s ids (${own || "it has none"}), so its time events cannot be shown`;
}

/** The line for an aiperf record whose x_request_id no time-events request carries. */
export function timeEventsClientMissingNote(index: { fileNames(): string }, x: string): string {
  return `${index.fileNames()} has no request id the client's requests also carry: none of its requests' request id, ctx request id or disagg request id equals the id the client sent with this request (the client's x_request_id, ${x}), as TensorRT-LLM's ids are its own, so this request's time events cannot be shown`;
}

type PerfIdSets = { requestIds: Set<string>; ctxRequestIds: Set<string>; disaggRequestIds: Set<string> };

export type TimeEventJoinRow = {
  role: TimeEventRoleName;
  requests: number;
  joinedPerfMetrics: number | null;
  joinedClient: number | null;
};

/**
 * Per role: the time-events requests, and how many share an id with the perf metrics and with
 * the client; fed one request at a time. `ambiguous(role, ctxRequestId)`: the id is reported by
 * more than one request of the role, so no key.
 */
export class TimeEventJoinCounter {
  private readonly rows = new Map<TimeEventRoleName, { requests: number; perf: number; client: number }>();

  constructor(
    private readonly perf: PerfIdSets | null,
    private readonly clientIds: Set<string> | null,
    private readonly ambiguous: (role: TimeEventRoleName, ctxRequestId: string) => boolean,
  ) {}

  add(r: TimeEventRequest): void {
    const { perf, clientIds } = this;
    const row = this.rows.get(r.role) ?? { requests: 0, perf: 0, client: 0 };
    this.rows.set(r.role, row);
    row.requests++;
    const ctxKey = r.ctxRequestId !== null && !this.ambiguous(r.role, r.ctxRequestId);
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

  result(): TimeEventJoinRow[] {
    return (["router", "ctx", "gen", "request"] as const)
      .filter((role) => this.rows.has(role))
      .map((role) => {
        const row = this.rows.get(role)!;
        return {
          role,
          requests: row.requests,
          joinedPerfMetrics: this.perf ? row.perf : null,
          joinedClient: this.clientIds ? row.client : null,
        };
      });
  }
}

/** Per role: the time-events requests of a whole list, and how many share an id with the perf metrics and with the client. */
export function timeEventsJoinCounts(
  payload: TrtllmTimeEventsPayload,
  perf: PerfIdSets | null,
  clientIds: Set<string> | null,
): TimeEventJoinRow[] {
  const ctxCount = new Map<string, number>();
  for (const r of payload.requests)
    if (r.ctxRequestId !== null) {
      const k = `${r.role}\u0000${r.ctxRequestId}`;
      ctxCount.set(k, (ctxCount.get(k) ?? 0) + 1);
    }
  const counter = new TimeEventJoinCounter(
    perf,
    clientIds,
    (role, ctx) => (ctxCount.get(`${role}\u0000${ctx}`) ?? 0) > 1,
  );
  for (const r of payload.requests) counter.add(r);
  return counter.result();
}
