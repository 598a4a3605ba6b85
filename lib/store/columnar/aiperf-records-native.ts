/**
 * aiperf `profile_export.jsonl` read by DuckDB itself (docs/architecture.md §The aiperf records
 * read): `read_json` with explicit column types over the file's local copy, each leaf whose
 * JSON type decides what the line reader makes of it read as JSON and typed here, the rest as
 * the type it must have. One pass writes the records' raw columns to a Parquet file beside it,
 * with one `odd` flag per record: set where the line reader's rules are not the ones written
 * here (a number where a string is read, a numeric string, an old tag, a float stamp…), so the
 * caller reads such a file with the line reader instead. The numbers in canonical units, the
 * token rules, derived ITL and every run-level structure are computed by the caller from these
 * columns with the line reader's own functions; this module only moves columns.
 */
import fs from "node:fs";
import {
  DuckDBDataChunk,
  DOUBLE,
  INTEGER,
  type DuckDBAppender,
  type DuckDBConnection,
  type DuckDBVector,
} from "@duckdb/node-api";
import type { Db } from "../db";
import { openConnection, quote } from "./engine";
import { runFileTmpPath } from "./run-files";

/** A metric object: its value as JSON (its type matters), its unit as text. */
const METRIC = "STRUCT(value JSON, unit VARCHAR)";

/** The metrics the records read (ttft: aiperf 0.1.x's tag, which only the line reader maps) */
export const NATIVE_METRICS = [
  "time_to_first_token",
  "request_latency",
  "inter_token_latency",
  "input_sequence_length",
  "error_isl",
  "output_sequence_length",
  "usage_prompt_cache_read_tokens",
] as const;
export type NativeMetric = (typeof NATIVE_METRICS)[number];

const COLUMNS = {
  metadata: `STRUCT(x_request_id JSON, benchmark_phase VARCHAR, credit_phase VARCHAR, was_cancelled JSON,
    request_start_ns JSON, timestamp_ns JSON, request_end_ns JSON, credit_issued_ns JSON, conversation_id JSON,
    x_correlation_id JSON, turn_index JSON, worker_id JSON, parent_correlation_id JSON, agent_depth JSON)`,
  metrics: `STRUCT(${NATIVE_METRICS.map((m) => `${m} ${METRIC}`).join(", ")}, ttft JSON,
    min_request_timestamp JSON, max_response_timestamp JSON)`,
  error: "JSON",
};

/** Unit codes: 0 none or not a time unit, else the index + 1 in the line reader's TO_MS keys */
export const UNIT_CODES = ["ns", "us", "µs", "ms", "s", "sec", "seconds"] as const;

const NUMBER_TYPES = "('UBIGINT', 'BIGINT', 'DOUBLE')";
const INT_TYPES = "('UBIGINT', 'BIGINT')";
/** What String.prototype.trim removes, at either end of a unit */
const PADDED = String.raw`'^[\s\v\pZ\x{feff}]|[\s\v\pZ\x{feff}]$'`;

const text = (j: string) => `case when json_type(${j}) = 'VARCHAR' then ${j} ->> '$' end`;
const isNumber = (j: string) => `coalesce(json_type(${j}) in ${NUMBER_TYPES}, false)`;
const stamp = (j: string) => `case when json_type(${j}) in ${INT_TYPES} then try_cast(${j} as bigint) end`;

function metricColumns(m: NativeMetric): string {
  const v = `r.x.${m}.value`;
  const u = `r.x.${m}.unit`;
  const unit = UNIT_CODES.map((k, i) => `when ${quote(k)} then ${i + 1}`).join(" ");
  return `case when json_type(${v}) in ${NUMBER_TYPES} then try_cast(${v} as double) end as ${m}_v,
    (case ${u} ${unit} else 0 end)::utinyint as ${m}_u`;
}

