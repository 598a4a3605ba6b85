/**
 * genai-perf, aiperf's predecessor (docs/formats.md §genai-perf): `profile_export.json`, the
 * per-request timestamps perf_analyzer wrote (`experiments[].requests[]` with `timestamp` and
 * `response_timestamps` in nanoseconds), and `profile_export_genai_perf.json`, genai-perf's
 * statistics under the same metric tags aiperf later kept (`time_to_first_token`, …, in ms) plus
 * its `input_config`. Token counts are not in the export: genai-perf tokenizes the response text
 * itself, so per-request rows here carry times only and token statistics stay genai-perf's.
 */
import type { AiperfRecord } from "./aiperf-records";
import { parseSummaryJson, type AiperfSummary } from "./aiperf-summary";
import { factsOf, isObject, num, str, type BenchResult } from "./bench-result";

const TOOL = "genai-perf";

export function isGenaiPerfExport(v: unknown): v is Record<string, unknown> {
  return isObject(v) && Array.isArray(v.experiments) && ("service_kind" in v || "endpoint" in v);
}

export function sniffGenaiPerfExport(text: string): boolean {
  return /"experiments"\s*:/.test(text) && /"response_timestamps"\s*:/.test(text);
}

/** genai-perf's input_config (its CLI arguments), not aiperf's: keys only genai-perf writes. */
export function isGenaiPerfSummary(v: unknown): v is Record<string, unknown> {
  if (!isObject(v) || !isObject(v.input_config)) return false;
  const c = v.input_config;
  return "perf_analyzer" in c || "subcommand" in c || "service_kind" in c || "model_names" in c;
}

/** Times in ns as written; JSON numbers past 2^53 round to 256 ns, far below the 0.01 ms shown. */
const ns = (v: unknown): bigint | null =>
  typeof v === "number" && Number.isFinite(v) ? BigInt(Math.round(v)) : null;

export interface GenaiPerfExperiment {
  mode: string | null;
  value: number | null;
  records: AiperfRecord[];
}

export function readGenaiPerfExport(doc: Record<string, unknown>): {
  version: string | null;
  endpoint: string | null;
  serviceKind: string | null;
  experiments: GenaiPerfExperiment[];
} {
  const experiments: GenaiPerfExperiment[] = [];
  for (const e of doc.experiments as unknown[]) {
    if (!isObject(e)) continue;
    const head = isObject(e.experiment) ? e.experiment : {};
    const requests = Array.isArray(e.requests) ? e.requests : [];
    experiments.push({
      mode: str(head.mode),
      value: num(head.value),
      records: requests.map((r, i) => requestRecord(r, i)),
    });
  }
  return {
    version: str(doc.version),
    endpoint: str(doc.endpoint),
    serviceKind: str(doc.service_kind),
    experiments,
  };
}

/**
 * genai-perf's own definitions: latency = last response − request, TTFT = first response −
 * request. A request without responses is skipped by genai-perf; here it is kept as an error so
 * it is counted and not measured.
 */
function requestRecord(r: unknown, i: number): AiperfRecord {
  const o = isObject(r) ? r : {};
  const start = ns(o.timestamp);
  const stamps = (Array.isArray(o.response_timestamps) ? o.response_timestamps : []).map(ns);
  const first = stamps[0] ?? null;
  const last = stamps[stamps.length - 1] ?? null;
  const ok = start !== null && first !== null && last !== null;
  return {
    requestId: String(i),
    phase: "profiling",
    cancelled: false,
    startNs: start,
    endNs: last ?? start,
    ttftMs: ok ? Number(first - start) / 1e6 : null,
    e2eMs: ok ? Number(last - start) / 1e6 : null,
    itlMs: null,
    inputTokens: null,
    outputTokens: null,
    error: ok ? null : { type: "No response", code: null, message: "the request has no response timestamps" },
  };
}

/** One benchmark per experiment (a concurrency or request-rate level), with its summary when given. */
export function genaiPerfResults(
  exported: ReturnType<typeof readGenaiPerfExport> | null,
  summaryDoc: Record<string, unknown> | null,
): BenchResult[] {
  const summary = summaryDoc ? parseSummaryJson(summaryDoc) : null;
  const config = isObject(summaryDoc?.input_config) ? summaryDoc.input_config : {};
  const model = Array.isArray(config.model_names)
    ? config.model_names.filter((m) => typeof m === "string").join(", ") || null
    : Array.isArray(config.model)
      ? config.model.filter((m) => typeof m === "string").join(", ") || null
      : str(config.model);
  const experiments: Array<GenaiPerfExperiment | null> = exported?.experiments.length
    ? exported.experiments
    : [null];
  return experiments.map((e) => ({
    tool: TOOL,
    toolVersion: exported?.version ?? null,
    label: e?.mode ? `${e.mode} ${e.value ?? ""}`.trim() : null,
    model,
    backend: exported?.serviceKind ?? str(config.service_kind),
    concurrency: e?.mode === "concurrency" ? e.value : null,
    requestRate: e?.mode === "request_rate" ? e.value : null,
    numPrompts: e ? e.records.length : null,
    records: e ? e.records : null,
    summary: withConfig(summary ?? emptySummary(), model, e),
    // Token counts and ITL need genai-perf's tokenizer; times come from the same stamps.
    comparable: ["time_to_first_token", "request_latency"],
    durationS: null,
    facts: factsOf({ genaiPerfEndpoint: exported?.endpoint }),
    notes:
      e && summary
        ? []
        : e
          ? ["no profile_export_genai_perf.json in the upload: token counts and ITL are genai-perf's only"]
          : [],
  }));
}

function withConfig(s: AiperfSummary, model: string | null, e: GenaiPerfExperiment | null): AiperfSummary {
  return {
    ...s,
    config: {
      ...s.config,
      model: model ?? s.config.model,
      concurrency: e?.mode === "concurrency" ? e.value : s.config.concurrency,
      requestRate: e?.mode === "request_rate" ? e.value : s.config.requestRate,
    },
  };
}

function emptySummary(): AiperfSummary {
  return parseSummaryJson({})!;
}
