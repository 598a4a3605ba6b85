import type { MetricVerdictDto } from "@/lib/api/regression-schemas";
import { formatCount, formatNumber } from "@/lib/format-number";

export const VERDICT_CLASS: Record<MetricVerdictDto["verdict"], string> = {
  improved: "text-ok",
  regressed: "text-danger",
  "within noise": "text-muted",
  "not enough history": "text-muted",
  "not measured": "text-muted",
};

// One decimal always: an interval's end of 0.0578% printed as "0.0578%" beside "+6.7%" read as
// a different precision, not as nearly zero.
const signed = (v: number) =>
  `${v > 0 ? "+" : v < 0 ? "−" : "±"}${(Math.abs(v) * 100).toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 })}%`;

/** How a verdict was reached, in one line: method, sample sizes, seed and resamples, threshold. */
export function verdictBasis(v: MetricVerdictDto): string {
  const n = `n = ${formatCount(v.samples.run)} vs ${formatCount(v.samples.baseline)} ${v.samples.unit}`;
  const seed = v.seed === null ? "" : ` · seed ${v.seed}, ${formatCount(v.resamples)} resamples`;
  return `${v.method} · ${n}${seed} · threshold ${formatNumber(v.threshold * 100, 1)}%${v.note ? ` · ${v.note}` : ""}`;
}

/**
 * The words of a verdict: a regression or an improvement is only said with its interval; one
 * without (no interval could be drawn from the runs before it) is "not enough runs to judge".
 */
export function verdictWords(v: MetricVerdictDto): string {
  const marked = v.verdict === "regressed" || v.verdict === "improved";
  return marked && (v.effect === null || v.low === null || v.high === null)
    ? "not enough runs to judge"
    : v.verdict;
}

/** The verdict, its change and 95% interval, and beneath it what it rests on. */
export function VerdictText({ v, compact = false }: { v: MetricVerdictDto; compact?: boolean }) {
  const words = verdictWords(v);
  const cls = words === v.verdict ? VERDICT_CLASS[v.verdict] : "text-muted";
  return (
    <span data-verdict={words === v.verdict ? v.verdict : "not enough runs"} title={verdictBasis(v)}>
      <span className={`font-medium ${cls}`}>{words}</span>
      {v.effect !== null && v.low !== null && v.high !== null ? (
        <span className="text-xs">
          {" "}
          {signed(v.effect)} [{signed(v.low)}, {signed(v.high)}]
        </span>
      ) : null}
      {compact ? null : <span className="block text-xs text-muted">{verdictBasis(v)}</span>}
    </span>
  );
}
