/**
 * Builds requests from TensorRT-LLM records of several files: disagg-server records joined to
 * worker records on `disagg_request_id`, falling back to `ctx_request_id` (docs/metrics.md §Joins and roles),
 * and worker records alone when no disagg record names them.
 */
import { plural } from "@/lib/format-number";
import type { TrtllmDisaggRecord, TrtllmWorkerRecord } from "@/lib/formats/trtllm-record";
import { emptyTimes, type BreakdownMode, type RequestTimes } from "./time-breakdown";
import { fillSide } from "./trtllm-side-times";
import { RoleVotes, contentRole, type WorkerRole } from "./trtllm-roles";
import { atOnce, type Steps } from "./steps";

export interface WorkerEntry {
  rec: TrtllmWorkerRecord;
  /** Index of the worker file the record came from */
  file: number;
}

export interface DisaggEntry {
  rec: TrtllmDisaggRecord;
  file: number;
}

export interface JoinedRequest {
  mode: BreakdownMode;
  times: RequestTimes;
  requestId: string | null;
  ctxRequestId: string | null;
  disaggRequestId: string | null;
  ctxServer: string | null;
  genServer: string | null;
  /** Worker files of the ctx and gen sides (aggregated: ctx), null when no worker file joined. */
  ctxFile: number | null;
  genFile: number | null;
  /** The prefill-side record (aggregated: the only one), falling back to the disagg record's copy. */
  ctx: TrtllmWorkerRecord | null;
  gen: TrtllmWorkerRecord | null;
  /** Where ctx / gen came from: a worker file, or the copy inside the disagg record. */
  ctxSource: string | null;
  genSource: string | null;
}

/**
 * Joined requests, built on each read: a run holds up to millions, and keeping every request's
 * object and timestamps at once was most of the ingest's memory.
 */
export class JoinedList implements Iterable<JoinedRequest> {
  static readonly EMPTY = new JoinedList([], () => {
    throw new Error("empty");
  });

  constructor(
    private readonly items: readonly unknown[],
    private readonly make: (item: never) => JoinedRequest,
  ) {}

  get length(): number {
    return this.items.length;
  }

  get(i: number): JoinedRequest {
    return this.make(this.items[i] as never);
  }

  *[Symbol.iterator](): Iterator<JoinedRequest> {
    for (let i = 0; i < this.items.length; i++) yield this.get(i);
  }
}

export interface JoinResult {
  mode: BreakdownMode;
  requests: JoinedList;
  /** Aggregated requests left out because the run is disaggregated. */
  leftOut: JoinedList;
  fileRoles: WorkerRole[];
  /** Per worker file: the server URL it joined to most often (null when it never joined). */
  fileServers: (string | null)[];
  joinedByDisaggId: number;
  joinedByCtxId: number;
  warnings: string[];
}

function keysOf(rec: { disaggRequestId: string | null; ctxRequestId: string | null }): string[] {
  const keys: string[] = [];
  if (rec.disaggRequestId !== null) keys.push(`d:${rec.disaggRequestId}`);
  if (rec.ctxRequestId !== null) keys.push(`c:${rec.ctxRequestId}`);
  return keys;
}

interface Slot {
  disagg: DisaggEntry | null;
  ctx: WorkerEntry | null;
  gen: WorkerEntry | null;
  /** Worker records whose side is not known yet (null while there are none) */
  unsure: WorkerEntry[] | null;
}

/** Stamps a worker record and the disagg record's copy of it share when the copy is the record itself. */
const SAME_STAMPS = ["serverArrival", "arrival", "firstScheduled", "firstToken", "lastToken"] as const;

/**
 * Whether the disagg record's copy is this very worker record: TensorRT-LLM's record builder
 * (tensorrt_llm/serve/perf_metrics.py, get_perf_metrics) embeds each worker's own `/perf_metrics`
 * item unchanged, so its request id and every stamp are the worker record's. At least one stamp
 * must be recorded on both, and none may differ.
 */
function isCopyOf(w: TrtllmWorkerRecord, copy: TrtllmWorkerRecord | null): boolean {
  if (!copy || w.requestId === null || w.requestId !== copy.requestId) return false;
  let shared = 0;
  for (const k of SAME_STAMPS) {
    const a = w.timing[k];
    const b = copy.timing[k];
    if (a === null || b === null) continue;
    if (a !== b) return false;
    shared++;
  }
  return shared > 0;
}

