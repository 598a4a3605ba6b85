/**
 * What the aiperf generators (aiperf.mjs, aiperf-multiturn.mjs) share: the summary blocks aiperf
 * writes in `profile_export_aiperf.json` for exactly the records written, and the record of a
 * request the server failed. Field names follow aiperf's exporters (aiperf
 * `exporters/json_exporter.py`: one `{unit, avg, p1…p99, min, max, std, count, sum}` block a
 * record metric) and `common/models/record_models.py` (an error record's `error` details).
 */

/** numpy.percentile's default (linear) on an ascending array: written here independently of lib/. */
export function pct(sorted, q) {
  const n = sorted.length;
  if (n === 1) return sorted[0];
  const rank = (q / 100) * (n - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}

/** One record metric's summary block: mean, percentiles, min, max, population std, count, sum. */
export function block(values, unit) {
  const s = Float64Array.from(values).sort();
  const n = s.length;
  let sum = 0;
  for (const v of s) sum += v;
  const avg = sum / n;
  let sq = 0;
  for (const v of s) sq += (v - avg) ** 2;
  const out = { unit, avg };
  for (const q of [1, 5, 10, 25, 50, 75, 90, 95, 99]) out[`p${q}`] = pct(s, q);
  Object.assign(out, { min: s[0], max: s[n - 1], std: Math.sqrt(sq / n), count: n, sum });
  return out;
}

/**
 * The summary's request metrics, in aiperf's key order, over the successful requests' values
 * (`ok`: arrays ttft, e2e, itl in ms, isl, osl in tokens) and the profiling duration in seconds.
 */
export function requestMetrics(ok, durationS) {
  return {
    request_throughput: { unit: "requests/sec", avg: ok.ttft.length / durationS },
    request_latency: block(ok.e2e, "ms"),
    request_count: { unit: "requests", avg: ok.ttft.length },
    time_to_first_token: block(ok.ttft, "ms"),
    inter_token_latency: block(ok.itl, "ms"),
    output_token_throughput: { unit: "tokens/sec", avg: ok.osl.reduce((a, b) => a + b, 0) / durationS },
    output_sequence_length: block(ok.osl, "tokens"),
    input_sequence_length: block(ok.isl, "tokens"),
    benchmark_duration: { unit: "sec", avg: durationS },
  };
}

/** The error details of a request the server answered with a 500. */
export const HTTP_500 = { code: 500, type: "HTTPStatusError", message: "500 server error" };
