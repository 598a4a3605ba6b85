/**
 * InferenceX result files (docs/formats.md §InferenceX): what InferenceX's CI writes after a
 * benchmark, one flat JSON object per run.
 *
 * - Fixed ISL/OSL (`utils/process_result.py`): `agg_<result>.json` from a vLLM
 *   `benchmark_serving` result: the run's shape (`hw`, `conc`, `model`, `framework`, `tp`, `isl`,
 *   `osl`, …), `tput_per_gpu` / `output_tput_per_gpu` / `input_tput_per_gpu` (the result's token
 *   throughputs ÷ tp × pp × pcp GPUs, or prefill + decode GPUs on multinode runs), and every
 *   `*_ms` figure of the result in **seconds** under its name less `_ms` (`mean_ttft`,
 *   `median_tpot`, `p99_e2el`, …), plus `*_intvty` = 1000 / each TPOT figure (tokens/s per user;
 *   `std_intvty` is 1000 / std TPOT, not a spread).
 * - Agentic (`utils/agentic/aggregation/process_agentic_result.py`): the same shape from aiperf
 *   records, with `num_requests_total` / `num_requests_successful`, `mean_qps` (completions per
 *   1 s window), TTFT / E2EL / ITL / TPOT / interactivity statistics in seconds, token
 *   distributions and totals, `input_tput_tps` / `output_tput_tps` / `total_tput_tps` over
 *   `duration_seconds` (first start → last end). Newer releases nest these under
 *   `request_metrics` (`latency.ttft.mean`, `throughput.total.tokens_per_second`, …), read here
 *   as their flat names.
 * - A sweep's aggregate (`agg_bmk.json`): a JSON array of such results, one per run; its
 *   `summary.csv` (one row per experiment, ms) and the CI's `run_stats.json` (jobs per hardware).
 */
import { inferencexRunConfig } from "./run-config";
import { factsOf, isObject, metricBlock, num, str, toolSummary, type BenchResult } from "./bench-result";
import { splitCsvRow } from "./csv";

const TOOL = "InferenceX";

/** Keys every InferenceX result carries beside its figures. */
export function isInferencexResult(v: unknown): v is Record<string, unknown> {
  if (!isObject(v)) return false;
  const shape = "hw" in v && "conc" in v && "framework" in v && ("infmax_model_prefix" in v || "image" in v);
  return shape && ("tput_per_gpu" in v || "mean_ttft" in v || isObject(v.request_metrics));
}

/** An `agg_bmk.json`: an array of results. */
export function isInferencexAggregate(v: unknown): v is unknown[] {
  return Array.isArray(v) && v.length > 0 && v.every(isInferencexResult);
}

export function sniffInferencexResult(text: string): boolean {
  return /"infmax_model_prefix"\s*:/.test(text) && /"tput_per_gpu"\s*:/.test(text);
}

/** The results of a file: one, or an aggregate's. */
export function inferencexResults(doc: unknown): BenchResult[] {
  if (isInferencexResult(doc)) return [readResult(doc)];
  if (isInferencexAggregate(doc)) return doc.map((d) => readResult(d as Record<string, unknown>));
  return [];
}

/** Newer agentic results nest the request figures (request_metrics.py `_nest_stats`): flattened. */
function flatten(doc: Record<string, unknown>): Record<string, unknown> {
  const rm = isObject(doc.request_metrics) ? doc.request_metrics : null;
  if (!rm) return doc;
  const out: Record<string, unknown> = { ...doc };
  const put = (k: string, v: unknown) => {
    if (!(k in out) && num(v) !== null) out[k] = v;
  };
  const stats = (group: unknown, name: string) => {
    if (isObject(group)) for (const [stat, v] of Object.entries(group)) put(`${stat}_${name}`, v);
  };
  if (isObject(rm.latency)) for (const [m, g] of Object.entries(rm.latency)) stats(g, m);
  if (isObject(rm.qps)) stats(rm.qps, "qps");
  if (isObject(rm.tokens)) {
    stats(rm.tokens.input, "input_tokens");
    stats(rm.tokens.output_actual, "output_tokens_actual");
  }
  const t = isObject(rm.throughput) ? rm.throughput : {};
  for (const side of ["input", "output", "total"])
    if (isObject(t[side])) put(`${side}_tput_tps`, (t[side] as Record<string, unknown>).tokens_per_second);
  put("duration_seconds", t.duration_seconds);
  const perGpu = isObject(t.per_gpu) ? t.per_gpu : {};
  put("tput_per_gpu", perGpu.total_tput_tps);
  put("output_tput_per_gpu", perGpu.output_tput_tps);
  put("input_tput_per_gpu", perGpu.input_tput_tps);
  return out;
}

