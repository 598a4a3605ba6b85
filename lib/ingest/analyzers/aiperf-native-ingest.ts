/**
 * aiperf `profile_export.jsonl` read by DuckDB (docs/architecture.md §The aiperf records read):
 * the bytes go once to local files of whole lines, parts scanned on the way; DuckDB reads each
 * part natively into raw columns (lib/store/columnar/aiperf-records-native.ts) as soon as it is
 * written, while the upload goes on; the run's structures (request log,
 * turns, reuse, conversations, errors, profiling clock) are fed from those columns with the line
 * reader's own value rules (units, token counts, derived ITL), and the records' rows become a
 * segment of the run's request file without a row object or an appended row each.
 *
 * The line reader (aiperf-record-ingest.ts) stays the reference and reads every file the native
 * read cannot reproduce exactly: a malformed, blank, over-long or non-UTF-8 line, NaN/Infinity,
 * surrogate or NUL escapes, a line that is not one object, old metric tags or 0.1.x stamps,
 * numbers written as text or text as numbers, duplicate keys. The scan and DuckDB's own counts
 * decide for each part before any of its records reaches the run; from the first part in doubt
 * on, the line reader reads the local copy, its line numbers going on from the parts before.
 */
import fs from "node:fs";
import { Readable } from "node:stream";
import type { DuckDBValue, DuckDBVector } from "@duckdb/node-api";
import { derivedItlMs, NEGATIVE_TOKENS, tokenCount } from "@/lib/formats/aiperf-records";
import { toMs } from "@/lib/formats/aiperf-units";
import { WarningLog } from "@/lib/formats/json-lines";
import { emptyRequestValues, type RequestValues } from "@/lib/metrics/requests-log";
import type { AiperfRequestStage } from "@/lib/store/columnar/aiperf-request-file";
import {
  AiperfRecordsRead,
  NATIVE_METRICS,
  UNIT_CODES,
  type NativeChunk,
  type NativeMetric,
  type NativeNumbers,
} from "@/lib/store/columnar/aiperf-records-native";
import { runFileTmpPath } from "@/lib/store/columnar/run-files";
import type { FileReport, IngestContext, IngestFile } from "../analyzer";
import { spoolJsonlParts, type SpoolPart } from "../jsonl-spool";
import { integerOrNull } from "./aiperf-request-row";
import { ingestRecordFile, logRecord, type RecordSinks } from "./aiperf-record-ingest";

/** Texts only the line reader reads right: NaN/Infinity literals, surrogate and NUL escapes */
const REFUSED = ["NaN", "Infinity", "\\ud", "\\uD", "\\u0000"];
/** Stamp keys: each must occur once per record that has one, in its metadata (nsFromText reads the first) */
const START_KEY = '"request_start_ns"';
const END_KEY = '"request_end_ns"';
const CREDIT_KEY = '"credit_issued_ns"';

/** How the last records files were read, for tests and the server log */
export interface RecordsReadLog {
  native: number;
  lineReader: number;
  /** Why the last file went to the line reader */
  lastReason: string | null;
}
const KEY = Symbol.for("runlens.aiperfRecordsRead");
const PARTS = Symbol.for("runlens.aiperfRecordsReadParts");
const holder = globalThis as { [KEY]?: RecordsReadLog };
export const recordsReadLog: RecordsReadLog = (holder[KEY] ??= {
  native: 0,
  lineReader: 0,
  lastReason: null,
});

/**
 * `RUNLENS_AIPERF_READ=native` reads records files with DuckDB where they allow it; by default
 * every records file goes to the line reader, which is still the faster of the two
 * (docs/performance.md §aiperf records read by DuckDB natively).
 */
const nativeWanted = () => process.env.RUNLENS_AIPERF_READ === "native";

/**
 * Bytes of a part: the file is read by DuckDB a part at a time while the rest arrives, and each
 * part is fed while DuckDB reads the next, so what is left once the upload ends is about one
 * part's read, not the whole file's. Settable for tests (small parts split small files).
 */
