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

/**
 * Whether one response of an OpenAI-compatible stream carries text, as genai-perf decides
 * (llm_profile_data_parser.py `_preprocess_response` / `_is_empty_response`): a role-only first
 * chunk, an SSE comment or `[DONE]` is no token, and genai-perf drops its timestamp before it
 * takes TTFT from the first response left. Several SSE events in one response count as one.
 */
export function responseHasContent(response: unknown): boolean {
  if (typeof response !== "string") return false;
  for (const event of response.trim().split("\n\n")) {
    const e = event.trim();
    if (e === "" || /^(:|event:|id:|retry:)/.test(e)) continue;
    const body = e.startsWith("data:") ? e.slice(5).trim() : e;
    if (body === "" || body === "[DONE]") continue;
    let data: unknown;
    try {
      data = JSON.parse(body);
    } catch {
      continue;
    }
    if (textOf(data) !== "") return true;
  }
  return false;
}

function textOf(data: unknown): string {
  if (Array.isArray(data)) return isObject(data[0]) ? (str(data[0].generated_text) ?? "") : "";
  if (!isObject(data)) return "";
  if (typeof data.text_output === "string") return data.text_output;
  const choice = Array.isArray(data.choices) && isObject(data.choices[0]) ? data.choices[0] : {};
  if (data.object === "chat.completion")
    return str(isObject(choice.message) ? choice.message.content : null) ?? "";
  if (data.object === "chat.completion.chunk")
    return str(isObject(choice.delta) ? choice.delta.content : null) ?? "";
  return str(choice.text) ?? str(isObject(choice.delta) ? choice.delta.content : null) ?? "";
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
      records: requests.map((r, i) => requestRecord(r, i, doc.service_kind === "openai")),
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
function requestRecord(r: unknown, i: number, openai: boolean): AiperfRecord {
  const o = isObject(r) ? r : {};
  const start = ns(o.timestamp);
  const all = (Array.isArray(o.response_timestamps) ? o.response_timestamps : []).map(ns);
  const outputs = Array.isArray(o.response_outputs) ? o.response_outputs : null;
  // Responses without content are dropped, as genai-perf drops them for OpenAI streams; without
  // the outputs (or when they do not pair with the stamps) every stamp is kept.
  const stamps =
    openai && outputs && outputs.length === all.length
      ? all.filter((_, k) => responseHasContent(isObject(outputs[k]) ? outputs[k].response : null))
      : all;
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
  const pa = isObject(config.perf_analyzer) ? config.perf_analyzer : {};
  const stimulus = isObject(pa.stimulus) ? pa.stimulus : {};
  // genai-perf's CLI arguments: `perf_analyzer.stimulus` and `warmup_request_count` in the
  // config-file generation (genai-perf/genai_perf/config/input/config_perf_analyzer.py), flat
  // `concurrency` / `request_rate` / `warmup_request_count` in the older one.
  const concurrency = num(stimulus.concurrency) ?? num(config.concurrency);
  const requestRate = num(stimulus.request_rate) ?? num(config.request_rate);
  const warmup = num(pa.warmup_request_count) ?? num(config.warmup_request_count);
  const extra = summaryDoc ? extrasOf(summaryDoc) : { facts: {}, notes: [], runFacts: {}, tokPerUser: null };
  return experiments.map((e) => ({
    tool: TOOL,
    toolVersion: exported?.version ?? null,
    label: e?.mode ? `${e.mode} ${e.value ?? ""}`.trim() : null,
    model,
    backend: exported?.serviceKind ?? str(config.service_kind),
    concurrency: e ? (e.mode === "concurrency" ? e.value : null) : concurrency,
    requestRate: e ? (e.mode === "request_rate" ? e.value : null) : requestRate,
    numPrompts: e ? e.records.length : null,
    records: e ? e.records : null,
    summary: withConfig(summary ?? emptySummary(), model, e),
    // Token counts and ITL need genai-perf's tokenizer; times come from the same stamps.
    comparable: ["time_to_first_token", "request_latency"],
    durationS: null,
    facts: factsOf({ genaiPerfEndpoint: exported?.endpoint, ...extra.facts }),
    notes: [
      ...(e && !summary
        ? ["no profile_export_genai_perf.json in the upload: token counts and ITL are genai-perf's only"]
        : []),
      ...extra.notes,
    ],
    ...(warmup !== null ? { warmupConfigured: warmup } : {}),
    runFacts: extra.runFacts,
    ...(extra.tokPerUser ? { tokPerUser: extra.tokPerUser } : {}),
  }));
}

/**
 * What genai-perf's summary holds beyond aiperf's tags: time to second token, per-user
 * throughput (`output_token_throughput_per_user`, 1 ÷ each request's ITL, as Runlens's tok/s per
 * user), the older `output_token_throughput_per_request` (output tokens ÷ request latency, TTFT
 * included: another figure), and DCGM `telemetry_stats` per GPU index, where only GPUs that show
 * work (utilisation or memory used above 0) served the run.
 */
function extrasOf(doc: Record<string, unknown>): {
  facts: Record<string, unknown>;
  notes: string[];
  runFacts: NonNullable<BenchResult["runFacts"]>;
  tokPerUser: BenchResult["tokPerUser"] | null;
} {
  const stat = (tag: string, k: string) =>
    isObject(doc[tag]) ? num((doc[tag] as Record<string, unknown>)[k]) : null;
  const notes: string[] = [];
  const facts: Record<string, unknown> = {
    genaiPerfTimeToSecondTokenMeanMs: stat("time_to_second_token", "avg"),
    genaiPerfTimeToSecondTokenP99Ms: stat("time_to_second_token", "p99"),
    genaiPerfOutputTokenThroughputPerRequestMean: stat("output_token_throughput_per_request", "avg"),
  };
  if (facts.genaiPerfOutputTokenThroughputPerRequestMean !== null)
    notes.push(
      "genai-perf's output_token_throughput_per_request is each request's output tokens ÷ its whole latency (TTFT included): not tok/s per user (1000 ÷ TPOT)",
    );
  const perUser = isObject(doc.output_token_throughput_per_user)
    ? doc.output_token_throughput_per_user
    : null;
  const tokPerUser = perUser
    ? { mean: num(perUser.avg), p50: num(perUser.p50), p90: num(perUser.p90), p99: num(perUser.p99) }
    : null;
  const runFacts: NonNullable<BenchResult["runFacts"]> = {};
  const t = isObject(doc.telemetry_stats) ? doc.telemetry_stats : null;
  if (t) {
    const gpus = new Set<string>();
    const busy = new Set<string>();
    for (const [metric, test] of [
      ["gpu_utilization", true],
      ["gpu_memory_used", true],
      ["gpu_power_usage", false],
    ] as const) {
      const m = isObject(t[metric]) ? (t[metric] as Record<string, unknown>) : {};
      for (const [gpu, v] of Object.entries(m)) {
        if (gpu === "unit" || !isObject(v)) continue;
        gpus.add(gpu);
        if (test && ((num(v.max) ?? 0) > 0 || (num(v.avg) ?? 0) > 0)) busy.add(gpu);
      }
    }
    if (busy.size > 0)
      runFacts.gpuCount = {
        value: busy.size,
        source: `genai-perf telemetry_stats (${busy.size} of ${gpus.size} GPUs show work: utilisation or memory used above 0)`,
      };
    facts.genaiPerfTelemetryGpus = gpus.size || null;
    const power = isObject(t.gpu_power_usage) ? (t.gpu_power_usage as Record<string, unknown>) : {};
    let watts = 0;
    let any = false;
    for (const gpu of busy) {
      const w = isObject(power[gpu]) ? num((power[gpu] as Record<string, unknown>).avg) : null;
      if (w !== null) {
        watts += w;
        any = true;
      }
    }
    if (any) facts.genaiPerfServingGpuPowerWatts = watts;
  }
  return { facts, notes, runFacts, tokPerUser };
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
