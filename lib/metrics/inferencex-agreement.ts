/**
 * An InferenceX agentic result beside the aiperf records it was computed from
 * (docs/metrics.md §Imported benchmark tools): InferenceX's figures (seconds, under its own
 * names in the run's info) against the same figures from the records
 * (utils/agentic/aggregation/request_metrics.py: mean TTFT and E2EL over successful records,
 * output tokens ÷ first start → last end). Pure.
 */
import type { RequestsBlock } from "@/lib/api/schemas";

type Info = Record<string, string | number | boolean | null>;

export interface InferencexCheck {
  compared: number;
  /** "TTFT mean 183,963 ms here vs 183,963 ms in InferenceX", one per figure that differs */
  differences: string[];
}

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/** Rounding of InferenceX's newer 5-decimal output (10 µs, 1e-5 tok/s) and float noise. */
const agrees = (ours: number, theirs: number, abs: number) =>
  Math.abs(ours - theirs) <= Math.max(abs, 1e-6 * Math.abs(theirs));

/** Null when the run has no records or no InferenceX figures to compare. */
export function inferencexAgreement(requests: RequestsBlock | null, info: Info): InferencexCheck | null {
  if (!requests || requests.source !== "aiperf") return null;
  const pairs: Array<[string, number | null, number | null, number]> = [
    [
      "successful requests",
      requests.count - requests.errorCount,
      num(info["inferencex num_requests_successful"]),
      0,
    ],
    ["TTFT mean (ms)", requests.ttftMs?.mean ?? null, mul(num(info["inferencex mean_ttft (s)"]), 1000), 0.01],
    ["E2E mean (ms)", requests.e2eMs?.mean ?? null, mul(num(info["inferencex mean_e2el (s)"]), 1000), 0.01],
    [
      "output tokens/s",
      requests.outputTokenThroughputPerS ?? null,
      num(info["inferencex output_tput_tps"]),
      1e-5,
    ],
  ];
  const present = pairs.filter(([, ours, theirs]) => ours !== null && theirs !== null);
  if (present.length === 0) return null;
  const fmt = (v: number) => Number(v.toPrecision(7)).toString();
  return {
    compared: present.length,
    differences: present
      .filter(([, ours, theirs, abs]) => !agrees(ours!, theirs!, abs))
      .map(([what, ours, theirs]) => `${what} ${fmt(ours!)} here vs ${fmt(theirs!)} in InferenceX`),
  };
}

function mul(v: number | null, k: number): number | null {
  return v === null ? null : v * k;
}