/** The latency figures InferenceX keeps in seconds (process_result.py: `*_ms` ÷ 1000). */
const SECONDS = /^(mean|median|std|p\d+(\.\d+)?)_(ttft|tpot|itl|e2el|e2el_per_osl|full_response_itl)$/;

/**
 * The GPUs InferenceX divided its throughputs by: prefill + decode GPUs on a multinode run,
 * else tp × pp × pcp (process_result.py). Null when the file does not say tp.
 */
export function inferencexGpus(d: Record<string, unknown>): { count: number; how: string } | null {
  const prefill = num(d.num_prefill_gpu);
  const decode = num(d.num_decode_gpu);
  if (prefill !== null && decode !== null && prefill + decode > 0)
    return { count: prefill + decode, how: `num_prefill_gpu ${prefill} + num_decode_gpu ${decode}` };
  const tp = num(d.tp);
  if (tp === null || tp <= 0) return null;
  const pp = num(d.pp) ?? 1;
  const pcp = num(d.pcp_size) ?? 1;
  return { count: tp * pp * pcp, how: `tp ${tp} × pp ${pp} × pcp ${pcp}` };
}

/** A statistic block from InferenceX's `<stat>_<name>` figures, scaled (s → ms). */
function block(d: Record<string, unknown>, name: string, unit: string, scale: number, count: number | null) {
  const s = (stat: string) => {
    const v = num(d[`${stat}_${name}`]);
    return v === null ? undefined : v * scale;
  };
  return metricBlock(unit, {
    avg: s("mean"),
    p50: s("median") ?? s("p50"),
    p75: s("p75"),
    p90: s("p90"),
    p95: s("p95"),
    p99: s("p99"),
    std: s("std"),
    count: count ?? undefined,
  });
}