export const nativeReadOptions: { partBytes: number } = ((holder as { [PARTS]?: { partBytes: number } })[
  PARTS
] ??= { partBytes: 32 << 20 });

/** Why DuckDB's read of a part is not the line reader's, or null when it is */
function mismatch(read: AiperfRecordsRead, part: SpoolPart): string | null {
  const c = read.check;
  if (c.rows !== part.lines) return `${c.rows} records in ${part.lines} lines`;
  if (c.odd > 0) return `${c.odd} records the line reader reads by other rules`;
  if (
    c.starts !== part.counts.get(START_KEY) ||
    c.ends !== part.counts.get(END_KEY) ||
    c.credits !== (part.counts.get(CREDIT_KEY) ?? 0)
  )
    return "a stamp key outside a record's metadata, or a null stamp";
  return null;
}

/** The bytes of `paths` one after the other */
async function* concatenated(paths: readonly string[]): AsyncGenerator<Buffer> {
  for (const p of paths)
    for await (const chunk of fs.createReadStream(p, { highWaterMark: 1 << 20 })) yield chunk as Buffer;
}

/**
 * Reads one records file into the sinks, natively when the file allows it. The file is spooled
 * in parts (lib/ingest/jsonl-spool.ts); DuckDB reads each part as soon as it is complete, one at
 * a time, and each part that reads exactly as the line reader would is fed to the sinks in order.
 * From the first part that does not, the line reader reads the rest, its lines numbered on.
 */
export async function ingestRecordFileNative(
  file: IngestFile,
  ctx: IngestContext,
  s: RecordSinks,
  stage: AiperfRequestStage,
): Promise<FileReport> {
  if (!nativeWanted()) {
    recordsReadLog.lineReader++;
    recordsReadLog.lastReason = "RUNLENS_AIPERF_READ is lines";
    return ingestRecordFile(file, ctx, s);
  }
  const parts: Array<{ part: SpoolPart; read: Promise<AiperfRecordsRead | string> }> = [];
  let spooling = true;
  /** Set once a part goes to the line reader: later parts are not read by DuckDB */
  let stopped = false;
  let reads: Promise<unknown> = Promise.resolve();
  let wake: (() => void) | null = null;
  const arrived = () => {
    wake?.();
    wake = null;
  };
  const spooled = spoolJsonlParts(
    (await file.open()) as AsyncIterable<Buffer>,
    () => runFileTmpPath(ctx.db, "jsonl"),
    {
      maxLineBytes: ctx.limits.maxLineBytes,
      refused: REFUSED,
      counted: [START_KEY, END_KEY, CREDIT_KEY],
      partBytes: nativeReadOptions.partBytes,
    },
    (part) => {
      const reason = part.odd ?? (part.lines === 0 ? "no lines" : null);
      const read: Promise<AiperfRecordsRead | string> =
        reason !== null
          ? Promise.resolve(reason)
          : reads.then(() =>
              stopped
                ? "not read"
                : AiperfRecordsRead.open(ctx.db, part.path, Math.max(16 << 20, part.maxLine + 1024)).catch(
                    (err: unknown) =>
                      `DuckDB: ${String(err instanceof Error ? err.message : err).split("\n")[0]}`,
                  ),
            );
      // One DuckDB read at a time: each takes the engine's threads.
      reads = read;
      parts.push({ part, read });
      arrived();
    },
  ).finally(() => {
    spooling = false;
    arrived();
  });
  spooled.catch(() => {});
  const done = { records: 0, warmups: 0, negatives: 0, lines: 0 };
  let next = 0;
  let reason: string | null = null;
  try {
    for (;;) {
      while (next >= parts.length && spooling) await new Promise<void>((r) => (wake = r));
      if (next >= parts.length) break;
      const { part, read: reading } = parts[next];
      const read = await reading;
      if (typeof read === "string") reason = read;
      else {
        try {
          reason = mismatch(read, part);
          if (reason === null) {
            const fed = await feed(read, file, s, stage, part.linesBefore);
            done.records += fed.records;
            done.warmups += fed.warmups;
            done.negatives += fed.negatives;
            done.lines += part.lines;
          }
        } finally {
          await read.close();
        }
      }
      if (reason !== null) break;
      next++;
    }
    stopped = reason !== null;
    await spooled;
    const warnings = new WarningLog();
    if (done.negatives > 0) warnings.count(NEGATIVE_TOKENS, done.negatives);
    if (reason === null) {
      recordsReadLog.native++;
      return {
        records: done.records,
        skipped: 0,
        warnings: warnings.toList(),
        meta: { warmupRecords: done.warmups },
      };
    }
    recordsReadLog.lineReader++;
    recordsReadLog.lastReason = next > 0 ? `${reason} (from line ${done.lines + 1})` : reason;
    const rest = parts.slice(next).map((p) => p.part.path);
    const open = async () => Readable.from(concatenated(rest), { objectMode: false });
    return await ingestRecordFile({ ...file, open }, ctx, s, {
      resume: { lines: done.lines, warnings, records: done.records, warmup: done.warmups },
    });
  } finally {
    stopped = true;
    await spooled.catch(() => {});
    for (const { part, read } of parts.slice(next)) {
      const r = await read.catch(() => null);
      if (r !== null && typeof r !== "string") await r.close();
      void part;
    }
    await Promise.all(parts.map(({ part }) => fs.promises.rm(part.path, { force: true })));
  }
}