/** Where a record is read differently by the line reader than by the columns below */
function oddOf(): string {
  const m = "r.m";
  const x = "r.x";
  const e = "r.e";
  const odd = [
    `${m} is null`,
    isNumber(`${m}.x_request_id`),
    isNumber(`${m}.conversation_id`),
    isNumber(`${m}.x_correlation_id`),
    isNumber(`${m}.parent_correlation_id`),
    `coalesce(json_type(${m}.agent_depth) in ('BIGINT', 'DOUBLE'), false)`,
    `(${m}.request_start_ns is not null and json_type(${m}.request_start_ns) not in ${INT_TYPES})`,
    `(${m}.request_end_ns is not null and json_type(${m}.request_end_ns) not in ${INT_TYPES})`,
    `(json_type(${m}.request_start_ns) in ${INT_TYPES} and try_cast(${m}.request_start_ns as bigint) is null)`,
    `(json_type(${m}.request_end_ns) in ${INT_TYPES} and try_cast(${m}.request_end_ns as bigint) is null)`,
    `(${m}.credit_issued_ns is not null and json_type(${m}.credit_issued_ns) not in ${INT_TYPES})`,
    `(json_type(${m}.credit_issued_ns) in ${INT_TYPES} and try_cast(${m}.credit_issued_ns as bigint) is null)`,
    `${m}.timestamp_ns is not null`,
    `coalesce(json_type(${m}.turn_index) in ('BIGINT', 'DOUBLE'), false)`,
    `${x}.ttft is not null`,
    `${x}.min_request_timestamp is not null`,
    `${x}.max_response_timestamp is not null`,
    ...NATIVE_METRICS.flatMap((k) => [
      `coalesce(json_type(${x}.${k}.value) = 'VARCHAR', false)`,
      `coalesce(regexp_matches(${x}.${k}.unit, ${PADDED}), false)`,
    ]),
    `coalesce(json_type(${e}) = 'OBJECT' and json_type(${e} -> '$.code') = 'DOUBLE', false)`,
    `coalesce(json_type(${e}) = 'OBJECT' and json_type(${e} -> '$.code') in ${INT_TYPES}
      and abs(try_cast(${e} ->> '$.code' as hugeint)) > 9007199254740991, false)`,
  ];
  return odd.join(" or\n    ");
}

export function rawSelect(jsonl: string, maxObjectBytes: number): string {
  const cols = Object.entries(COLUMNS)
    .map(([k, v]) => `${k}: ${quote(v.replace(/\s+/g, " "))}`)
    .join(", ");
  const e = "r.e";
  const code = `case when json_type(${e} -> '$.code') in ${INT_TYPES} then try_cast(${e} ->> '$.code' as bigint) end`;
  const type = `coalesce(nullif(${text(`${e} -> '$.type'`)}, ''), 'HTTP ' || (${code}), 'Error')`;
  return `
  with r as (
    select metadata as m, metrics as x, error as e
    from read_json(${quote(jsonl)}, format = 'newline_delimited', maximum_object_size = ${maxObjectBytes},
      columns = {${cols}})
  ), t as (
    select r.*, coalesce(json_type(${e}) = 'OBJECT', false) as err,
      case when json_type(${e}) = 'OBJECT' then ${code} end as error_code,
      case when json_type(${e}) = 'OBJECT' then ${type} end as error_type
    from r
  )
  select
    ${text("r.m.x_request_id")} as request_id,
    coalesce(coalesce(r.m.benchmark_phase, r.m.credit_phase) = 'warmup', false) as warmup,
    coalesce(
      case when json_type(r.m.was_cancelled) = 'BOOLEAN' then r.m.was_cancelled::varchar = 'true' end,
      r.err and (r.error_type = 'RequestCancellationError' or coalesce(r.error_code = 499, false))
    ) as cancelled,
    r.err, r.error_type, r.error_code,
    case when r.err then coalesce(${text(`${e} -> '$.message'`)}, '') end as error_message,
    ${stamp("r.m.request_start_ns")} as start_ns,
    ${stamp("r.m.request_end_ns")} as end_ns,
    ${stamp("r.m.credit_issued_ns")} as credit_issued_ns,
    ${NATIVE_METRICS.map(metricColumns).join(",\n    ")},
    coalesce(nullif(${text("r.m.conversation_id")}, ''), nullif(${text("r.m.x_correlation_id")}, '')) as conversation_id,
    case when json_type(r.m.turn_index) = 'UBIGINT' and try_cast(r.m.turn_index as ubigint) <= 2147483647
      then try_cast(r.m.turn_index as integer) end as turn_index,
    nullif(${text("r.m.worker_id")}, '') as worker_id,
    coalesce(nullif(${text("r.m.x_correlation_id")}, ''), nullif(${text("r.m.conversation_id")}, '')) as session_id,
    nullif(${text("r.m.parent_correlation_id")}, '') as parent_session_id,
    case when json_type(r.m.agent_depth) = 'UBIGINT' and try_cast(r.m.agent_depth as ubigint) <= 2147483647
      then try_cast(r.m.agent_depth as integer) end as agent_depth,
    ${oddOf()} as odd
  from t as r`;
}

