// A block of aiperf record lines read into typed columns (docs/formats.md §aiperf records), so
// that the lines can be parsed on another thread and handed back as transferable buffers
// rather than as objects to be copied. Plain JavaScript: the parse thread
// (lib/ingest/aiperf-parse-worker.mjs) runs without a TypeScript loader. Types, and what each
// column holds, in aiperf-record-block.d.mts.
import { Buffer, isAscii } from "node:buffer";
import { parseAiperfRecord } from "./aiperf-record-read.mjs";
import { PARSE_FAILED, parseJsonText } from "./json-text.mjs";

/** How each line of a block read */
export const LINE_RECORD = 0;
export const LINE_BLANK = 1;
export const LINE_BAD_JSON = 2;
export const LINE_NOT_RECORD = 3;

/** Bits of `flags` */
export const BLOCK_WARMUP = 1;
export const BLOCK_ERROR = 2;
export const BLOCK_CANCELLED = 4;
export const BLOCK_HAS_START = 8;
export const BLOCK_HAS_END = 16;
/** The record states request_start_ns and request_end_ns itself (AiperfRecord.spanStamped) */
export const BLOCK_SPAN_STAMPED = 32;

/** `turn` of a record without a turn index */
export const NO_TURN_INDEX = -1;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** A stamp in a BigInt64Array slot, or (past its range: a broken writer) kept as text in `wideNs`. */
function putNs(ns, at, column, key, wide) {
  if (ns >= INT64_MIN && ns <= INT64_MAX) column[at] = ns;
  else wide.push([at, key, ns.toString()]);
}

/**
 * Reads `text`, lines joined by "\n" (as split by LineSplitter, so none holds a line break),
 * with exactly the per-line rules of JsonLineParser and parseAiperfRecord.
 */
export function parseRecordBlock(text) {
  const lines = text.split("\n");
  const n = lines.length;
  const outcome = new Uint8Array(n);
  const flags = new Uint8Array(n);
  const startNs = new BigInt64Array(n);
  const endNs = new BigInt64Array(n);
  const ttftMs = new Float64Array(n);
  const e2eMs = new Float64Array(n);
  const itlMs = new Float64Array(n);
  const inputTokens = new Float64Array(n);
  const outputTokens = new Float64Array(n);
  const cachedTokens = new Float64Array(n);
  const queueWaitMs = new Float64Array(n);
  const turn = new Int32Array(n);
  const requestId = [];
  const conversationId = [];
  const workerId = [];
  /** [session, parent, depth] per record, null when the record names no session */
  const lineage = [];
  const errors = [];
  const reasons = [];
  const wideNs = [];
  const badValues = new Map();
  const badValue = (message) => badValues.set(message, (badValues.get(message) ?? 0) + 1);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const trimmed = lines[i].trim();
    if (trimmed === "") {
      outcome[i] = LINE_BLANK;
      continue;
    }
    const value = parseJsonText(trimmed);
    if (value === PARSE_FAILED) {
      outcome[i] = LINE_BAD_JSON;
      continue;
    }
    const r = parseAiperfRecord(value, trimmed, badValue);
    if (typeof r === "string") {
      outcome[i] = LINE_NOT_RECORD;
      reasons.push(r);
      continue;
    }
    outcome[i] = LINE_RECORD;
    let f =
      (r.phase === "warmup" ? BLOCK_WARMUP : 0) |
      (r.error ? BLOCK_ERROR : 0) |
      (r.cancelled ? BLOCK_CANCELLED : 0);
    if (r.startNs !== null) {
      f |= BLOCK_HAS_START;
      putNs(r.startNs, k, startNs, "start", wideNs);
    }
    if (r.endNs !== null) {
      f |= BLOCK_HAS_END;
      putNs(r.endNs, k, endNs, "end", wideNs);
    }
    if (r.spanStamped) f |= BLOCK_SPAN_STAMPED;
    flags[k] = f;
    ttftMs[k] = r.ttftMs ?? NaN;
    e2eMs[k] = r.e2eMs ?? NaN;
    itlMs[k] = r.itlMs ?? NaN;
    inputTokens[k] = r.inputTokens ?? NaN;
    outputTokens[k] = r.outputTokens ?? NaN;
    cachedTokens[k] = r.cachedTokens ?? NaN;
    queueWaitMs[k] = r.queueWaitMs ?? NaN;
    turn[k] = r.turnIndex ?? NO_TURN_INDEX;
    requestId.push(r.requestId);
    conversationId.push(r.conversationId);
    workerId.push(r.workerId);
    lineage.push(
      r.sessionId === null && r.parentSessionId === null && r.agentDepth === null
        ? null
        : [r.sessionId, r.parentSessionId, r.agentDepth],
    );
    if (r.error) errors.push([k, r.error.type, r.error.code, r.error.message]);
    k++;
  }
  return {
    lines: n,
    records: k,
    outcome,
    flags,
    startNs,
    endNs,
    ttftMs,
    e2eMs,
    itlMs,
    inputTokens,
    outputTokens,
    cachedTokens,
    queueWaitMs,
    turn,
    requestId,
    conversationId,
    workerId,
    lineage,
    errors,
    reasons,
    wideNs,
    badValues: [...badValues],
  };
}

/**
 * `parseRecordBlock` of the UTF-8 text `bytes[0, length)`: lines joined by "\n", as LineSplitter
 * cut them. Decoding the block at once gives the text that decoding each line gives: "\n" ends
 * any broken sequence before it, so a bad byte becomes the same U+FFFD either way.
 */
export function parseRecordBytes(bytes, length) {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, length);
  // ASCII text (what aiperf writes: JSON escapes anything else) reads the same as Latin-1 or as
  // UTF-8, and Latin-1 is a plain copy: some 10x less CPU than V8's UTF-8 decoder, which was a
  // third of the parse thread's time.
  return parseRecordBlock(b.toString(isAscii(b) ? "latin1" : "utf8"));
}

/** The block's typed arrays' buffers: moved, not copied, when the block is posted to another thread. */
export function blockTransfer(block) {
  return [
    block.outcome,
    block.flags,
    block.startNs,
    block.endNs,
    block.ttftMs,
    block.e2eMs,
    block.itlMs,
    block.inputTokens,
    block.outputTokens,
    block.cachedTokens,
    block.queueWaitMs,
    block.turn,
  ].map((a) => a.buffer);
}
