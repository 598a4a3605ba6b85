/**
 * One request from client to engine on one time axis (docs/metrics.md §Client to engine): the
 * stored per-request payloads of Dynamo's spans and request trace, and the wire forms of
 * GET /api/runs/{id}/journey (the run's client↔server gap) and
 * GET /api/runs/{id}/timeline/requests/{rid}/journey (one request).
 */
import { z } from "zod";
import { statsSchema } from "./schemas";

export const spanRoleSchema = z.enum(["frontend", "router", "prefill", "decode", "worker"]);

export const dynamoSpansPayloadSchema = z.object({
  /** Files of spans whose requests carry no x_request_id, with how many such requests */
  withoutId: z.array(z.object({ file: z.string(), requests: z.number() })),
  requests: z.array(
    z.object({
      traceId: z.string(),
      xRequestId: z.string().nullable(),
      requestId: z.string().nullable(),
      spans: z.array(
        z.object({
          name: z.string(),
          role: spanRoleSchema,
          service: z.string().nullable(),
          startMs: z.number(),
          endMs: z.number(),
          /** Index of the parent span in this list; null: a root (or its parent was not exported) */
          parent: z.number().nullable(),
          /** Dynamo's `ttft_ms` on the span (http-request, engine.generate), as recorded */
          ttftMs: z.number().nullable(),
          workerId: z.string().nullable(),
        }),
      ),
    }),
  ),
});
export type DynamoSpansPayload = z.infer<typeof dynamoSpansPayloadSchema>;

/**
 * Each traced request's root span only (the `http-request` span, else the earliest without a
 * parent), the first request of each x_request_id: what the run's journey summary joins, stored
 * beside the spans so the summary does not read every span (a tenth of their size).
 */
export const dynamoSpanRootsPayloadSchema = z.object({
  withoutId: z.array(z.object({ file: z.string(), requests: z.number() })),
  requests: z.array(
    z.object({
      xRequestId: z.string(),
      startMs: z.number(),
      endMs: z.number(),
      ttftMs: z.number().nullable(),
    }),
  ),
});
export type DynamoSpanRootsPayload = z.infer<typeof dynamoSpanRootsPayloadSchema>;

export const dynamoTraceRequestsPayloadSchema = z.object({
  withoutId: z.array(z.object({ file: z.string(), requests: z.number() })),
  requests: z.array(
    z.object({
      xRequestId: z.string().nullable(),
      requestId: z.string(),
      receivedMs: z.number().nullable(),
      ttftMs: z.number().nullable(),
      totalMs: z.number().nullable(),
      worker: z.string().nullable(),
    }),
  ),
});
export type DynamoTraceRequestsPayload = z.infer<typeof dynamoTraceRequestsPayloadSchema>;

/**
 * Per-request data stored in pieces keyed by x_request_id (docs/architecture.md §Per-request data
 * in pieces): the index says how many pieces there are and which files lack the id; a request
 * lives in piece `requestPieceOf(xRequestId, pieces)` (lib/metrics/request-pieces.ts), so one
 * request's journey reads one piece of some 64 requests whatever the run's size.
 */
export const requestPiecesIndexSchema = z.object({
  pieces: z.number().int().min(1),
  /** Requests stored in the pieces (those with an x_request_id) */
  requests: z.number().int(),
  withoutId: z.array(z.object({ file: z.string(), requests: z.number() })),
});
export type RequestPiecesIndex = z.infer<typeof requestPiecesIndexSchema>;

/** One piece of the spans: the requests whose x_request_id falls in it, in the stored order. */
export const dynamoSpansPieceSchema = z.object({ requests: dynamoSpansPayloadSchema.shape.requests });
export type DynamoSpansPiece = z.infer<typeof dynamoSpansPieceSchema>;

/** One piece of the request-trace rows, as `dynamoSpansPieceSchema`. */
export const dynamoTraceRequestsPieceSchema = z.object({
  requests: dynamoTraceRequestsPayloadSchema.shape.requests,
});
export type DynamoTraceRequestsPiece = z.infer<typeof dynamoTraceRequestsPieceSchema>;

/** The roles of TensorRT-LLM's time-event lines; "request" is a per-request line (the writer's first form). */
export const timeEventRoleSchema = z.enum(["ctx", "gen", "router", "request"]);
export type TimeEventRoleName = z.infer<typeof timeEventRoleSchema>;

/**
 * As a run stored before the pieces holds them: each request of TensorRT-LLM's time-events files (docs/formats.md
 * §TensorRT-LLM side files), one per role and id (a tensor-parallel worker writes a request once
 * per rank: the first file's copy is kept), its ids exact and its moments in steady-clock seconds
 * as written (`t`). Read by the request journey; not served by the chart route.
 */
