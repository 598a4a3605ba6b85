/** How each line of a block read (`RecordBlock.outcome`) */
export declare const LINE_RECORD: 0;
export declare const LINE_BLANK: 1;
export declare const LINE_BAD_JSON: 2;
export declare const LINE_NOT_RECORD: 3;

/** Bits of `RecordBlock.flags` */
export declare const BLOCK_WARMUP: 1;
export declare const BLOCK_ERROR: 2;
export declare const BLOCK_CANCELLED: 4;
export declare const BLOCK_HAS_START: 8;
export declare const BLOCK_HAS_END: 16;
export declare const BLOCK_SPAN_STAMPED: 32;

/** `RecordBlock.turn` of a record without a turn index */
export declare const NO_TURN_INDEX: -1;

/**
 * The records of a block of lines, by column. Line columns have `lines` entries, record
 * columns `records` (the k-th record is the k-th line whose outcome is LINE_RECORD; typed
 * arrays may be longer). A number not recorded is NaN; a stamp is in `startNs`/`endNs` when its
 * HAS bit is set, unless it is past the int64 range, when `wideNs` holds it as text.
 */
export interface RecordBlock {
  lines: number;
  records: number;
  outcome: Uint8Array;
  flags: Uint8Array;
  startNs: BigInt64Array;
  endNs: BigInt64Array;
  ttftMs: Float64Array;
  e2eMs: Float64Array;
  itlMs: Float64Array;
  inputTokens: Float64Array;
  outputTokens: Float64Array;
  cachedTokens: Float64Array;
  /** aiperf's credit_to_start_latency of each record in ms (NaN: no credit_issued_ns) */
  queueWaitMs: Float64Array;
  turn: Int32Array;
  requestId: Array<string | null>;
  conversationId: Array<string | null>;
  workerId: Array<string | null>;
  /** [session, parent session, agent depth] per record; null when the record names none */
  lineage: Array<[string | null, string | null, number | null] | null>;
  /** [record, type, code, message] of each record with an error */
  errors: Array<[number, string, number | null, string]>;
  /** The reason of each LINE_NOT_RECORD line, in line order */
  reasons: string[];
  /** [record, which stamp, decimal text] of stamps past the int64 range */
  wideNs: Array<[number, "start" | "end", string]>;
  /** [message, times] of values read as missing, in the order first seen */
  badValues: Array<[string, number]>;
}

/** Reads lines joined by "\n" with the per-line rules of JsonLineParser and parseAiperfRecord. */
export declare function parseRecordBlock(text: string): RecordBlock;

/** `parseRecordBlock` of the UTF-8 text `bytes[0, length)`, lines joined by "\n". */
export declare function parseRecordBytes(bytes: Uint8Array, length: number): RecordBlock;

/** The block's typed arrays' buffers, to move rather than copy it to another thread. */
export declare function blockTransfer(block: RecordBlock): ArrayBuffer[];
