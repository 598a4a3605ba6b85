/**
 * Payload → chart rows for the breakdown view. Pure so they can be tested; the chart components
 * only draw. "Not recorded" stays distinguishable from 0 ms in every row shape.
 */
import { ALTERNATIVE_SEGMENTS, type SegmentValue } from "./time-breakdown";
import { segmentWords } from "./segment-words";
import { trtllmRequestName } from "./trtllm-request-name";
import type {
  RequestDetail,
  RequestSample,
  SegmentSharePayload,
  SegmentScope,
  SegmentsPayload,
  Statistic,
} from "@/lib/api/trtllm-charts";

/** The segment's colour variable (app/globals.css): `--seg-` + name with `_` → `-`. */
export function segmentColour(name: string): string {
  return `var(--seg-${name.replace(/_/g, "-")})`;
}

/**
 * Segments that run past the first token (docs/metrics.md §Segments): `decode` overlaps the
 * postprocessing spans, and without it the stacked segments tile TTFT. Decode is most of every
 * request, so a chart sorted by TTFT shows its TTFT segments only with decode left out.
 */
const AFTER_FIRST_TOKEN: ReadonlySet<string> = new Set(["decode"]);

/** Whether a segment is drawn in a scope: every segment, or only the spans up to the first token. */
export function inScope(name: string, scope: SegmentScope): boolean {
  return scope === "all" || !AFTER_FIRST_TOKEN.has(name);
}

const STAT_FIELD = { mean: "meanMs", p50: "p50Ms", p75: "p75Ms", p90: "p90Ms", p99: "p99Ms" } as const;

export interface SegmentStatRow {
  name: string;
  label: string;
  /** null = not recorded in any request */
  valueMs: number | null;
  count: number;
  notRecorded: number;
  excluded: number;
  /** Values clamped from clock skew to 0; 0 when the payload predates the count */
  clamped: number;
}

const coveredBy = (name: string, recorded: (other: string) => boolean) =>
  (ALTERNATIVE_SEGMENTS[name] ?? []).some(recorded);

/**
 * The segment table's rows at one statistic. A segment no request of the run records is left
 * out when its alternative is recorded instead (a run whose requests all carry KV-transfer stamps
 * has no `gen_queue`, and that is not missing data).
 */
export function segmentStatRows(payload: SegmentsPayload, stat: Statistic): SegmentStatRow[] {
  const counted = new Set(payload.segments.filter((s) => s.count > 0 || s.excluded > 0).map((s) => s.name));
  const unused = (s: SegmentsPayload["segments"][number]) =>
    !counted.has(s.name) && coveredBy(s.name, (o) => counted.has(o));
  return payload.segments
    .filter((s) => !unused(s))
    .map((s) => ({
      name: s.name,
      label: s.label,
      valueMs: s[STAT_FIELD[stat]],
      count: s.count,
      notRecorded: s.notRecorded,
      excluded: s.excluded,
      clamped: s.clamped,
    }));
}

export interface RequestBarRow {
  idx: number;
  label: string;
  /** segment name → ms, only for recorded segments */
  [segment: string]: number | string | string[];
}

/** Names of a request's segments that were not recorded (or excluded), for tooltips. */
export const NOT_RECORDED_KEY = "notRecorded";

export function requestBarRows(sample: RequestSample, scope: SegmentScope = "all"): RequestBarRow[] {
  return sample.requests.map((r) => {
    const row: RequestBarRow = { idx: r.idx, label: trtllmRequestName(r) };
    const missing: string[] = [];
    const recorded = (name: string) => typeof r.segments[sample.segmentNames.indexOf(name)] === "number";
    r.segments.forEach((v, i) => {
      const name = sample.segmentNames[i];
      if (!inScope(name, scope)) return;
      if (typeof v === "number") row[name] = v;
      else if (v !== null || !coveredBy(name, recorded)) missing.push(name);
    });
    row[NOT_RECORDED_KEY] = missing;
    return row;
  });
}

/**
 * Each bucket's mean segment times as shares of their sum (0..1); buckets without requests are
 * left out. In the "ttft" scope the sum is over the TTFT segments alone, so the shares are of TTFT.
 */
export function segmentShareRows(
  payload: SegmentSharePayload,
  scope: SegmentScope = "all",
): Array<Record<string, number>> {
  const used = payload.segmentNames.map((name) => inScope(name, scope));
  return payload.buckets
    .filter((b) => b.requests > 0)
    .map((b) => {
      const row: Record<string, number> = { startS: b.startMs / 1000, requests: b.requests };
      let total = 0;
      b.meanMs.forEach((v, i) => {
        if (v !== null && used[i]) total += v;
      });
      payload.segmentNames.forEach((name, i) => {
        const v = b.meanMs[i];
        if (v !== null && used[i] && total > 0) row[name] = v / total;
      });
      return row;
    });
}

export type SegmentStatus = "recorded" | "not-recorded" | "excluded";

export interface WaterfallRow {
  /** The upstream span name: the row's key, colour and CSV column */
  name: string;
  /** The segment in words, as the Breakdown view's table names it: what the axis shows */
  words: string;
  label: string;
  status: SegmentStatus;
  /** Where the bar starts on the request's own timeline (ms after its arrival) */
  offsetMs: number;
  durationMs: number;
  /** What the bar's label says: ms, "not recorded" or "excluded (−x ms)" */
  text: string;
}

export function segmentStatus(v: SegmentValue): SegmentStatus {
  return typeof v === "number" ? "recorded" : v === null ? "not-recorded" : "excluded";
}

/** Segments of one request on its own timeline; unrecorded ones keep a row that says so. */
export function waterfallRows(detail: RequestDetail, formatMs: (ms: number) => string): WaterfallRow[] {
  const origin = detail.arrivalMs ?? 0;
  const recorded = (name: string) =>
    detail.segments.some((s) => s.name === name && typeof s.value === "number");
  const shown = detail.segments.filter((s) => s.value !== null || !coveredBy(s.name, recorded));
  return shown.map((s) => {
    const status = segmentStatus(s.value);
    const offsetMs = s.startMs !== null ? Math.max(0, s.startMs - origin) : 0;
    if (typeof s.value === "number")
      return {
        name: s.name,
        words: segmentWords(s.name),
        label: s.label,
        status,
        offsetMs,
        durationMs: s.value,
        text: formatMs(s.value),
      };
    return {
      name: s.name,
      words: segmentWords(s.name),
      label: s.label,
      status,
      offsetMs,
      durationMs: 0,
      text: s.value === null ? "not recorded" : `excluded (${formatMs(s.value.excludedMs)})`,
    };
  });
}