/**
 * The side a worker record was on, from the worker request ids the disagg record's copies carry;
 * where both sides carry the same id (each server numbers its own requests), from which copy is
 * the record itself.
 */
function sideByRequestId(w: TrtllmWorkerRecord, d: TrtllmDisaggRecord): "ctx" | "gen" | null {
  if (w.requestId === null) return null;
  const ctx = w.requestId === d.ctx?.requestId;
  const gen = w.requestId === d.gen?.requestId;
  if (ctx !== gen) return ctx ? "ctx" : "gen";
  if (!ctx) return null;
  const ctxCopy = isCopyOf(w, d.ctx);
  const genCopy = isCopyOf(w, d.gen);
  return ctxCopy && !genCopy ? "ctx" : genCopy && !ctxCopy ? "gen" : null;
}

/** Of several disagg records, the ones whose copy is this worker record (empty when none is). */
function copiesOf(w: TrtllmWorkerRecord, slots: readonly Slot[]): Slot[] {
  return slots.filter((s) => isCopyOf(w, s.disagg!.rec.ctx) || isCopyOf(w, s.disagg!.rec.gen));
}

/** A URL's host, or null when it is not a URL. */
function hostOf(server: string): string | null {
  try {
    return new URL(server).hostname || null;
  } catch {
    return null;
  }
}

/**
 * The one server whose host is a whole token of the file name (`perf_metrics-server-ctx0-…` for
 * `http://ctx0:8001`), or null when none or several are.
 */
function serverInName(name: string, servers: ReadonlySet<string>): string | null {
  const lower = name.toLowerCase();
  let found: string | null = null;
  for (const s of servers) {
    const host = hostOf(s)?.toLowerCase();
    // The host whole and in one piece: its parts scattered over the name (an IP's digits) are no match.
    const at = host ? lower.indexOf(host) : -1;
    if (!host || !wholeAt(lower, at, host.length)) continue;
    if (found !== null && found !== s) return null;
    found = s;
  }
  return found;
}

/** Whether `name[at, at + length)` is bounded by the name's ends or by non-alphanumerics. */
function wholeAt(name: string, at: number, length: number): boolean {
  if (at < 0) return false;
  const edge = (c: string | undefined) => c === undefined || !/[a-z0-9]/.test(c);
  return edge(name[at - 1]) && edge(name[at + length]);
}

export function joinTrtllm(
  disaggs: readonly DisaggEntry[],
  workers: readonly WorkerEntry[],
  fileCount: number,
  fileNames: readonly string[] = [],
): JoinResult {
  return atOnce(joinTrtllmInSteps(disaggs, workers, fileCount, fileNames));
}

/** Records a pass of `joinTrtllmInSteps` takes in a step. */
export const JOIN_STEP = 1_000;

