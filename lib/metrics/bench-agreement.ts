/**
 * Our statistics from an imported tool's per-request rows against that tool's own figures in the
 * same file (docs/metrics.md §Imported benchmark tools). Only the figures whose definition our
 * statistics share are compared (`comparable`); throughputs divide by the tool's own duration,
 * so they check that the rows hold every request the tool counted.
 */
import type { AgreementRow } from "@/lib/api/aiperf-charts";
import type { RequestsBlock } from "@/lib/api/schemas";
import type { AiperfSummary, SummaryMetric } from "@/lib/formats/aiperf-summary";
import { compareWithSummary, withinRounding } from "./aiperf-agreement";

/**
 * The tools print two decimals but write full floats; an absolute 0.005 is rounding, and a
 * relative 1e-6 absorbs float noise from summing seconds before scaling to milliseconds.
 */
const agrees = (ours: number | null, theirs: number) =>
  ours !== null && (withinRounding(ours, theirs) || Math.abs(ours - theirs) <= 1e-6 * Math.abs(theirs));

export function compareWithTool(
  ours: RequestsBlock,
  summary: AiperfSummary,
  comparable: string[],
  stats?: string[],
): AgreementRow[] {
  const keep = new Set(comparable);
  const metrics = Object.fromEntries(
    Object.entries(summary.metrics)
      .filter(([tag]) => keep.has(tag))
      .map(([tag, block]) => [tag, stats ? onlyStats(block, stats) : block]),
  );
  const rows = compareWithSummary(ours, { ...summary, metrics }, { window: false }).map((r) => ({
    ...r,
    agrees: agrees(r.ours, r.aiperf!),
  }));
  const push = (metric: string, o: number | null | undefined, tag: string) => {
    const theirs = metrics[tag]?.avg;
    if (theirs === undefined) return;
    rows.push({ metric, stat: "value", ours: o ?? null, aiperf: theirs, agrees: agrees(o ?? null, theirs) });
  };
  push("Request throughput (req/s)", ours.requestThroughputPerS, "request_throughput");
  push("Output token throughput (tokens/s)", ours.outputTokenThroughputPerS, "output_token_throughput");
  return rows;
}

/** A block narrowed to the named statistics (aiperf calls the mean `avg`). */
function onlyStats(block: SummaryMetric, stats: string[]): SummaryMetric {
  const names = new Set(stats.map((s) => (s === "mean" ? "avg" : s)));
  const out: SummaryMetric = { unit: block.unit };
  for (const [k, v] of Object.entries(block)) if (names.has(k)) (out as Record<string, unknown>)[k] = v;
  return out;
}

/** One line for the run's warnings naming the tool; null when everything agrees. */
export function toolDisagreement(rows: AgreementRow[], tool: string, source: string): string | null {
  const bad = rows.filter((r) => !r.agrees);
  if (bad.length === 0) return null;
  const fmt = (v: number | null) => (v === null ? "none" : Number(v.toPrecision(6)).toString());
  const shown = bad
    .slice(0, 3)
    .map((r) => `${r.metric} ${r.stat} ${fmt(r.ours)} here vs ${fmt(r.aiperf)} in ${tool}`)
    .join("; ");
  return `${tool}'s own figures disagree: ${bad.length} of ${rows.length} statistics differ beyond rounding (${source}): ${shown}${bad.length > 3 ? "; and more" : ""}. The per-request arrays may not hold every request the figures describe.`;
}
