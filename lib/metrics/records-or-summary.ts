/**
 * Whose aggregates describe an aiperf run, its records' or its summary's (docs/metrics.md
 * §Records or summary). Some exports keep only a sample of the requests the summary describes
 * (the shared qwen c1/c2/c4 captures hold 10 of 64): statistics of that sample are not the run's,
 * so where the records and the one summary disagree on the request count the summary's own
 * aggregates are used, and the note says so. Where they agree, or there is no summary (or no
 * single one, as with pooled trials), the records are. The run's derived throughput and its sweep
 * points both ask here, so they cannot choose differently. Pure.
 */

export interface AggregatesChoice {
  from: "records" | "summary";
  /** Why the summary was taken, in a sentence the page shows; null when the records were */
  note: string | null;
}

const count = (n: number) => n.toLocaleString("en-US");

/**
 * @param recorded successful profiling requests among the records, null when none were uploaded
 * @param summaryCount the one summary's request_count, undefined when it has none
 * @param hasSummary whether there is exactly one summary to defer to
 */
export function recordsOrSummary(
  recorded: number | null,
  summaryCount: number | undefined,
  hasSummary: boolean,
): AggregatesChoice | null {
  if (recorded !== null) {
    if (!hasSummary || summaryCount === undefined || summaryCount === recorded)
      return { from: "records", note: null };
    return {
      from: "summary",
      note: `the records hold ${count(recorded)} of the ${count(summaryCount)} requests aiperf's summary counts: these aggregates are the summary's`,
    };
  }
  if (hasSummary)
    return {
      from: "summary",
      note: "no per-request records uploaded: these aggregates are aiperf's summary's",
    };
  return null;
}