const COLUMNS = [
  "warmup",
  "cancelled",
  "err",
  "error_type",
  "error_code",
  "error_message",
  "start_ns",
  "end_ns",
  "credit_issued_ns",
  "conversation_id",
  "turn_index",
  "session_id",
  "parent_session_id",
  "agent_depth",
  ...NATIVE_METRICS.flatMap((m) => [`${m}_v`, `${m}_u`]),
];

/** A metric in canonical units, as metricNumber reads it; null when not recorded */
function metric(chunk: NativeChunk, m: NativeMetric): (j: number) => number | null {
  const value = chunk.column(`${m}_v`) as DuckDBVector<number>;
  const unit = chunk.column(`${m}_u`) as DuckDBVector<number>;
  return (j) => {
    const v = value.getItem(j);
    if (v === null || !Number.isFinite(v)) return null;
    const u = unit.getItem(j) ?? 0;
    return toMs(v, u === 0 ? undefined : UNIT_CODES[u - 1]);
  };
}

function numbersOf(rows: number): NativeNumbers {
  const f = () => new Float64Array(rows);
  return {
    rows,
    startMs: f(),
    endMs: f(),
    ttftMs: f(),
    e2eMs: f(),
    itlMs: f(),
    inputTokens: f(),
    outputTokens: f(),
    cachedTokens: f(),
    possibleReuseTokens: f(),
  };
}

const orNaN = (v: number | null | undefined) => (v === null || v === undefined ? NaN : v);