function readResult(doc: Record<string, unknown>): BenchResult {
  const d = flatten(doc);
  const notes: string[] = [];
  const gpus = inferencexGpus(d);
  const ok = num(d.num_requests_successful) ?? num(d.total_requests_completed);
  const total = num(d.num_requests_total);
  const agentic = str(d.scenario_type) !== null || total !== null;
  // Output tokens/s: the agentic result states it; a fixed-ISL/OSL one only per GPU, which
  // InferenceX divided by the GPUs the file names, so the product is its result's own figure.
  let outputTps = num(d.output_tput_tps);
  const outPerGpu = num(d.output_tput_per_gpu);
  const multinode = num(d.num_decode_gpu);
  const outDivisor = multinode !== null && multinode > 0 ? multinode : (gpus?.count ?? null);
  if (outputTps === null && outPerGpu !== null && outDivisor !== null) {
    outputTps = outPerGpu * outDivisor;
    notes.push(
      `output tokens/s = InferenceX's output_tput_per_gpu × the ${outDivisor} GPUs it divided by (${multinode ? "num_decode_gpu" : gpus!.how})`,
    );
  }
  const summary = toolSummary(
    {
      request_count: ok === null ? null : metricBlock("requests", { avg: ok }),
      error_request_count:
        ok !== null && total !== null && total >= ok ? metricBlock("requests", { avg: total - ok }) : null,
      time_to_first_token: block(d, "ttft", "ms", 1000, ok),
      request_latency: block(d, "e2el", "ms", 1000, ok),
      inter_token_latency: block(d, "tpot", "ms", 1000, ok),
      input_sequence_length: block(d, "input_tokens", "tokens", 1, ok),
      output_sequence_length: block(d, "output_tokens_actual", "tokens", 1, ok),
      output_token_throughput: outputTps === null ? null : metricBlock("tokens/sec", { avg: outputTps }),
      total_osl: metricBlock("tokens", { avg: d.total_generation_tokens }),
    },
    { model: str(d.model), concurrency: num(d.conc) },
  );
  const isl = num(d.isl);
  const osl = num(d.osl);
  const offload = str(d.offloading) ?? str(d.kv_offloading);
  const label = [
    agentic
      ? (str(d.scenario_type) ?? "agentic")
      : isl !== null && osl !== null
        ? `ISL ${isl} / OSL ${osl}`
        : null,
    `conc ${num(d.conc) ?? "?"}`,
    offload && offload !== "none" ? `offload ${offload}` : null,
  ]
    .filter(Boolean)
    .join(" · ");
  // Every figure under InferenceX's own name (seconds where InferenceX keeps seconds).
  const named: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(d)) {
    if (typeof v !== "number" && typeof v !== "string" && typeof v !== "boolean") continue;
    named[`inferencex ${k}${SECONDS.test(k) ? " (s)" : ""}`] = v;
  }
  // The derived figures as InferenceX computed them: token throughputs (total = tput_per_gpu ×
  // the GPUs it divided by), and TPOT, whose median gives tok/s per user exactly (1000 ÷ median).
  const totalTps =
    num(d.total_tput_tps) ??
    (num(d.tput_per_gpu) !== null && gpus ? num(d.tput_per_gpu)! * gpus.count : null);
  const tpot = summary.metrics.inter_token_latency;
  const throughput = {
    source: "InferenceX result",
    note: null,
    outputTokPerS: outputTps,
    totalTokPerS: totalTps,
    requestsPerS: null,
    tpotMs: tpot
      ? { mean: tpot.avg ?? null, p50: tpot.p50 ?? null, p90: tpot.p90 ?? null, p99: tpot.p99 ?? null }
      : null,
    tokPerUser: null,
  };
  return {
    tool: TOOL,
    toolVersion: null,
    label,
    model: str(d.model),
    backend: str(d.framework),
    concurrency: num(d.conc),
    // Agentic replay sends conversations at a concurrency; fixed-ISL/OSL runs too (max_concurrency).
    requestRate: null,
    numPrompts: total ?? ok,
    records: null,
    summary,
    comparable: [],
    durationS: num(d.duration_seconds),
    facts: { ...factsOf(named), ...inferencexRunConfig(d) },
    notes,
    throughput,
    runFacts: {
      ...(gpus ? { gpuCount: { value: gpus.count, source: `InferenceX result (${gpus.how})` } } : {}),
      ...(str(d.hw) ? { gpuModel: { value: str(d.hw)!, source: "InferenceX result hw" } } : {}),
      ...(str(d.framework)
        ? { backend: { value: str(d.framework)!, source: "InferenceX result framework" } }
        : {}),
      ...(isl !== null ? { isl: { value: isl, source: "InferenceX result isl (configured)" } } : {}),
      ...(osl !== null ? { osl: { value: osl, source: "InferenceX result osl (configured)" } } : {}),
      ...(isl === null && num(d.mean_input_tokens) !== null
        ? { isl: { value: num(d.mean_input_tokens)!, source: "InferenceX mean_input_tokens" } }
        : {}),
      ...(osl === null && num(d.mean_output_tokens_actual) !== null
        ? {
            osl: { value: num(d.mean_output_tokens_actual)!, source: "InferenceX mean_output_tokens_actual" },
          }
        : {}),
    },
  };
}

