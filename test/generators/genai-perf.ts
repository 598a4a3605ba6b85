/**
 * genai-perf artifacts: `profile_export.json` as perf_analyzer writes it (experiments[] of
 * requests with `timestamp` and `response_timestamps` in ns, `request_inputs`,
 * `response_outputs`), and `profile_export_genai_perf.json` as genai-perf's JsonExporter writes
 * it (genai-perf/genai_perf/export_data/json_exporter.py: the statistics by metric, then
 * `input_config`), the statistics computed the way
 * genai-perf/genai_perf/profile_data_parser/llm_profile_data_parser.py does: latency = last
 * response − request, TTFT = first response − request, in ns, reported in ms. `roleChunk` starts
 * each stream as vLLM and OpenAI do, with a role-only chunk (`delta: {role: "assistant"}`, no
 * content) a few ms before the first token: genai-perf drops it (`_preprocess_response`), so its
 * TTFT runs to the first chunk with content.
 */
import { prng } from "./prng.mjs";
import { npMean, npPercentile, npStd } from "./bench-numpy";

const BASE_NS = 1_733_000_000_000_000_000;

const ROLE_CHUNK =
  'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}\n\n';
const TOKEN_CHUNK =
  'data: {"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"x"}}]}\n\n';

export function genaiPerfArtifacts(
  o: { requests?: number; concurrency?: number; seed?: number; roleChunk?: boolean } = {},
) {
  const rand = prng(o.seed ?? 3);
  const n = o.requests ?? 30;
  const c = o.concurrency ?? 2;
  const free = Array.from({ length: c }, () => BASE_NS);
  const requests = Array.from({ length: n }, (_, i) => {
    const w = i % c;
    const start = free[w];
    // Whole microseconds: exact as float64 nanoseconds near 1.7e18 (a multiple of 256 ns).
    const ttft = Math.round(20_000 + rand() * 80_000) * 1024;
    const chunks = 5 + Math.floor(rand() * 20);
    const stamps = [start + ttft];
    for (let k = 1; k < chunks; k++) stamps.push(stamps[k - 1] + Math.round(8_000 + rand() * 8_000) * 1024);
    free[w] = stamps[stamps.length - 1];
    const role = o.roleChunk ? [start + Math.round(ttft / 2 / 1024) * 1024] : [];
    return {
      timestamp: start,
      request_inputs: {
        payload: JSON.stringify({ messages: [{ role: "user", content: "hello" }], stream: true }),
      },
      response_timestamps: [...role, ...stamps],
      response_outputs: [
        ...role.map(() => ({ response: ROLE_CHUNK })),
        ...stamps.map(() => ({
          response: o.roleChunk ? TOKEN_CHUNK : 'data: {"choices":[{"delta":{"content":"x"}}]}\n\n',
        })),
      ],
      contentStamps: stamps,
    };
  });
  const exported = {
    experiments: [{ experiment: { mode: "concurrency", value: c }, requests, window_boundaries: [] }],
    version: "2.40.0",
    service_kind: "openai",
    endpoint: "v1/chat/completions",
  };
  const ms = (values: number[]) => {
    const v = values.map((x) => x / 1e6);
    const out: Record<string, number | string> = { unit: "ms", avg: npMean(v) };
    for (const p of [1, 5, 10, 25, 50, 75, 90, 95, 99]) out[`p${p}`] = npPercentile(v, p);
    return { ...out, min: Math.min(...v), max: Math.max(...v), std: npStd(v) };
  };
  // genai-perf's figures run to the responses with content (the role-only chunk dropped).
  const latencies = requests.map((r) => r.contentStamps[r.contentStamps.length - 1] - r.timestamp);
  const ttfts = requests.map((r) => r.contentStamps[0] - r.timestamp);
  for (const r of requests) delete (r as { contentStamps?: number[] }).contentStamps;
  const summary = {
    request_throughput: { unit: "requests/sec", avg: 12.5 },
    request_latency: ms(latencies),
    time_to_first_token: ms(ttfts),
    // Token counts come from genai-perf's tokenizer: fixed figures here, not derivable from the export.
    inter_token_latency: {
      unit: "ms",
      avg: 11.2,
      p50: 11.1,
      p99: 15.3,
      min: 8.1,
      max: 16.2,
      p90: 14,
      p95: 14.8,
    },
    output_sequence_length: {
      unit: "tokens",
      avg: 14.5,
      p50: 14,
      p99: 24,
      min: 5,
      max: 24,
      p90: 22,
      p95: 23,
    },
    input_sequence_length: {
      unit: "tokens",
      avg: 550,
      p50: 550,
      p99: 550,
      min: 550,
      max: 550,
      p90: 550,
      p95: 550,
    },
    output_token_throughput: { unit: "tokens/sec", avg: 181.25 },
    request_count: { unit: "count", avg: n },
    input_config: {
      model_names: ["meta-llama/Llama-3.1-8B-Instruct"],
      subcommand: "profile",
      endpoint: { type: "chat", streaming: true },
      perf_analyzer: { stimulus: { concurrency: c } },
    },
  };
  return { exported, summary };
}
