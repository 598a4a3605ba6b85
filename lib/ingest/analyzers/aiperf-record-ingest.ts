/**
 * aiperf `profile_export.jsonl` into the run's request columns and its request rows, staged
 * for the run's Parquet file (docs/formats.md §aiperf records). Lines are cut here and their bytes gathered into blocks
 * (lib/ingest/line-blocks.ts), which are decoded and parsed on the parse thread
 * (lib/ingest/record-block-parser.ts) while the next lines arrive; each block's columns
 * are then logged, counted and written here in line order. Skipped lines are reported with their
 * numbers exactly as a line-by-line read reports them: the warnings are replayed per line
 * through the same JsonLineParser.
 */
import { setImmediate as nextTurn } from "node:timers/promises";
import {
  BLOCK_CANCELLED,
  BLOCK_ERROR,
  BLOCK_HAS_END,
  BLOCK_SPAN_STAMPED,
  BLOCK_HAS_START,
  BLOCK_WARMUP,
  LINE_BAD_JSON,
  LINE_BLANK,
  LINE_NOT_RECORD,
  LINE_RECORD,
  NO_TURN_INDEX,
  type RecordBlock,
} from "@/lib/formats/aiperf-record-block.mjs";
import { JsonLineParser, WarningLog } from "@/lib/formats/json-lines";
import { LineSplitter } from "@/lib/formats/read-lines";
import type { AgentSessionColumns } from "@/lib/metrics/agent-sessions";
import type { QueueWaits } from "@/lib/metrics/aiperf-queue-wait";
import type { HeldConcurrency } from "@/lib/metrics/aiperf-held-concurrency";
import type { ConversationIndex, PossibleReuse, TurnColumns } from "@/lib/metrics/conversation-turns";
import type { ProfilingClock } from "@/lib/metrics/profiling-window";
import type { ErrorTally } from "@/lib/metrics/requests-errors";
import {
  FLAG_CANCELLED,
  FLAG_ERROR,
  FLAG_WARMUP,
  emptyRequestValues,
  type RequestLog,
  type RequestValues,
} from "@/lib/metrics/requests-log";
import type { AiperfRequestsTable } from "@/lib/store/tables/aiperf";
import type { FileReport, IngestContext, IngestFile } from "../analyzer";
import { type LineBlock, LineBlockBuilder } from "../line-blocks";
import { aiperfRequestRow } from "./aiperf-request-row";
import { INLINE_BLOCK_BYTES, RecordBlockParser, THREAD_AFTER_BYTES } from "../record-block-parser";

/** Bytes of lines per block: large enough that a block's message costs little, small enough to overlap. */
const BLOCK_BYTES = 1 << 20;
/** Blocks sent ahead of the one being written: the parse thread keeps busy while this one works. */
const BLOCKS_AHEAD = 2;
/**
 * Bounds on the work done between two turns of the event loop (issue 31, health within 100 ms
 * during an ingest): records logged and written (about 30 µs each of a quiet machine's CPU),
 * and bytes of lines cut into blocks. Parsed blocks that are ready one after the other, or
 * chunks an upload has buffered ahead, are otherwise all handled in promise callbacks alone.
 */
export const TURN_RECORDS = 512;
const TURN_BYTES = 1 << 20;

/** What reading one file has found so far */
interface FileRead {
  parser: JsonLineParser;
  warnings: WarningLog;
  result: { skipped: number };
  records: number;
  warmup: number;
  /** Records handled since the event loop last took a turn */
  sinceTurn: number;
}

export interface RecordSinks {
  log: RequestLog;
  turns: TurnColumns;
  reuse: PossibleReuse;
  /** Each request's conversation as a dense index, for the inputs.json reuse estimate */
  conversations: ConversationIndex;
  errors: ErrorTally;
  clock: ProfilingClock;
  rows: RequestRowSink;
  /** Each request's agent session and its lineage (docs/metrics.md §Agent sessions) */
  sessions?: AgentSessionColumns;
  /** Each profiling record's client-side queue wait (docs/metrics.md §Comparable runs) */
  queueWaits?: QueueWaits;
  /** Each profiling record's span, for the concurrency the run held (docs/metrics.md §Comparable runs) */
  concurrency?: HeldConcurrency;
}

/**
 * Where each record's row goes: the run's request file being staged (AiperfRequestStage), or a
 * table's batch inserter. `push` says when the caller should await `flush`.
 */