export const trtllmTimeEventsPayloadSchema = z.object({
  files: z.array(z.object({ file: z.string(), requests: z.number() })),
  /** Requests beyond the stored bound, counted and not kept */
  leftOut: z.number(),
  requests: z.array(
    z.object({
      role: timeEventRoleSchema,
      requestId: z.string(),
      ctxRequestId: z.string().nullable(),
      disaggRequestId: z.string().nullable(),
      /** Index into `files` */
      file: z.number(),
      events: z.array(z.object({ event: z.string(), t: z.number() })),
    }),
  ),
});
export type TrtllmTimeEventsPayload = z.infer<typeof trtllmTimeEventsPayloadSchema>;

/**
 * Stored with the run: its time-events files and the requests each holds; the requests' events
 * are rows keyed by the ids they join on (the run's time-events Parquet file, or for a run stored
 * before it `trtllm_time_events`), every request kept.
 */
export const trtllmTimeEventFilesPayloadSchema = z.object({
  files: trtllmTimeEventsPayloadSchema.shape.files,
  /** Rows stored (a request's lines per file) */
  pieces: z.number(),
});
export type TrtllmTimeEventFilesPayload = z.infer<typeof trtllmTimeEventFilesPayloadSchema>;

/**
 * Stored with the run: the steady-clock second (s) a TensorRT-LLM run's stored request times are
 * counted from (their earliest arrival), so a time event's `t` can be set against them.
 */
export const trtllmClockOriginPayloadSchema = z.object({ originS: z.number() });

/** Where the server's view of a request comes from. */
export const serverSourceSchema = z.enum(["spans", "trace", "trtllm"]);

/** One lane of the request's axis: ms from the client's send (negative: before it). */
export const journeyLaneSchema = z.object({
  label: z.string(),
  /** client, frontend (the Dynamo trace's row or http-request span), router, prefill, decode, worker */
  role: z.union([z.literal("client"), spanRoleSchema]),
  source: z.enum(["aiperf", "trace", "spans", "trtllm", "time-events"]),
  startMs: z.number(),
  endMs: z.number(),
  depth: z.number(),
  /** A moment inside the lane: the first token */
  firstTokenMs: z.number().nullable(),
  /** Named moments inside the lane (a time-events lane's events); empty for others */
  ticks: z.array(z.object({ label: z.string(), atMs: z.number() })),
  detail: z.string().nullable(),
  /**
   * The producer's own name of what the lane draws (a span's name, a segment's key, the record
   * field its id was joined by): the lane's tooltip, never its text. Absent on lanes without one.
   */
  name: z.string().optional(),
});
export type JourneyLane = z.infer<typeof journeyLaneSchema>;

export const journeyGapsSchema = z.object({
  /** Server received − client sent (two clocks: includes their offset) */
  sendMs: z.number().nullable(),
  /** Client TTFT − server TTFT */
  ttftMs: z.number().nullable(),
  /** Client end-to-end − server total time */
  e2eMs: z.number().nullable(),
});

export const requestJourneySchema = z.object({
  xRequestId: z.string().nullable(),
  serverSource: serverSourceSchema.nullable(),
  lanes: z.array(journeyLaneSchema),
  gaps: journeyGapsSchema,
  /** Said when the clocks disagree (the server's span starts before the client sent) */
  clockNote: z.string().nullable(),
  /** Why a part is missing: which file lacks the id, or has no row for this one */
  missing: z.array(z.string()),
});
export type RequestJourney = z.infer<typeof requestJourneySchema>;

export const journeySummarySchema = z.object({
  /** aiperf records with an x_request_id that a server file also names */
  joined: z.number(),
  clientRequests: z.number(),
  /** Spans where any joined request had them, else the trace, else TensorRT-LLM's records */
  serverSource: serverSourceSchema.nullable(),
  /**
   * How many joined requests took their server side from each source: Dynamo's spans (the root
   * span), else its request trace, else the TensorRT-LLM request sharing the id
   */
  joinedBy: z.object({ spans: z.number(), trace: z.number(), trtllm: z.number() }),
  e2eGapMs: statsSchema.nullable(),
  ttftGapMs: statsSchema.nullable(),
  sendGapMs: statsSchema.nullable(),
  /** Which file lacks the shared id, and what did not join */
  notes: z.array(z.string()),
  /**
   * TensorRT-LLM's time-events requests per role, and how many share an id with a perf-metrics
   * request and with an aiperf record (null: the run holds none of those to join to)
   */
  timeEvents: z.array(
    z.object({
      role: timeEventRoleSchema,
      requests: z.number(),
      joinedPerfMetrics: z.number().nullable(),
      joinedClient: z.number().nullable(),
    }),
  ),
});
export type JourneySummary = z.infer<typeof journeySummarySchema>;
