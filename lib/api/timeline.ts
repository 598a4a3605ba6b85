/**
 * The whole-run request timeline contract (GET /api/runs/{id}/timeline): the requests that
 * overlap a time window, as bars on lanes, each split into its recorded parts. Above `limit`
 * requests in the window the answer is a labelled sample (every k-th by start time).
 */
import { z } from "zod";

/** How bars are grouped into lanes; each lane is packed into rows so bars never overlap. */
export const TIMELINE_LANES = ["worker", "ctx-worker", "conversation", "file", "none"] as const;
export type TimelineLanes = (typeof TIMELINE_LANES)[number];

export const TIMELINE_DEFAULT_LIMIT = 5000;
export const TIMELINE_MAX_LIMIT = 20_000;

const ms = z.coerce.number().finite();

export const timelineQuerySchema = z
  .object({
    /** Window in ms from the run's first request; either end left out means the run's own end. */
    from: ms.optional(),
    to: ms.optional(),
    lanes: z.enum(TIMELINE_LANES).optional(),
    limit: z.coerce.number().int().min(1).max(TIMELINE_MAX_LIMIT).default(TIMELINE_DEFAULT_LIMIT),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from < q.to, {
    message: "from must be before to",
    path: ["from"],
  });
export type TimelineQuery = z.infer<typeof timelineQuerySchema>;

export const timelineSegmentSchema = z.object({
  /** Segment name: TensorRT-LLM span names (`ctx_queue`, …), or `ttft`, `decode`, `failed`. */
  name: z.string(),
  label: z.string(),
  /** CSS colour, a theme token. */
  colour: z.string(),
});

export const timelineLaneSchema = z.object({
  key: z.string(),
  label: z.string(),
  /** Rows the lane's shown bars are packed into. */
  rows: z.number().int(),
  /** Requests of the window on this lane (before sampling). */
  requests: z.number().int(),
});

export const timelinePayloadSchema = z.object({
  source: z.enum(["trtllm", "aiperf"]),
  /** The run's whole span, ms from its first request. */
  run: z.object({ startMs: z.number(), endMs: z.number(), requests: z.number().int() }),
  window: z.object({ fromMs: z.number(), toMs: z.number() }),
  lanesBy: z.enum(TIMELINE_LANES),
  /** The groupings this run can be laned by. */
  laneChoices: z.array(z.enum(TIMELINE_LANES)),
  lanes: z.array(timelineLaneSchema),
  /** Requests that overlap the window. */
  inWindow: z.number().int(),
  /** Every `stride`-th request of the window by start time is shown; 1 = all of them. */
  stride: z.number().int().min(1),
  /** What was left out and by which rule, for the view to say; null when every request is shown. */
  sampleNote: z.string().nullable(),
  segments: z.array(timelineSegmentSchema),
  /** One entry per bar, column-wise. `id` opens the request's drill-down. */
  bars: z.object({
    id: z.array(z.number().int()),
    lane: z.array(z.number().int()),
    row: z.array(z.number().int()),
    startMs: z.array(z.number()),
    endMs: z.array(z.number()),
  }),
  /** Each bar's parts, flat: `bar` indexes `bars`, `seg` indexes `segments`. */
  parts: z.object({
    bar: z.array(z.number().int()),
    seg: z.array(z.number().int()),
    startMs: z.array(z.number()),
    endMs: z.array(z.number()),
  }),
  /** Epoch ms of the run's first request, where known: aligns server-metrics intervals. */
  originEpochMs: z.number().nullable(),
});
export type TimelinePayload = z.infer<typeof timelinePayloadSchema>;

/**
 * The payload as it goes over the wire (GET /api/runs/{id}/timeline, and with the page): the same
 * but for the parts, which are most of it. Instead of each part's bar and its times on the run's
 * axis, each bar says how many parts it has (they follow in bar order), and each part how long
 * after the previous part's end (its bar's start, for the first) it starts and how long it
 * lasts. A bar's parts mostly follow each other, so most gaps are 0. A TensorRT-LLM window of
 * 5,000 bars has 65,000 parts; this takes it from 1.96 to 0.81 MB (docs/metrics.md §Request
 * timeline, "Wire form"). Times are kept to 0.01 ms both ways.
 */
export const timelineWireSchema = timelinePayloadSchema.omit({ bars: true, parts: true }).extend({
  bars: timelinePayloadSchema.shape.bars.extend({
    /** How many of `parts` are this bar's; a bar's parts follow the previous bar's. */
    parts: z.array(z.number().int().min(0)),
  }),
  parts: z.object({
    seg: z.array(z.number().int()),
    /** ms from the previous part's end, or for a bar's first part from the bar's start */
    gapMs: z.array(z.number()),
    lengthMs: z.array(z.number()),
  }),
});
export type TimelineWire = z.infer<typeof timelineWireSchema>;

const hundredths = (v: number) => Math.round(v * 100) / 100;

/** The wire form of a payload whose parts are in bar order (as the route cuts them). */
export function encodeTimeline(p: TimelinePayload): TimelineWire {
  const steps = encodeTimelineInSteps(p);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Parts encoded per step of encodeTimelineInSteps. */
const ENCODE_STEP = 16_384;

/** encodeTimeline in steps (lib/metrics/steps.ts): a step every ENCODE_STEP parts. */
export function* encodeTimelineInSteps(p: TimelinePayload): Generator<void, TimelineWire, void> {
  const { bars, parts, ...rest } = p;
  const counts = new Array<number>(bars.id.length).fill(0);
  const gapMs = new Array<number>(parts.bar.length);
  const lengthMs = new Array<number>(parts.bar.length);
  for (let i = 0; i < parts.bar.length; i++) {
    if (i % ENCODE_STEP === ENCODE_STEP - 1) yield;
    const b = parts.bar[i];
    if (i > 0 && b < parts.bar[i - 1]) throw new Error("timeline parts out of bar order");
    const after = counts[b] === 0 ? bars.startMs[b] : parts.endMs[i - 1];
    counts[b]++;
    gapMs[i] = hundredths(parts.startMs[i] - after);
    lengthMs[i] = hundredths(parts.endMs[i] - parts.startMs[i]);
  }
  return { ...rest, bars: { ...bars, parts: counts }, parts: { seg: parts.seg, gapMs, lengthMs } };
}

/** The payload the views draw, from its wire form. */
export function decodeTimeline(w: TimelineWire): TimelinePayload {
  const { bars, parts, ...rest } = w;
  const { parts: counts, ...barColumns } = bars;
  const n = parts.seg.length;
  if (counts.reduce((a, c) => a + c, 0) !== n || parts.gapMs.length !== n || parts.lengthMs.length !== n)
    throw new Error("timeline parts and their bars' counts disagree");
  const bar = new Array<number>(n);
  const startMs = new Array<number>(n);
  const endMs = new Array<number>(n);
  let i = 0;
  for (let b = 0; b < counts.length; b++)
    for (let k = 0, after = bars.startMs[b]; k < counts[b]; k++, i++) {
      bar[i] = b;
      startMs[i] = hundredths(after + parts.gapMs[i]);
      endMs[i] = after = hundredths(startMs[i] + parts.lengthMs[i]);
    }
  return { ...rest, bars: barColumns, parts: { bar, seg: parts.seg, startMs, endMs } };
}

/**
 * aiperf bar ids pack the record's file (its place in the run's file list) and its line: lines
 * stay below 2^24 (16 M records a file), files below 2^7.
 */
export const AIPERF_LINE_BITS = 2 ** 24;

/** An aiperf bar's drill-down id: the record's file (its place in the run's file list) and line. */
export const aiperfRequestId = (fileIndex: number, line: number) => fileIndex * AIPERF_LINE_BITS + line;

/** One aiperf request of the timeline (TensorRT-LLM requests open the breakdown's drill-down). */
export const timelineRequestSchema = z.object({
  id: z.number().int(),
  requestId: z.string().nullable(),
  file: z.string().nullable(),
  line: z.number().int(),
  ok: z.boolean(),
  cancelled: z.boolean(),
  errorType: z.string().nullable(),
  startMs: z.number().nullable(),
  endMs: z.number().nullable(),
  ttftMs: z.number().nullable(),
  e2eMs: z.number().nullable(),
  itlMs: z.number().nullable(),
  inputTokens: z.number().nullable(),
  outputTokens: z.number().nullable(),
  /** aiperf's conversation_id and turn_index; null on a single-turn record */
  conversationId: z.string().nullable(),
  turnIndex: z.number().int().nullable(),
  /** Prompt tokens the response said were served from cache */
  cachedTokens: z.number().nullable(),
  /**
   * The prompt tokens earlier turns made reusable (docs/metrics.md §Turns): the records' count
   * (previous prompt and answer) and inputs.json's estimate, each null when not known; `source`
   * names the one the Turns view and the reuse stack count for this request.
   */
  possibleReuse: z.object({
    records: z.number().nullable(),
    inputs: z.number().nullable(),
    source: z.enum(["inputs", "records"]).nullable(),
    /** Whether this turn's payload in inputs.json had image, audio or video parts (not counted) */
    inputsNonText: z.boolean().nullable(),
  }),
});
export type TimelineRequest = z.infer<typeof timelineRequestSchema>;