export interface RequestRowSink {
  push(row: AiperfRequestsTable): boolean;
  flush(): Promise<void>;
}

/** A column's "not recorded" (NaN) as the null a record and a row carry */
const orNull = (v: number) => (Number.isNaN(v) ? null : v);

export interface BlockOptions {
  /** Bytes of lines per block */
  blockBytes?: number;
  /** Bytes parsed on this thread before the parse thread starts (see RecordBlockParser) */
  threadAfterBytes?: number;
  /**
   * The file read from one of its lines on, the lines before it already read into the same sinks
   * (aiperf-native-ingest.ts): their count, the warnings they gave (these go on in the same log)
   * and their records and warm-up records, which the report adds.
   */
  resume?: { lines: number; warnings: WarningLog; records: number; warmup: number };
}

/** Reads one records file into the sinks. */
export async function ingestRecordFile(
  file: IngestFile,
  ctx: IngestContext,
  s: RecordSinks,
  { blockBytes = BLOCK_BYTES, threadAfterBytes = THREAD_AFTER_BYTES, resume }: BlockOptions = {},
): Promise<FileReport> {
  const warnings = resume?.warnings ?? new WarningLog();
  const result = { skipped: 0 };
  const read: FileRead = {
    parser: new JsonLineParser(warnings, result),
    warnings,
    result,
    records: resume?.records ?? 0,
    warmup: resume?.warmup ?? 0,
    sinceTurn: 0,
  };
  const { parser } = read;
  const blocks = new RecordBlockParser(threadAfterBytes);
  // Each block is written as soon as it is parsed and the one before it is written, whether or
  // not more of the upload has arrived: rows land while a slow body is still coming in.
  let writing: Promise<void> = Promise.resolve();
  /** One promise per block sent and not yet awaited, settled once that block is written */
  const written: Array<Promise<void>> = [];
  const send = ({ bytes, length, lineNos }: LineBlock) => {
    const block = blocks.parse(bytes, length);
    // Smaller blocks while they are parsed on this thread, each in a turn of its own.
    lines.blockBytes = blocks.threaded ? blockBytes : Math.min(blockBytes, INLINE_BLOCK_BYTES);
    // Awaited in turn by the chain below; until then a failure must not count as unhandled.
    block.catch(() => {});
    writing = writing.then(async () => writeBlock(lineNos, await block, file, ctx, s, read));
    writing.catch(() => {});
    written.push(writing);
  };
  const splitter = new LineSplitter(parser.report, {
    maxLineBytes: ctx.limits.maxLineBytes,
    linesBefore: resume?.lines ?? 0,
  });
  // A chunk larger than a block is cut into blocks as its lines go by.
  const lines = new LineBlockBuilder(Math.min(blockBytes, INLINE_BLOCK_BYTES), send);
  let bytesSinceTurn = 0;
  try {
    for await (const chunk of (await file.open()) as AsyncIterable<Buffer>) {
      splitter.pushTo(chunk, lines.add);
      lines.settle();
      bytesSinceTurn += chunk.length;
      if (bytesSinceTurn >= TURN_BYTES) {
        bytesSinceTurn = 0;
        await nextTurn();
      }
      // Backpressure: at most BLOCKS_AHEAD blocks parsed or written behind the one being gathered.
      while (written.length > BLOCKS_AHEAD) await written.shift();
    }
    splitter.endTo(lines.add);
    lines.flush();
    await writing;
  } finally {
    await writing.catch(() => {});
    await blocks.close();
  }
  parser.finish();
  await s.rows.flush();
  return {
    records: read.records,
    skipped: result.skipped,
    warnings: warnings.toList(),
    meta: { warmupRecords: read.warmup },
  };
}

/**
 * Adds a record's values to the run's request log with its flags and, unless it is a warm-up or
 * was cancelled, its span to the profiling clock: its index in the log.
 */
export function logRecord(
  s: Pick<RecordSinks, "log" | "clock">,
  v: RequestValues,
  warmup: boolean,
  failed: boolean,
  cancelled: boolean,
): number {
  const flags = (warmup ? FLAG_WARMUP : 0) | (failed ? FLAG_ERROR : 0) | (cancelled ? FLAG_CANCELLED : 0);
  if (!warmup && !cancelled)
    s.clock.noteRequest(
      v.startNs === null ? null : Number(v.startNs),
      v.endNs === null ? null : Number(v.endNs),
    );
  const at = s.log.length;
  s.log.add(v, flags);
  return at;
}