/** What the raw columns say of the file as a whole */
export interface NativeCheck {
  rows: number;
  /** Records the line reader reads by rules not written here */
  odd: number;
  /** Records with an integer request start / end / credit issued stamp */
  starts: number;
  ends: number;
  credits: number;
}

/** The numbers of a block of records as the run's request file stores them (NaN: null) */
export interface NativeNumbers {
  rows: number;
  startMs: Float64Array;
  endMs: Float64Array;
  ttftMs: Float64Array;
  e2eMs: Float64Array;
  itlMs: Float64Array;
  inputTokens: Float64Array;
  outputTokens: Float64Array;
  cachedTokens: Float64Array;
  possibleReuseTokens: Float64Array;
}

const NUMBER_COLUMNS = [
  ["start_ms", DOUBLE, "startMs"],
  ["end_ms", DOUBLE, "endMs"],
  ["ttft_ms", DOUBLE, "ttftMs"],
  ["e2e_ms", DOUBLE, "e2eMs"],
  ["itl_ms", DOUBLE, "itlMs"],
  ["input_tokens", DOUBLE, "inputTokens"],
  ["output_tokens", DOUBLE, "outputTokens"],
  ["cached_tokens", INTEGER, "cachedTokens"],
  ["possible_reuse_tokens", INTEGER, "possibleReuseTokens"],
] as const;

/** One block of raw columns, by name */
export interface NativeChunk {
  rows: number;
  column(name: string): DuckDBVector;
}

/**
 * One records file read by DuckDB: its raw columns in a Parquet file until the caller has read
 * them and handed back each record's numbers, which `writeSegment` joins to the raw text columns
 * in the stage's column order (lib/store/columnar/aiperf-request-file.ts).
 */
export class AiperfRecordsRead {
  private numbers: DuckDBConnection | null = null;
  private appender: DuckDBAppender | null = null;
  private closed = false;

  private constructor(
    private readonly db: Db,
    private readonly raw: string,
    readonly check: NativeCheck,
  ) {}

  /** Reads `jsonl` into raw columns; throws what DuckDB refuses (a malformed line, a type it cannot cast). */
  static async open(db: Db, jsonl: string, maxObjectBytes: number): Promise<AiperfRecordsRead> {
    const raw = runFileTmpPath(db, "records-raw");
    const c = await openConnection();
    try {
      await c.run(
        `copy (${rawSelect(jsonl, maxObjectBytes)}) to ${quote(raw)} (format parquet, compression snappy)`,
      );
      const row = (
        await c.runAndReadAll(
          `select count(*)::double, count(*) filter (odd)::double, count(start_ns)::double, count(end_ns)::double,
             count(credit_issued_ns)::double
           from read_parquet(${quote(raw)})`,
        )
      ).getRowsJS()[0] as number[];
      return new AiperfRecordsRead(db, raw, {
        rows: row[0],
        odd: row[1],
        starts: row[2],
        ends: row[3],
        credits: row[4],
      });
    } catch (err) {
      await fs.promises.rm(raw, { force: true });
      throw err;
    } finally {
      c.closeSync();
    }
  }

