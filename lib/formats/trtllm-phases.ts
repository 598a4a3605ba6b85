/**
 * TensorRT-LLM's phase-keyed request record (docs/formats.md §TensorRT-LLM perf metrics): the
 * shape its perf-metrics code builds in memory, `{schema_version: 1, request_id, status,
 * phases: {server | ctx | gen | disagg: {...}}, ctx_request_id?, disagg_request_id?}`, which one
 * development build of the JSONL writer put on disk as is (with `worker` and `metrics_headers`
 * beside it). Released writers turn it into the worker or disagg-server record first; this module
 * makes that same turn, so both files give one record shape and the same spans.
 *
 * A phase keeps the stamp names of the record it becomes (`timing_metrics.arrival_time`, …; the
 * disagg phase's `server_arrival_time`, `ctx_dispatch_time`, `server_first_token_time`), so the
 * mapping is name for name. Where it is not, the record is refused with the reason: a schema
 * version we do not know, a phase we do not know, or phases that give one request two timelines.
 */

type Obj = Record<string, unknown>;

function isObject(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The producer and version every refusal names, so a user knows which build wrote the file. */
const PRODUCER = "TensorRT-LLM phase-keyed perf-metrics record";
const KNOWN_SCHEMA = 1;
const KNOWN_PHASES = ["server", "ctx", "gen", "disagg"] as const;

/** A phase-keyed record by its key names (detection of a line larger than its head): a `phases` object beside `schema_version` or `request_id`. */
export function sniffPhaseKeyed(text: string): boolean {
  return /"phases"\s*:\s*\{/.test(text) && /"(schema_version|request_id)"\s*:/.test(text);
}

export type PhasesResult = { legacy: Obj } | { error: string };

/** Turns a phase-keyed record into the worker or disagg-server record its writer would have written. */
export function phasesToLegacy(raw: Obj): PhasesResult {
  const version = raw.schema_version ?? KNOWN_SCHEMA;
  const label = `${PRODUCER} (schema_version ${String(version)})`;
  if (version !== KNOWN_SCHEMA)
    return {
      error: `${label}: only schema_version ${KNOWN_SCHEMA} is known, so its stamps cannot be placed`,
    };
  const phases = raw.phases as Obj;
  const names = Object.keys(phases);
  const unknown = names.filter((n) => !(KNOWN_PHASES as readonly string[]).includes(n));
  if (unknown.length > 0)
    return { error: `${label}: unknown phase ${unknown.map((n) => `\`${n}\``).join(", ")}` };
  const notObject = names.filter((n) => !isObject(phases[n]));
  if (notObject.length > 0) return { error: `${label}: phase \`${notObject[0]}\` is not an object` };

  const has = (n: string) => names.includes(n);
  if (has("server")) {
    // One worker's own record: any other phase beside it would be a second timeline.
    if (names.length > 1)
      return {
        error: `${label}: a \`server\` phase beside ${names.filter((n) => n !== "server").join(", ")} gives the request two timelines`,
      };
    return { legacy: workerRecord(raw, phases.server as Obj, raw.ctx_request_id) };
  }
  if (!has("disagg"))
    return {
      error: `${label}: ${names.join(" and ") || "no"} ${names.length === 1 ? "phase" : "phases"} without a \`disagg\` or \`server\` phase, so no server is known to have written them`,
    };
  if (!has("ctx") && !has("gen"))
    return { error: `${label}: a \`disagg\` phase without \`ctx\` or \`gen\` phases` };
  return { legacy: disaggRecord(raw, phases) };
}

/** `{request_id, perf_metrics, ctx_request_id?, time_breakdown_metrics?}` from one phase. */
function workerPart(phase: Obj, requestId: unknown, ctxRequestId: unknown): Obj {
  const perf: Obj = { timing_metrics: isObject(phase.timing_metrics) ? phase.timing_metrics : {} };
  for (const key of ["first_iter", "last_iter", "kv_cache_metrics", "speculative_decoding"])
    if (key in phase) perf[key] = phase[key];
  const out: Obj = { request_id: requestId, perf_metrics: perf };
  if (ctxRequestId !== undefined && ctxRequestId !== null) out.ctx_request_id = ctxRequestId;
  if (isObject(phase.time_breakdown_metrics)) out.time_breakdown_metrics = phase.time_breakdown_metrics;
  return out;
}

function workerRecord(raw: Obj, phase: Obj, ctxRequestId: unknown): Obj {
  const out = workerPart(phase, raw.request_id, ctxRequestId);
  out.status = raw.status ?? "complete";
  if (raw.disagg_request_id !== undefined) out.disagg_request_id = raw.disagg_request_id;
  return out;
}

function disaggRecord(raw: Obj, phases: Obj): Obj {
  const disagg = phases.disagg as Obj;
  const timing = isObject(disagg.timing_metrics) ? disagg.timing_metrics : {};
  const out: Obj = {
    ctx_server: disagg.ctx_server,
    gen_server: disagg.gen_server,
    disagg_server_arrival_time: timing.server_arrival_time,
    disagg_ctx_dispatch_time: timing.ctx_dispatch_time,
    disagg_server_first_token_time: timing.server_first_token_time,
    status: raw.status ?? "complete",
  };
  for (const [name, key] of [
    ["ctx", "ctx_perf_metrics"],
    ["gen", "gen_perf_metrics"],
  ] as const) {
    const phase = phases[name];
    // Each worker phase carries the worker's own request id; the record's id is the fallback.
    if (isObject(phase))
      out[key] = workerPart(phase, phase.request_id ?? raw.request_id, phase.ctx_request_id);
  }
  if (raw.disagg_request_id !== undefined) out.disagg_request_id = raw.disagg_request_id;
  return out;
}