/**
 * The header of the agentic sweep's `summary.csv` (utils/agentic-benchmark/scripts/
 * collect_sweep_results.py): one row per experiment, times in ms, `*_tpot_ms` from aiperf's
 * inter-token latency, `status` SUCCESS or FAILED.
 */
export function isInferencexSweepCsvHeader(line: string): boolean {
  return (
    /^exp_name,/.test(line) && /(^|,)throughput_rps(,|$)/.test(line) && /(^|,)mean_ttft_ms(,|$)/.test(line)
  );
}

/** The experiments of a `summary.csv`, one result per row. */
export function inferencexSweepCsvResults(text: string): BenchResult[] {
  const lines = text.split(/\r\n|\r|\n/).filter((l) => l.trim() !== "");
  if (lines.length === 0 || !isInferencexSweepCsvHeader(lines[0])) return [];
  const head = splitCsvRow(lines[0]);
  return lines.slice(1).map((line) => {
    const cells = splitCsvRow(line);
    const row: Record<string, string | number> = {};
    head.forEach((h, k) => {
      const c = (cells[k] ?? "").trim();
      row[h] = c !== "" && Number.isFinite(Number(c)) ? Number(c) : c;
    });
    return sweepCsvResult(row);
  });
}

function sweepCsvResult(row: Record<string, string | number>): BenchResult {
  const ok = row.status === "SUCCESS";
  const n = num(row.num_requests);
  const stats = (name: string) =>
    metricBlock("ms", {
      avg: row[`mean_${name}_ms`],
      p50: row[`p50_${name}_ms`],
      p90: row[`p90_${name}_ms`],
      p99: row[`p99_${name}_ms`],
      count: n ?? undefined,
    });
  const summary = toolSummary(
    ok
      ? {
          request_count: n === null ? null : metricBlock("requests", { avg: n }),
          request_throughput: metricBlock("requests/sec", { avg: row.throughput_rps }),
          output_token_throughput: metricBlock("tokens/sec", { avg: row.output_throughput_tps }),
          total_token_throughput: metricBlock("tokens/sec", { avg: row.total_throughput_tps }),
          time_to_first_token: stats("ttft"),
          inter_token_latency: stats("tpot"),
          request_latency: stats("latency"),
        }
      : {},
    { concurrency: num(row.conc) },
  );
  const offload = typeof row.offload === "string" && row.offload !== "" ? row.offload : null;
  const named: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) named[`inferencex summary.csv ${k}`] = v;
  return {
    tool: TOOL,
    toolVersion: null,
    label: [
      `conc ${row.conc ?? "?"}`,
      offload && offload !== "none" ? `offload ${offload}` : null,
      `tp ${row.tp ?? "?"}`,
    ]
      .filter(Boolean)
      .join(" · "),
    model: null,
    backend: null,
    concurrency: num(row.conc),
    requestRate: null,
    numPrompts: n,
    records: null,
    summary,
    comparable: [],
    durationS: null,
    facts: factsOf(named),
    notes: ok
      ? []
      : [`InferenceX marked this experiment ${row.status || "not successful"}: it wrote no figures for it`],
  };
}

/**
 * `run_stats.json` (utils/calc_success_rate.py): CI jobs per hardware, `{hw: {n_success, total}}`.
 * About the CI, not one benchmark: its counts become run facts of whatever run it joins.
 */
export function isInferencexRunStats(v: unknown): v is Record<string, { n_success: number; total: number }> {
  if (!isObject(v)) return false;
  const values = Object.values(v);
  return (
    values.length > 0 &&
    values.every((x) => isObject(x) && typeof x.n_success === "number" && typeof x.total === "number")
  );
}

/** The hardware that ran jobs, as "12 of 12 jobs succeeded" facts. */
export function inferencexRunStatsFacts(v: Record<string, { n_success: number; total: number }>) {
  const facts: Record<string, string> = {};
  for (const [hw, s] of Object.entries(v))
    if (s.total > 0) facts[`inferencex run_stats ${hw}`] = `${s.n_success} of ${s.total} jobs succeeded`;
  return facts;
}
