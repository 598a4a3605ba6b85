/**
 * The parts of one timeline bar, per producer (docs/metrics.md §Request timeline). TensorRT-LLM
 * requests carry per-span stamps: each recorded segment of the breakdown is drawn where it
 * happened, in the breakdown's colours. aiperf records carry a start, a first token and an end:
 * TTFT and decode. A part that was not recorded is not drawn, never drawn as 0 ms.
 */
import { segmentStart, segmentsFor, type BreakdownMode, type SegmentValue } from "./time-breakdown";
import type { TimelineSegmentDef } from "./request-timeline";

/** The colour token of a TensorRT-LLM segment, as the breakdown view names it. */
export const segmentColour = (name: string) => `var(--seg-${name.replace(/_/g, "-")})`;

export function trtllmTimelineSegments(mode: BreakdownMode): TimelineSegmentDef[] {
  return segmentsFor(mode).map((s) => ({ name: s.name, label: s.label, colour: segmentColour(s.name) }));
}

/**
 * Flat parts (segment index, start, end in ms from the run start) of a stored TensorRT-LLM
 * request: a segment is drawn from its start stamp for its recorded duration. Segments excluded
 * as too negative, or without a start stamp, are left out.
 */
export function trtllmParts(
  mode: BreakdownMode,
  times: Record<string, number | null>,
  values: readonly SegmentValue[],
): number[] {
  const parts: number[] = [];
  segmentsFor(mode).forEach((def, i) => {
    const v = values[i];
    const at = segmentStart(def, times);
    if (typeof v !== "number" || at === null || at === undefined) return;
    parts.push(i, at, at + v);
  });
  return parts;
}

export const AIPERF_TIMELINE_SEGMENTS: readonly TimelineSegmentDef[] = [
  { name: "ttft", label: "Request sent to first token (TTFT)", colour: "var(--seg-ctx-processing)" },
  { name: "decode", label: "First to last token", colour: "var(--seg-decode)" },
  { name: "no_first_token", label: "Request without a first-token time", colour: "var(--chart-8)" },
  { name: "failed", label: "Failed or cancelled request", colour: "var(--danger)" },
];

const [TTFT, DECODE, WHOLE, FAILED] = [0, 1, 2, 3];

/**
 * An aiperf record's parts: TTFT from the start, decode from the first token to the end. aiperf
 * measures TTFT from the same start as the end (request_start_ns), so start + TTFT is the first
 * token on the bar's own clock. A failed record is one part: where its time went is not known.
 */
export function aiperfParts(startMs: number, endMs: number, ttftMs: number | null, ok: boolean): number[] {
  if (!ok) return [FAILED, startMs, endMs];
  if (ttftMs === null || !Number.isFinite(ttftMs)) return [WHOLE, startMs, endMs];
  const first = Math.min(startMs + ttftMs, endMs);
  return first < endMs ? [TTFT, startMs, first, DECODE, first, endMs] : [TTFT, startMs, first];
}
