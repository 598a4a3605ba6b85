/**
 * The definition line of a figure drawn from a run's per-request records (lib/api/figure.ts
 * `FigureDefinition`), in the words of the tool that measured them, said as a sample when the
 * records uploaded are one: the page and the report say the same.
 */
import {
  AIPERF_SUCCESSFUL,
  benchmarkTool,
  requestsDefinition,
  type FigureDefinition,
} from "@/lib/api/figure";
import type { RequestsBlock } from "@/lib/api/schemas";
import { formatCount } from "@/lib/format-number";

/** "10 of 64 requests", when the records uploaded are a sample of what aiperf summarised. */
export function sampleText(r: RequestsBlock | null | undefined): string | null {
  const s = r?.recordsSample;
  return s ? `${formatCount(s.records)} of ${formatCount(s.described)} requests` : null;
}

/**
 * The line above a view's charts when they are drawn from a sample of the run's records (the
 * Latency, Throughput and Timeline views, and their sections of the report); null when they are not.
 */
export function recordsSampleNote(r: RequestsBlock | null | undefined): string | null {
  const s = sampleText(r);
  return s
    ? `The charts here are drawn from ${s}: the records uploaded are a sample of the run aiperf summarised. The run's figures (Overview, statistics table) are aiperf's own, of every request.`
    : null;
}

/** The definition of a chart drawn from aiperf's records: says when they are a sample of the run. */
export function recordsDefinition(r: RequestsBlock | null | undefined): FigureDefinition {
  const s = sampleText(r);
  return s
    ? {
        ...AIPERF_SUCCESSFUL,
        requests: `${s}: the records uploaded are a sample of the run aiperf summarised (successful profiling requests of the sample)`,
      }
    : AIPERF_SUCCESSFUL;
}

/** A run's per-request figures: an imported tool's words, else aiperf's records (a sample said so). */
export function runRequestsDefinition(run: {
  info: Record<string, unknown>;
  requests: RequestsBlock | null | undefined;
}): FigureDefinition {
  const tool = benchmarkTool(run.info);
  return tool ? requestsDefinition(tool) : recordsDefinition(run.requests);
}