/** The records, chunk by chunk, into the sinks exactly as writeBlock logs a parsed block. */
async function feed(
  read: AiperfRecordsRead,
  file: IngestFile,
  s: RecordSinks,
  stage: AiperfRequestStage,
  linesBefore: number,
): Promise<{ records: number; warmups: number; negatives: number }> {
  const { log, turns, reuse, conversations, errors } = s;
  const seqFrom = stage.length;
  let records = 0;
  let warmups = 0;
  let negatives = 0;
  const bad = () => {
    negatives++;
  };
  const v: RequestValues = emptyRequestValues();
  for await (const chunk of read.chunks(COLUMNS)) {
    const col = <T extends DuckDBValue>(name: string) => chunk.column(name) as DuckDBVector<T>;
    const warmupCol = col<boolean>("warmup");
    const cancelledCol = col<boolean>("cancelled");
    const errCol = col<boolean>("err");
    const typeCol = col<string>("error_type");
    const codeCol = col<bigint>("error_code");
    const messageCol = col<string>("error_message");
    const startCol = col<bigint>("start_ns");
    const endCol = col<bigint>("end_ns");
    const creditCol = col<bigint>("credit_issued_ns");
    const convCol = col<string>("conversation_id");
    const turnCol = col<number>("turn_index");
    const sessionCol = col<string>("session_id");
    const parentCol = col<string>("parent_session_id");
    const depthCol = col<number>("agent_depth");
    const ttft = metric(chunk, "time_to_first_token");
    const e2e = metric(chunk, "request_latency");
    const itl = metric(chunk, "inter_token_latency");
    const isl = metric(chunk, "input_sequence_length");
    const errorIsl = metric(chunk, "error_isl");
    const osl = metric(chunk, "output_sequence_length");
    const cachedOf = metric(chunk, "usage_prompt_cache_read_tokens");
    const n = numbersOf(chunk.rows);
    for (let j = 0; j < chunk.rows; j++) {
      records++;
      const warmup = warmupCol.getItem(j) === true;
      const cancelled = cancelledCol.getItem(j) === true;
      const failed = errCol.getItem(j) === true;
      v.startNs = startCol.getItem(j);
      v.endNs = endCol.getItem(j);
      v.ttftMs = ttft(j);
      v.e2eMs = e2e(j);
      v.outputTokens = tokenCount(osl(j), bad);
      v.itlMs = itl(j) ?? derivedItlMs(v.ttftMs, v.e2eMs, v.outputTokens);
      v.inputTokens = tokenCount(isl(j) ?? errorIsl(j), bad);
      const cachedTokens = tokenCount(cachedOf(j), bad);
      const turnIndex = turnCol.getItem(j);
      const conversationId = convCol.getItem(j);
      if (warmup) warmups++;
      const at = logRecord(s, v, warmup, failed, cancelled);
      const issued = creditCol.getItem(j);
      // aiperf's credit_to_start_latency, as the line reader computes it (queueWaitMs)
      const wait =
        issued === null || v.startNs === null ? null : Math.max(Number(v.startNs) - Number(issued), 0) / 1e6;
      s.queueWaits?.add(wait, warmup, v.ttftMs, v.e2eMs);
      // Only request_start_ns / request_end_ns are read here: each stamp is the record's own.
      s.concurrency?.add(v.startNs, v.endNs, true, warmup);
      const possible = reuse.next(conversationId, turnIndex, v.inputTokens, v.outputTokens, failed, !warmup);
      turns.add(turnIndex, cachedTokens, possible, conversations.of(conversationId));
      s.sessions?.add(sessionCol.getItem(j), parentCol.getItem(j), depthCol.getItem(j));
      const startMs = log.value("startMs", at);
      const endMs = log.value("endMs", at);
      if (failed && !warmup) {
        const code = codeCol.getItem(j);
        errors.add(
          typeCol.getItem(j) ?? "Error",
          code === null ? null : Number(code),
          messageCol.getItem(j) ?? "",
          startMs,
        );
      }
      n.startMs[j] = Number.isFinite(startMs) ? startMs : NaN;
      n.endMs[j] = Number.isFinite(endMs) ? endMs : NaN;
      n.ttftMs[j] = orNaN(v.ttftMs);
      n.e2eMs[j] = orNaN(v.e2eMs);
      n.itlMs[j] = orNaN(v.itlMs);
      n.inputTokens[j] = orNaN(v.inputTokens);
      n.outputTokens[j] = orNaN(v.outputTokens);
      n.cachedTokens[j] = orNaN(integerOrNull(cachedTokens));
      n.possibleReuseTokens[j] = orNaN(integerOrNull(possible));
    }
    await read.appendNumbers(n);
  }
  stage.addSegment(await read.writeSegment(file.id, seqFrom, linesBefore), records);
  return { records, warmups, negatives };
}