/** One parsed block, line by line: warnings replayed, records logged and their rows written. */
async function writeBlock(
  lineNos: Int32Array,
  b: RecordBlock,
  file: IngestFile,
  ctx: IngestContext,
  s: RecordSinks,
  read: FileRead,
): Promise<void> {
  const { log, turns, reuse, conversations, errors, rows } = s;
  const { parser, warnings, result } = read;
  const wide = new Map(b.wideNs.map(([k, which, text]) => [`${which}${k}`, BigInt(text)]));
  const v: RequestValues = emptyRequestValues();
  let k = 0;
  let reason = 0;
  let error = 0;
  for (let i = 0; i < b.lines; i++) {
    const outcome = b.outcome[i];
    const lineNo = lineNos[i];
    parser.note(lineNo, outcome === LINE_BLANK ? "blank" : outcome === LINE_BAD_JSON ? "bad" : "parsed");
    if (outcome === LINE_NOT_RECORD) {
      result.skipped++;
      warnings.add(`skipped line: ${b.reasons[reason++]}`, lineNo);
      continue;
    }
    if (outcome !== LINE_RECORD) continue;
    read.records++;
    const f = b.flags[k];
    const warmup = (f & BLOCK_WARMUP) !== 0;
    const cancelled = (f & BLOCK_CANCELLED) !== 0;
    const err = (f & BLOCK_ERROR) !== 0 ? b.errors[error++] : null;
    v.startNs = f & BLOCK_HAS_START ? b.startNs[k] : null;
    v.endNs = f & BLOCK_HAS_END ? b.endNs[k] : null;
    if (wide.size > 0) {
      v.startNs = wide.get(`start${k}`) ?? v.startNs;
      v.endNs = wide.get(`end${k}`) ?? v.endNs;
    }
    v.ttftMs = orNull(b.ttftMs[k]);
    v.e2eMs = orNull(b.e2eMs[k]);
    v.itlMs = orNull(b.itlMs[k]);
    v.inputTokens = orNull(b.inputTokens[k]);
    v.outputTokens = orNull(b.outputTokens[k]);
    const cachedTokens = orNull(b.cachedTokens[k]);
    const turnIndex = b.turn[k] === NO_TURN_INDEX ? null : b.turn[k];
    const conversationId = b.conversationId[k];
    if (warmup) read.warmup++;
    const at = logRecord(s, v, warmup, err !== null, cancelled);
    s.queueWaits?.add(orNull(b.queueWaitMs[k]), warmup, v.ttftMs, v.e2eMs);
    s.concurrency?.add(v.startNs, v.endNs, (f & BLOCK_SPAN_STAMPED) !== 0, warmup);
    const possible = reuse.next(
      conversationId,
      turnIndex,
      v.inputTokens,
      v.outputTokens,
      err !== null,
      !warmup,
    );
    turns.add(turnIndex, cachedTokens, possible, conversations.of(conversationId));
    const lineage = b.lineage[k];
    s.sessions?.add(lineage?.[0] ?? null, lineage?.[1] ?? null, lineage?.[2] ?? null);
    const startMs = log.value("startMs", at);
    const endMs = log.value("endMs", at);
    if (err && !warmup) errors.add(err[1], err[2], err[3], startMs);
    const row = aiperfRequestRow(ctx.runId, file.id, lineNo, {
      requestId: b.requestId[k],
      warmup,
      failed: err !== null,
      errorType: err ? err[1] : null,
      cancelled,
      startMs,
      endMs,
      ttftMs: v.ttftMs,
      e2eMs: v.e2eMs,
      itlMs: v.itlMs,
      inputTokens: v.inputTokens,
      outputTokens: v.outputTokens,
      conversationId,
      turnIndex,
      cachedTokens,
      possibleReuseTokens: possible,
      workerId: b.workerId[k],
    });
    k++;
    if (rows.push(row)) await rows.flush();
    if (++read.sinceTurn >= TURN_RECORDS) {
      read.sinceTurn = 0;
      await nextTurn();
    }
  }
  for (const [message, times] of b.badValues) warnings.count(message, times);
}