/** `joinTrtllm` in steps of JOIN_STEP records a pass: the same join. */
export function* joinTrtllmInSteps(
  disaggs: readonly DisaggEntry[],
  workers: readonly WorkerEntry[],
  fileCount: number,
  fileNames: readonly string[] = [],
): Steps<JoinResult> {
  const warnings: string[] = [];
  const votes = Array.from({ length: fileCount }, () => new RoleVotes());
  let work = 0;
  /** Whether a step is done: one more record taken in a pass. */
  const stepDone = () => ++work % JOIN_STEP === 0;
  for (const w of workers) {
    votes[w.file].addContent(w.rec);
    if (stepDone()) yield;
  }

  const slots: Slot[] = [];
  const byDisaggId = new Map<string, Slot>();
  // Older builds reuse ctx ids across ctx servers: every disagg record of an id is kept, and the
  // worker's server picks among them.
  const byCtxId = new Map<string, Slot[]>();
  const servers = new Set<string>();
  for (const d of disaggs) {
    const slot: Slot = { disagg: d, ctx: null, gen: null, unsure: null };
    slots.push(slot);
    if (d.rec.ctxServer) servers.add(d.rec.ctxServer);
    if (d.rec.genServer) servers.add(d.rec.genServer);
    if (d.rec.disaggRequestId !== null && !byDisaggId.has(d.rec.disaggRequestId))
      byDisaggId.set(d.rec.disaggRequestId, slot);
    const ctxId = d.rec.ctx?.ctxRequestId ?? d.rec.gen?.ctxRequestId ?? null;
    if (ctxId !== null) {
      const list = byCtxId.get(ctxId);
      if (list) list.push(slot);
      else byCtxId.set(ctxId, [slot]);
    }
    if (stepDone()) yield;
  }

  const fileServerCounts = Array.from({ length: fileCount }, () => new Map<string, number>());
  const countServer = (file: number, server: string | null) => {
    if (server) fileServerCounts[file].set(server, (fileServerCounts[file].get(server) ?? 0) + 1);
  };
  const serverOfSide = (d: TrtllmDisaggRecord, side: "ctx" | "gen") =>
    side === "ctx" ? d.ctxServer : d.genServer;

  /** Disagg records a worker's ctx id names, narrowed by the worker's own request id when it tells. */
  const ctxCandidates = (w: TrtllmWorkerRecord): Slot[] => {
    const all = w.ctxRequestId === null ? [] : (byCtxId.get(w.ctxRequestId) ?? []);
    if (all.length < 2) return all;
    // The record that embeds this very worker record is its own, whatever the ids say.
    const copies = copiesOf(w, all);
    if (copies.length > 0) return copies;
    const named = all.filter((s) => sideByRequestId(w, s.disagg!.rec) !== null);
    return named.length > 0 ? named : all;
  };

  // Which server each worker file is: from joins no other disagg record competes for, else from
  // a server host in the file name.
  for (const w of workers) {
    let only = w.rec.disaggRequestId !== null ? byDisaggId.get(w.rec.disaggRequestId) : undefined;
    if (!only) {
      const c = ctxCandidates(w.rec);
      if (c.length === 1) only = c[0];
    }
    const side = only ? sideByRequestId(w.rec, only.disagg!.rec) : null;
    if (only && side) countServer(w.file, serverOfSide(only.disagg!.rec, side));
    if (stepDone()) yield;
  }
  const fileServerOf = fileServerCounts.map(
    (m, f) => mostOften(m) ?? (fileNames[f] !== undefined ? serverInName(fileNames[f], servers) : null),
  );
  for (const m of fileServerCounts) m.clear();

  let joinedByDisaggId = 0;
  let joinedByCtxId = 0;
  let ambiguous = 0;
  const alone: WorkerEntry[] = [];
  for (const w of workers) {
    if (stepDone()) yield;
    let slot: Slot | undefined;
    if (w.rec.disaggRequestId !== null) {
      slot = byDisaggId.get(w.rec.disaggRequestId);
      if (slot?.disagg) joinedByDisaggId++;
    }
    if (!slot && w.rec.ctxRequestId !== null) {
      let candidates = ctxCandidates(w.rec);
      if (candidates.length > 1) {
        const server = fileServerOf[w.file];
        if (server !== null)
          candidates = candidates.filter(
            (s) => s.disagg!.rec.ctxServer === server || s.disagg!.rec.genServer === server,
          );
        // Several disagg requests share this ctx id and nothing tells which one is this
        // record's: joining either would be a guess.
        if (candidates.length > 1) {
          ambiguous++;
          continue;
        }
      }
      slot = candidates.length === 1 ? candidates[0] : undefined;
      if (slot?.disagg) joinedByCtxId++;
    }
    if (!slot?.disagg) {
      alone.push(w);
      continue;
    }
    const d = slot.disagg.rec;
    // The disagg record's copies carry the workers' own request ids: the surest side marker.
    const side = sideByRequestId(w.rec, d);
    if (side) {
      votes[w.file].addJoin(side);
      countServer(w.file, serverOfSide(d, side));
      if (slot[side])
        warnings.push(
          `two ${side} worker records join disagg request ${d.disaggRequestId ?? "?"}; kept the first`,
        );
      else slot[side] = w;
    } else (slot.unsure ??= []).push(w);
  }
  if (ambiguous > 0)
    warnings.push(
      `${plural(ambiguous, "worker record")} left out: their ctx_request_id names several disagg requests and neither the record nor its file names which server it came from`,
    );

  const fileRoles = votes.map((v) => v.role());

  // Records whose side the ids did not settle: by content, else by their file's role.
  for (const slot of slots) {
    if (stepDone()) yield;
    for (const w of slot.unsure ?? []) {
      const role = contentRole(w.rec) ?? fileRoles[w.file];
      const side = role === "decode" ? "gen" : role === "prefill" ? "ctx" : slot.ctx ? "gen" : "ctx";
      if (!slot[side]) slot[side] = w;
      else if (!slot[side === "ctx" ? "gen" : "ctx"]) slot[side === "ctx" ? "gen" : "ctx"] = w;
      const d = slot.disagg!.rec;
      countServer(w.file, slot.ctx === w ? d.ctxServer : slot.gen === w ? d.genServer : null);
    }
  }

  // Worker records no disagg record names: disaggregated workers group by their join key, the
  // rest are aggregated requests.
  const aggregated: WorkerEntry[] = [];
  const workerOnly = new Map<string, Slot>();
  for (const w of alone) {
    if (stepDone()) yield;
    const role = fileRoles[w.file];
    if (role === "combined") {
      aggregated.push(w);
      continue;
    }
    const key = keysOf(w.rec)[0] ?? `w:${w.file}:${w.rec.requestId}`;
    let slot = workerOnly.get(key);
    if (!slot) workerOnly.set(key, (slot = { disagg: null, ctx: null, gen: null, unsure: null }));
    const side = role === "prefill" ? "ctx" : "gen";
    if (!slot[side]) slot[side] = w;
  }

  for (const slot of workerOnly.values()) slots.push(slot);
  const aggregatedList = new JoinedList(aggregated, aggregatedRequest);
  let mode: BreakdownMode = "aggregated";
  let requests = aggregatedList;
  let leftOut = JoinedList.EMPTY;
  if (slots.length > 0) {
    mode = "disaggregated";
    requests = new JoinedList(slots, disaggRequest);
    leftOut = aggregatedList;
    if (aggregated.length > 0)
      warnings.push(
        `${plural(aggregated.length, "aggregated worker record")} in a disaggregated run were left out of the time breakdown (mixed serving modes)`,
      );
  }
  const fileServers = fileServerCounts.map(mostOften);
  return { mode, requests, leftOut, fileRoles, fileServers, joinedByDisaggId, joinedByCtxId, warnings };
}

