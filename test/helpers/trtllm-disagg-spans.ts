/**
 * TensorRT-LLM's spans of a disaggregated run, written out from the stamps of its perf-metrics
 * records (docs/metrics.md §Request latency from perf metrics) so the tests do not lean on
 * Runlens's: TTFT from the disagg server's arrival to its first token; E2E = TTFT + the generation
 * server's own first-response-to-last-token span, clamped at 0; TPOT over the generation
 * iterations, for the requests streamed after their first response.
 */

/** Milliseconds from stamp `a` to stamp `b`, both in seconds. */
export const spanMs = (a: number, b: number) => (b - a) * 1000;

/** The fields of a disaggregated perf-metrics record the spans read. */
export interface DisaggSpanRecord {
  disagg_server_arrival_time: number;
  disagg_server_first_token_time: number;
  gen_perf_metrics: {
    perf_metrics: {
      first_iter: number;
      last_iter: number;
      timing_metrics: { server_first_token_time: number; last_token_time: number };
    };
  };
}

export function disaggSpans(records: readonly DisaggSpanRecord[]) {
  const ttft = records.map((r) => spanMs(r.disagg_server_arrival_time, r.disagg_server_first_token_time));
  /** The generation server's first response to its last token (negative when it sent every token at once) */
  const tail = records.map((r) =>
    spanMs(
      r.gen_perf_metrics.perf_metrics.timing_metrics.server_first_token_time,
      r.gen_perf_metrics.perf_metrics.timing_metrics.last_token_time,
    ),
  );
  const e2e = ttft.map((t, i) => t + Math.max(0, tail[i]));
  const genIters = records.map(
    (r) => r.gen_perf_metrics.perf_metrics.last_iter - r.gen_perf_metrics.perf_metrics.first_iter + 1,
  );
  // Requests streamed after their first response: the others sent every token at once.
  const streamed = records.map((_, i) => i).filter((i) => tail[i] > 0);
  const tpot = streamed.map((i) => (e2e[i] - ttft[i]) / genIters[i]);
  return { ttft, tail, e2e, genIters, streamed, tpot };
}