  /** The raw columns in file order, one DuckDB chunk at a time. */
  async *chunks(columns: readonly string[]): AsyncGenerator<NativeChunk> {
    const c = await openConnection();
    try {
      const list = ["file_row_number", ...columns].join(", ");
      const result = await c.stream(
        `select ${list} from read_parquet(${quote(this.raw)}, file_row_number = true)`,
      );
      let seen = 0;
      for (;;) {
        const chunk = await result.fetchChunk();
        if (!chunk || chunk.rowCount === 0) break;
        const at = chunk.getColumnVector(0);
        // The upload's order is the file's: a chunk out of it would pair numbers with other records.
        if (Number(at.getItem(0)) !== seen) throw new Error("aiperf records read out of order");
        seen += chunk.rowCount;
        const vectors = new Map(columns.map((name, i) => [name, chunk.getColumnVector(i + 1)]));
        yield { rows: chunk.rowCount, column: (name) => vectors.get(name)! };
      }
    } finally {
      c.closeSync();
    }
  }

  /** Appends the numbers of the next `n.rows` records, in file order. */
  async appendNumbers(n: NativeNumbers): Promise<void> {
    if (!this.appender) {
      const c = (this.numbers = await openConnection());
      await c.run(
        `create temp table numbers (${NUMBER_COLUMNS.map(([col, t]) => `${col} ${t}`).join(", ")})`,
      );
      this.appender = await c.createAppender("numbers", "main", "temp");
    }
    const chunk = DuckDBDataChunk.create(NUMBER_COLUMNS.map(([, t]) => t));
    chunk.rowCount = n.rows;
    NUMBER_COLUMNS.forEach(([, , key], i) => {
      const v = chunk.getColumnVector(i);
      const col = n[key];
      for (let j = 0; j < n.rows; j++) v.setItem(j, Number.isNaN(col[j]) ? null : col[j]);
      v.flush();
    });
    this.appender.appendDataChunk(chunk);
  }

  /**
   * Writes the records as staged rows (`seq` from `seqFrom`, `line` the line number, after
   * `linesBefore` lines of the file read before this part) to a Parquet file in the stage's
   * column order; its path.
   */
  async writeSegment(fileId: string, seqFrom: number, linesBefore = 0): Promise<string> {
    const c = this.numbers;
    if (!c || !this.appender) throw new Error("aiperf records: no numbers appended");
    this.appender.closeSync();
    this.appender = null;
    const seg = runFileTmpPath(this.db, "records-segment");
    await c.run(`copy (
        select (${seqFrom} + r.file_row_number)::bigint as seq, ${quote(fileId)} as file_id,
          (${linesBefore} + r.file_row_number + 1)::integer as line, r.request_id,
          case when r.warmup then 'warmup' else 'profiling' end as phase,
          case when r.err then 0 else 1 end as ok, r.cancelled::integer as cancelled, r.error_type,
          n.start_ms, n.end_ms, n.ttft_ms, n.e2e_ms, n.itl_ms, n.input_tokens, n.output_tokens,
          r.conversation_id, r.turn_index, n.cached_tokens, n.possible_reuse_tokens, r.worker_id
        from read_parquet(${quote(this.raw)}, file_row_number = true) r positional join numbers n
      ) to ${quote(seg)} (format parquet, compression snappy)`);
    return seg;
  }

  /** Removes the raw columns and the numbers. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      this.appender?.closeSync();
    } catch {
      // A failed append leaves the appender unusable; the connection below still closes.
    }
    this.appender = null;
    this.numbers?.closeSync();
    this.numbers = null;
    await fs.promises.rm(this.raw, { force: true });
  }
}
