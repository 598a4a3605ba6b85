/**
 * aiperf's CSV export writes display headers ("Time to First Token (ms)") instead of metric tags
 * (docs/formats.md §aiperf summary). This maps the headers back; an unknown header becomes a
 * snake_case tag so new metrics still show up generically.
 */
const HEADER_TO_TAG: Record<string, string> = {
  "Request Latency": "request_latency",
  "Time to First Token": "time_to_first_token",
  "Time to Second Token": "time_to_second_token",
  "Time to First Output Token": "time_to_first_output_token",
  "Inter Token Latency": "inter_token_latency",
  "Inter Chunk Latency": "inter_chunk_latency",
  "Output Token Throughput Per User": "output_token_throughput_per_user",
  "Prefill Throughput Per User": "prefill_throughput_per_user",
  "Prefill Throughput": "prefill_throughput",
  "E2E Output Token Throughput": "e2e_output_token_throughput",
  "Input Sequence Length": "input_sequence_length",
  "Output Sequence Length": "output_sequence_length",
  "Output Token Count": "output_token_count",
  "Reasoning Token Count": "reasoning_token_count",
  "Request Count": "request_count",
  "Error Request Count": "error_request_count",
  "Good Request Count": "good_request_count",
  "Benchmark Duration": "benchmark_duration",
  "Request Throughput": "request_throughput",
  "Output Token Throughput": "output_token_throughput",
  "Total Token Throughput": "total_token_throughput",
  Goodput: "goodput",
  "Total Output Tokens": "total_output_tokens",
  "Total Output Sequence Length": "total_osl",
  "Total Input Sequence Length": "total_isl",
  "Total Reasoning Tokens": "total_reasoning_tokens",
  "Error Input Sequence Length": "error_isl",
  "Total Error Input Sequence Length": "total_error_isl",
  "Minimum Request Timestamp": "min_request_timestamp",
  "Maximum Response Timestamp": "max_response_timestamp",
  "OSL Mismatch Count": "osl_mismatch_count",
  "OSL Mismatch Diff %": "osl_mismatch_diff_pct",
};

/** Splits "Header (unit)" into the tag and the unit; units `count`/`requests` are never written. */
export function tagFromDisplay(cell: string): { tag: string; unit: string | undefined } {
  const m = /^(.*?)\s*\(([^()]*)\)\s*$/.exec(cell.trim());
  let header = cell.trim();
  let unit: string | undefined;
  // "HTTP Duration (excl. conn) (ms)": only the last parenthesis is the unit.
  if (m && !/\s/.test(m[2].trim())) {
    header = m[1];
    unit = m[2];
  }
  const tag =
    HEADER_TO_TAG[header] ??
    header
      .toLowerCase()
      .replace(/%/g, "pct")
      .replace(/[^a-z0-9]+/g, "_")
      .replace(/^_|_$/g, "");
  return { tag, unit };
}
