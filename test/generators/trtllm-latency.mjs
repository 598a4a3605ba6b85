// TensorRT-LLM perf-metrics runs laid out from chosen per-request latencies, so TTFT, E2E and
// TPOT percentiles can be pinned by hand.
//
// Records follow TensorRT-LLM's builders (tensorrt_llm/serve/perf_metrics.py): a disaggregated
// request is one disagg-server record, `{ctx_server, gen_server, disagg_server_arrival_time,
// disagg_server_first_token_time, ctx_perf_metrics, gen_perf_metrics}` as
// DisaggPerfMetricsCollector.get_perf_metrics returns it, with each worker's
// `{request_id, ctx_request_id, perf_metrics: {timing_metrics, speculative_decoding?},
// time_breakdown_metrics?: {step_metrics}}`. The generation worker writes one step_metrics
// entry per generation step (the context phase emits the first token, in ctx_chunk_metrics);
// the time-breakdown tool (tensorrt_llm/serve/scripts/time_breakdown/time_breakdown.py) reads
// them from gen_perf_metrics' top level. An aggregated request is the worker record alone.
import fs from "node:fs";
import path from "node:path";

/**
 * @typedef {{ ttftMs: number, e2eMs: number, steps: number, acceptedDraftTokens?: number }} RequestSpec
 * @param {{ dir: string, mode: "aggregated" | "disaggregated", requests: RequestSpec[], baseS?: number }} opts
 * @returns {string} the file written
 */
export function writeLatencyRun(opts) {
  const base = opts.baseS ?? 16784.5;
  const lines = opts.requests.map((r, i) => {
    // Arrivals 0.25 s apart; every stamp inside a request is placed from its TTFT and E2E.
    const arrival = base + i * 0.25;
    const firstToken = arrival + r.ttftMs / 1000;
    const between = (f) => arrival + f * (firstToken - arrival);
    // E2E ends where TTFT ends (docs/metrics.md §Request latency from perf metrics): TTFT + the
    // generation server's first response → last token. The disagg server relays the first token
    // 5 % of TTFT after the generation server sent it, so the engine's last token sits that much
    // before the chosen E2E.
    const lastToken =
      opts.mode === "aggregated"
        ? arrival + r.e2eMs / 1000
        : arrival + r.e2eMs / 1000 - (firstToken - between(0.95));
    const steps = Array.from({ length: r.steps }, (_, j) => {
      const t = firstToken + ((j + 1) / r.steps) * (lastToken - firstToken);
      return {
        iter: 20 + j,
        forward_start_time: t - 0.0008,
        forward_end_time: t - 0.0004,
        sample_start_time: t - 0.0003,
        sample_end_time: t - 0.0001,
        gpu_forward_time: 0.35,
        gpu_sample_time: 0.1,
        token_time: t,
      };
    });
    const speculative =
      r.acceptedDraftTokens !== undefined
        ? {
            speculative_decoding: {
              acceptance_rate: r.acceptedDraftTokens / (2 * r.acceptedDraftTokens),
              total_accepted_draft_tokens: r.acceptedDraftTokens,
              total_draft_tokens: 2 * r.acceptedDraftTokens,
            },
          }
        : {};
    const breakdown = steps.length ? { time_breakdown_metrics: { step_metrics: steps } } : {};
    if (opts.mode === "aggregated")
      return {
        request_id: i,
        perf_metrics: {
          timing_metrics: {
            server_arrival_time: arrival,
            arrival_time: between(0.05),
            first_scheduled_time: between(0.2),
            first_token_time: between(0.95),
            server_first_token_time: firstToken,
            last_token_time: lastToken,
          },
          first_iter: 10,
          last_iter: 10 + r.steps,
          ...speculative,
        },
        ...breakdown,
        status: "complete",
      };
    const ctxId = 1000 + i;
    return {
      ctx_server: "http://ctx0:8001",
      gen_server: "http://gen0:8002",
      disagg_server_arrival_time: arrival,
      disagg_server_first_token_time: firstToken,
      disagg_request_id: i + 1,
      ctx_perf_metrics: {
        request_id: ctxId,
        ctx_request_id: ctxId,
        perf_metrics: {
          timing_metrics: {
            server_arrival_time: between(0.02),
            arrival_time: between(0.05),
            first_scheduled_time: between(0.1),
            first_token_time: between(0.4),
            server_first_token_time: between(0.45),
            last_token_time: between(0.4),
          },
        },
      },
      gen_perf_metrics: {
        request_id: 5000 + i,
        ctx_request_id: ctxId,
        perf_metrics: {
          timing_metrics: {
            server_arrival_time: between(0.5),
            arrival_time: between(0.55),
            first_scheduled_time: between(0.8),
            first_token_time: between(0.9),
            server_first_token_time: between(0.95),
            last_token_time: lastToken,
          },
          ...speculative,
        },
        ...breakdown,
      },
    };
  });
  fs.mkdirSync(opts.dir, { recursive: true });
  const name =
    opts.mode === "aggregated" ? "perf_metrics-server-agg0.jsonl" : "perf_metrics-disagg-router.jsonl";
  const file = path.join(opts.dir, name);
  fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return file;
}