function mostOften(m: ReadonlyMap<string, number>): string | null {
  let best: string | null = null;
  let bestN = 0;
  for (const [s, n] of m) if (n > bestN) [best, bestN] = [s, n];
  return best;
}

function aggregatedRequest(w: WorkerEntry): JoinedRequest {
  const times = emptyTimes();
  fillSide(times, "ctx", w.rec.timing);
  return {
    mode: "aggregated",
    times,
    requestId: w.rec.requestId,
    ctxRequestId: w.rec.ctxRequestId,
    disaggRequestId: w.rec.disaggRequestId,
    ctxServer: null,
    genServer: null,
    ctxFile: w.file,
    genFile: null,
    ctx: w.rec,
    gen: null,
    ctxSource: `file:${w.file}`,
    genSource: null,
  };
}

function disaggRequest(slot: Slot): JoinedRequest {
  const d = slot.disagg?.rec ?? null;
  const times = emptyTimes();
  // The disagg record's copies are in the disagg server's clock; worker files fill what the
  // header transport lost (server_* and KV stamps in some versions).
  fillSide(times, "ctx", d?.ctx?.timing, slot.ctx?.rec.timing);
  fillSide(times, "gen", d?.gen?.timing, slot.gen?.rec.timing);
  times.disaggArrival = d?.disaggArrival ?? null;
  times.disaggCtxDispatch = d?.disaggCtxDispatch ?? null;
  times.disaggFirstToken = d?.disaggFirstToken ?? null;
  const ctx = slot.ctx?.rec ?? d?.ctx ?? null;
  const gen = slot.gen?.rec ?? d?.gen ?? null;
  const dFile = slot.disagg ? `disagg:${slot.disagg.file}` : null;
  return {
    mode: "disaggregated",
    times,
    requestId: d?.ctx?.requestId ?? ctx?.requestId ?? gen?.requestId ?? null,
    ctxRequestId: ctx?.ctxRequestId ?? gen?.ctxRequestId ?? null,
    disaggRequestId: d?.disaggRequestId ?? ctx?.disaggRequestId ?? gen?.disaggRequestId ?? null,
    ctxServer: d?.ctxServer ?? null,
    genServer: d?.genServer ?? null,
    ctxFile: slot.ctx?.file ?? null,
    genFile: slot.gen?.file ?? null,
    ctx,
    gen,
    ctxSource: slot.ctx ? `file:${slot.ctx.file}` : dFile && d?.ctx ? `${dFile}:ctx` : null,
    genSource: slot.gen ? `file:${slot.gen.file}` : dFile && d?.gen ? `${dFile}:gen` : null,
  };
}
